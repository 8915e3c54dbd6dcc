"""Ultimate Tic-Tac-Toe of seed 001 as a cartridge (cartridge.py), its engine in hardware."""
