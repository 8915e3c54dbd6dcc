"""The bomb module of seed 000 as a cartridge (cartridge.py)."""
