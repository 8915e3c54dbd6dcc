"""The planner's score of a resolved round, for player B (the machine)."""

from amaranth.hdl import Cat, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .resolver import O_WINS, OPEN, X_WINS
from .rules import LINES


__all__ = ["Score", "WIN", "F"]

WIN = 1000


def F(x, y, z):
    """Baum's F of one line (seed 003, fig. 10): each place +1, -1 or 0."""
    return (x + y + z) ** 3 + x * y * z


class Score(wiring.Component):
    """``value``: +1000 when B won, -1000 when A won, 0 for a tie or a cats game, else
    Baum's G of the board for B: F summed over the eight lines, B's stones +1 and A's
    -1. Combinational: each line's F is a table of its six bits."""

    xs: In(9)
    os: In(9)
    result: In(3)
    value: Out(signed(11))

    def elaborate(self, platform):
        m = Module()
        terms = []
        for line in LINES:
            f = Signal(signed(6))
            bits = Cat(*(self.xs[k] for k in line), *(self.os[k] for k in line))
            with m.Switch(bits):
                for code in range(64):
                    xs, os = code & 7, code >> 3
                    if xs & os:
                        continue        # a place with both: never a board
                    v = [(os >> i & 1) - (xs >> i & 1) for i in range(3)]
                    with m.Case(code):
                        m.d.comb += f.eq(F(*v))
            terms.append(f)
        g = Signal(signed(9))
        m.d.comb += g.eq(sum(terms))
        m.d.comb += self.value.eq(Mux(self.result == O_WINS, WIN,
                                      Mux(self.result == X_WINS, -WIN,
                                          Mux(self.result == OPEN, g, 0))))
        return m
