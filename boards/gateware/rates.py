"""The console's rates, which the host's side needs without the gateware: the host
link's baud rate on a board, the board in a box's, and the boards' oscillator,
`sim.CLOCK_HZ` (every board the project knows runs at it; tests/test_top.py holds each
board's platform to it)."""

from sim import CLOCK_HZ

__all__ = ["BAUD", "BOX_BAUD", "CLOCK_HZ"]

BAUD = 115_200
# The board in a box's link: the same desk built with the UART's shortest bit, 4 clocks
# (tests/test_uart.py), where 115,200 baud take 104. A box has no wire, and at the
# board's rate a 34-byte status line cost it 35,000 clocks, more than the chip's worst
# search (docs/boards.md, "The board in a box"). The boards' bitstreams keep BAUD.
BOX_BAUD = CLOCK_HZ // 4
