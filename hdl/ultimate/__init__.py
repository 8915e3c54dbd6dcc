"""Ultimate Tic-Tac-Toe as a cartridge (cartridge.py), its engine in hardware."""
