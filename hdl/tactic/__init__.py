"""Tactic-Toe of seed 004 as a cartridge (cartridge.py)."""
