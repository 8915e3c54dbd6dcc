"""The console's two rates, which the host's side needs without the gateware: the host
link's baud rate, and the boards' oscillator (every board the project knows runs at
12 MHz; tests/test_top.py holds each board's platform to it)."""

__all__ = ["BAUD", "CLOCK_HZ"]

BAUD = 115_200
CLOCK_HZ = 12_000_000
