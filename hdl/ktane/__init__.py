"""The bomb module of Keep Talking and Nobody Explodes as a cartridge (cartridge.py)."""
