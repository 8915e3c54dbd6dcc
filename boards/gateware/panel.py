"""The front panel: a 3x3 two-colour LED display and a 3x3 key matrix on shared rows."""

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.cdc import FFSynchronizer
from amaranth.lib.wiring import In, Out


__all__ = ["FrontPanel"]


class FrontPanel(wiring.Component):
    """Drives the display and reads the keys, one row of the board at a time.

    Row ``r`` holds places ``3r``, ``3r + 1`` and ``3r + 2``, as in the paper's board
    (place 0 top left). Each row is active for ``slot_cycles`` clocks: its LEDs light and
    its keys can pull the sense lines. A row's keys are read at the end of its slot, so
    the sense lines have had the whole slot to settle. The last row's are not stored:
    ``keys`` shows them as they come, so a reader samples ``keys`` while ``frame`` is
    high (the debouncer keeps the sample).

    Members
    -------
    stones : In(18)
        What to show, in the chip's ``led`` order: place ``k`` has the chip's stone when
        bit ``2k`` is set (red) and the user's when bit ``2k + 1`` is set (green).
    row : Out(3)
        The active row, one-hot, 1 = active.
    red : Out(3)
        The chip's stones in the active row, 1 = lit; bit ``c`` is column ``c``.
    green : Out(3)
        The user's stones in the active row.
    sense : In(3)
        The key matrix's return lines, 1 = the key in the active row and this column is
        closed. Asynchronous: synchronised here.
    keys : Out(9)
        The nine keys of this frame, bit ``k`` = place ``k``, 1 = closed, while
        ``frame`` is high (on the clock before, the last row's lines a clock earlier).
    frame : Out(1)
        High for one clock, the last of each frame: all three rows are read.
    """

    stones: In(18)
    row: Out(3)
    red: Out(3)
    green: Out(3)
    sense: In(3)
    keys: Out(9)
    frame: Out(1)

    def __init__(self, *, slot_cycles):
        if slot_cycles < 4:
            raise ValueError(f"a row must be active for at least 4 clocks, not {slot_cycles}"
                             " (the sense lines pass a 2-flip-flop synchroniser)")
        self._slot_cycles = slot_cycles
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        sense = Signal(3)
        m.submodules.sense_sync = FFSynchronizer(self.sense, sense)

        row = Signal(3, init=1)     # the active row, one hot
        # Counts up to its top bit: the slot's last clock is the one where that bit is
        # set, a flip-flop, so there is no comparator.
        width = (self._slot_cycles - 1).bit_length()
        reload = (1 << width) - (self._slot_cycles - 1)
        timer = Signal(width + 1, init=reload)
        last = timer[width]
        read = Signal(6)            # rows 0 and 1 as read in this frame

        # Each place's two LED bits, chip then user.
        places = [self.stones[2 * k:2 * k + 2] for k in range(9)]
        m.d.comb += [
            self.row.eq(row),
            self.red.eq(Cat(Cat(row[r] & places[3 * r + c][0] for r in range(3)).any()
                            for c in range(3))),
            self.green.eq(Cat(Cat(row[r] & places[3 * r + c][1] for r in range(3)).any()
                              for c in range(3))),
        ]

        # frame is a flip-flop too, set from the counter's carry out, so the debouncer's
        # decisions start at one.
        more = timer + 1
        m.d.comb += self.keys.eq(Cat(read, sense))
        m.d.sync += [timer.eq(more), self.frame.eq(~last & more[width] & row[2])]
        with m.If(last):
            m.d.sync += [timer.eq(reload), row.eq(row.rotate_left(1))]
            for r in range(2):
                with m.If(row[r]):
                    m.d.sync += read[3 * r:3 * r + 3].eq(sense)
        return m
