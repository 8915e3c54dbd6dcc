"""The planner's score of a resolved round, for player B (the machine)."""

from amaranth.hdl import Module, Mux, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..g import G
from .resolver import O_WINS, OPEN, X_WINS


__all__ = ["Score", "WIN"]

WIN = 1000


class Score(wiring.Component):
    """``value``: +1000 when B won, -1000 when A won, 0 for a tie or a cats game, else
    Baum's G of the board for B (hdl/g.py: B's stones +1, A's -1)."""

    xs: In(9)
    os: In(9)
    result: In(3)
    value: Out(signed(11))

    def elaborate(self, platform):
        m = Module()
        m.submodules.g = g = G()
        m.d.comb += [g.red.eq(self.os), g.green.eq(self.xs)]
        m.d.comb += self.value.eq(Mux(self.result == O_WINS, WIN,
                                      Mux(self.result == X_WINS, -WIN,
                                          Mux(self.result == OPEN, g.value, 0))))
        return m
