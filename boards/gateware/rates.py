"""The console's two rates, which the host's side needs without the gateware: the host
link's baud rate, and the boards' oscillator, `sim.CLOCK_HZ` (every board the project
knows runs at it; tests/test_top.py holds each board's platform to it)."""

from sim import CLOCK_HZ

__all__ = ["BAUD", "CLOCK_HZ"]

BAUD = 115_200
