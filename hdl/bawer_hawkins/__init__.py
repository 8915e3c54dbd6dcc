"""Bawer and Hawkins's tick-tack-toe in a cigarette box (1970) as a cartridge of the
museum."""
