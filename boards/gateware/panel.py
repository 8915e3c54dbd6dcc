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
    the sense lines have had the whole slot to settle.

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
        The nine keys as last read, bit ``k`` = place ``k``, 1 = closed.
    frame : Out(1)
        High for one clock each time all three rows have been read into ``keys``.
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
        timer = Signal(range(self._slot_cycles))    # counts up: the slot ends at its last
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

        m.d.sync += [timer.eq(timer + 1), self.frame.eq(0)]
        with m.If(timer == self._slot_cycles - 1):
            m.d.sync += [timer.eq(0), row.eq(row.rotate_left(1))]
            for r in range(2):
                with m.If(row[r]):
                    m.d.sync += read[3 * r:3 * r + 3].eq(sense)
            with m.If(row[2]):
                m.d.sync += [self.keys.eq(Cat(read[:6], sense)), self.frame.eq(1)]
        return m
