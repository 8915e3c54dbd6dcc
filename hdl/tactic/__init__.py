"""David Dickerson's Tactic-Toe as a cartridge (cartridge.py)."""
