"""The line Tactic-Toe's cartridge says to the host: the machine's plan for B, its three
places 1-9 and a newline (docs/tactic.md, "On the board")."""

from amaranth.hdl import Module, Mux, Signal, unsigned
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

__all__ = ["LineWriter"]


class LineWriter(wiring.Component):
    """``begin`` says ``plan``: a byte each clock the host takes one, without pause
    (the plan holds still while it is said).

    Members
    -------
    begin : In(1)
        Say the plan, from its first place.
    plan : In(4).array(3)
        B's three places, 0-8.
    tx : Out(stream.Signature(unsigned(8)))
        The bytes said.
    """

    begin: In(1)
    plan: In(4).array(3)
    tx: Out(stream.Signature(unsigned(8)))

    def elaborate(self, platform):
        m = Module()
        saying = Signal(range(5))           # 4..1: three places and a newline to send
        m.d.comb += [self.tx.valid.eq(saying != 0),
                     self.tx.payload.eq(Mux(saying == 1, ord("\n"), ord("1") + Mux(
                         saying == 4, self.plan[0], Mux(saying == 3, self.plan[1],
                                                        self.plan[2]))))]
        with m.If(self.tx.valid & self.tx.ready):
            m.d.sync += saying.eq(saying - 1)
        with m.If(self.begin):
            m.d.sync += saying.eq(4)
        return m
