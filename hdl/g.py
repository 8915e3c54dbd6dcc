"""Baum's evaluation G of a board, as a block (thesis, 1975, chapter 2, figs. 10-11),
for every core that weighs a board by it: Baum's G and G with forced moves, Tactic-Toe's
planner and Ultimate's engine (firmware_ref/g.py is the golden side's G).

A line's three places count +1 for a machine's stone (red), -1 for a person's (green)
and 0 when empty; F(x, y, z) = (x + y + z)^3 + xyz, and G is F summed over the eight
lines. F depends only on how many stones of each colour a line holds, so each line
counts its stones of each colour and looks F up in a table of 16 (the pairs of counts),
and a tree of adders sums the eight.
"""

from amaranth.hdl import Array, Cat, Const, Module, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .turns import LINES


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
        # Index: how many red stones the line holds, then how many green (0..3 each).
        table = Array(Const(f(i & 3, i >> 2), F_SHAPE) for i in range(16))
        terms = [table[Cat(sum(self.red[k] for k in three)[:2],
                           sum(self.green[k] for k in three)[:2])] for three in LINES]
        m.d.comb += self.value.eq(tree(terms))
        return m


def tree(terms):
    """The sum of `terms` as a balanced tree of adders: three deep for eight, where a
    chain would be seven."""
    while len(terms) > 1:
        terms = [sum(terms[i:i + 2]) for i in range(0, len(terms), 2)]
    return terms[0]
