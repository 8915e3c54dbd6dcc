"""The engine's move order (docs/ultimate.md: moves in increasing cell order): the
lowest of a node's cells left, and the cell picked as a small board and a cell."""

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .rules import CELLS, small

__all__ = ["binary", "lowest_bit", "first", "Pick"]


def binary(onehot):
    """The index of the one set bit of `onehot`."""
    width = max(1, (len(onehot) - 1).bit_length())
    return Cat(Cat(onehot[i] for i in range(len(onehot)) if i >> j & 1).any()
               for j in range(width))


def lowest_bit(bits):
    return (bits & (~bits + 1))[:len(bits)]


def first(m, cells):
    """The lowest of 81 `cells`: the lowest of each small board's nine, kept in the
    first small board with any, so that no carry runs through all 81."""
    boards, within = Signal(9), Signal(CELLS)
    m.d.comb += [
        boards.eq(lowest_bit(Cat(small(cells, b).any() for b in range(9)))),
        within.eq(Cat(lowest_bit(small(cells, b)) for b in range(9))),
    ]
    return Cat(small(within, b) & boards[b].replicate(9) for b in range(9))


class Pick(wiring.Component):
    """Two looks, both combinational: ``lowest`` is the lowest of ``cells`` (one-hot,
    none if ``cells`` is empty), without an 81-bit carry; ``pick``, one-hot, is named as
    its small board ``move_b`` and its cell ``move_k``, and ``k_hot`` has the cell's bit.

    Members
    -------
    cells : In(81)
        The cells left.
    lowest : Out(81)
        Combinational. The lowest of them.
    pick : In(81)
        The cell picked, one-hot.
    move_b, move_k : Out(4)
        Combinational. Its small board and its cell in it.
    k_hot : Out(9)
        Combinational. Its cell, one-hot.
    """

    cells: In(CELLS)
    lowest: Out(CELLS)
    pick: In(CELLS)
    move_b: Out(4)
    move_k: Out(4)
    k_hot: Out(9)

    def elaborate(self, platform):
        m = Module()
        m.d.comb += [
            self.lowest.eq(first(m, self.cells)),
            self.k_hot.eq(Cat(Cat(self.pick[9 * b + k] for b in range(9)).any()
                              for k in range(9))),
            self.move_b.eq(binary(Cat(small(self.pick, b).any() for b in range(9)))),
            self.move_k.eq(binary(self.k_hot)),
        ]
        return m
