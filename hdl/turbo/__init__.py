"""Turbo: an alpha-beta search on the game of turns, one step per clock (issue 14's museum)."""
