"""Baum's G: the machine moves where Baum's evaluation G is best (the museum)."""
