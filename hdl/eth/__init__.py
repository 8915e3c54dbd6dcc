"""Amaranth rebuild of the Geiser & Marzetta tic-tac-toe chip (ETH Zurich, 1989/90)."""
