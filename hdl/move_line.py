"""The line that says a machine's move to the host, in the game's coordinates."""

from amaranth.hdl import Module, Mux, Signal, unsigned
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out


__all__ = ["MoveLine"]


class MoveLine(wiring.Component):
    """Says a place as its column ``A``-``C``, its row ``1``-``3`` and a newline (place 0
    is ``A1``, place 5 ``C2``), beside the game: the game never waits for it. A move said
    while a line goes out restarts the line with that move, so a slow host hears the
    latest move whole.

    Members
    -------
    say : In(1)
        Say ``move``: the line begins on the next clock.
    move : In(range(9))
        The place to say, with ``say``.
    hush : In(1)
        A new game: the line is dropped (it wins over ``say``).
    tx : Out(stream.Signature(8))
        The line's bytes, to the host.
    """

    say: In(1)
    move: In(range(9))
    hush: In(1)
    tx: Out(stream.Signature(unsigned(8)))

    def elaborate(self, platform):
        m = Module()
        said = Signal(range(9))             # the move to say
        saying = Signal(2)                  # 3: its column, 2: its row, 1: the newline
        column, row = Signal(2), Signal(2)  # of `said`, decoded after its register
        with m.Switch(said):
            for k in range(9):
                with m.Case(k):
                    m.d.comb += [column.eq(k % 3), row.eq(k // 3)]
        m.d.comb += [self.tx.valid.eq(saying != 0),
                     self.tx.payload.eq(Mux(saying == 3, ord("A") + column,
                                            Mux(saying == 2, ord("1") + row, ord("\n"))))]
        with m.If(self.tx.valid & self.tx.ready):
            m.d.sync += saying.eq(saying - 1)
        with m.If(self.say):
            m.d.sync += [said.eq(self.move), saying.eq(3)]
        with m.If(self.hush):
            m.d.sync += saying.eq(0)
        return m
