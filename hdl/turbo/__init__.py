"""Turbo: alpha-beta on the game of turns, forced moves seen at once (issue 14)."""
