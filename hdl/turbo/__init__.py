"""Turbo: alpha-beta on the game of turns, forced moves seen at once (the museum)."""
