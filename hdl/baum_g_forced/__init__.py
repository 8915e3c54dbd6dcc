"""Baum's G with forced moves played through before G weighs the board (museum, issue 14)."""
