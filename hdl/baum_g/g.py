"""Baum's evaluation G of a board, as a block (thesis, 1975, chapter 2, figs. 10-11).

A line's three places count +1 for a machine's stone (red), -1 for a person's (green)
and 0 when empty; F(x, y, z) = (x + y + z)^3 + xyz, and G is F summed over the eight
lines. F depends only on how many stones of each colour the line holds, so each line
looks F up in a table of its six bits, and an adder sums the eight.
"""

from amaranth.hdl import Array, Cat, Const, Module, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..turns import LINES


__all__ = ["f", "F_SHAPE", "G_MAX", "G_SHAPE", "G"]


def f(red, green):
    """F of a line holding `red` machine's and `green` person's stones."""
    product = (-1) ** green if red + green == 3 else 0
    return (red - green) ** 3 + product


F_SHAPE = signed(6)                     # F is -28..28
G_MAX = len(LINES) * f(3, 0)            # no board reaches it; a bound for the adder
G_SHAPE = signed(G_MAX.bit_length() + 1)


class G(wiring.Component):
    """``value`` is G of the board whose machine's stones are ``red`` and person's
    ``green`` (never both on one place)."""

    red: In(9)
    green: In(9)
    value: Out(G_SHAPE)

    def elaborate(self, platform):
        m = Module()
        # Index: the line's three red bits, then its three green bits.
        table = Array(Const(f(bin(i & 7).count("1"), bin(i >> 3).count("1")), F_SHAPE)
                      for i in range(64))
        terms = [table[Cat(Cat(self.red[k] for k in three),
                           Cat(self.green[k] for k in three))] for three in LINES]
        m.d.comb += self.value.eq(sum(terms))
        return m
