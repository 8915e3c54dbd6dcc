"""Baum's G with the forced moves played through before G weighs the board."""
