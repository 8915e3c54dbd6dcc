"""Baum's G: the machine moves where Baum's evaluation G is best (museum, issue 14)."""
