"""Baum's G: the machine that moves where Baum's evaluation G is best (museum, issue 14)."""
