"""First free: the smallest machine that plays on the console, the console's test cartridge."""
