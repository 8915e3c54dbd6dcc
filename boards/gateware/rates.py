"""The console's rates, which the host's side needs without the gateware: the host
link's baud rate on a board, the board in a box's, and the console's clock,
`sim.CLOCK_HZ`, which the board in a box and the page's desks run at. A board's desk
runs at its own oscillator, its module's `clock_hz` (12 MHz for the iCE40 boards, 25 to
48 MHz for the others): the desk counts its bit, row and blink in it, and the host
counts only the chip's cycles (tests/test_top.py)."""

from sim import CLOCK_HZ

__all__ = ["BAUD", "BOX_BAUD", "CLOCK_HZ"]

BAUD = 115_200
# The board in a box's link: the same desk built with the UART's shortest bit, 4 clocks
# (tests/test_uart.py), where 115,200 baud take 104. A box has no wire, and at the
# board's rate a 34-byte status line cost it 35,000 clocks, more than the chip's worst
# search (docs/boards.md, "The board in a box"). The boards' bitstreams keep BAUD.
BOX_BAUD = CLOCK_HZ // 4
