"""First free: the smallest machine that plays on the console (issue 13's test cartridge)."""
