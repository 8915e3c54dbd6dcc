"""The engine's evaluation, following the move (docs/ultimate.md, "The engine in
hardware"): Baum's G of each undecided small board, summed, plus the big board's
weight times G of the big board, its owned places as stones."""

from amaranth.hdl import Array, Cat, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..g import G
from ..turns import lines
from .rules import CELLS, small

__all__ = ["SUM", "Evaluation"]

SUM = signed(14)            # G of nine small boards and BIG x G of the big one


class Evaluation(wiring.Component):
    """The sum of the small boards' G, kept as the search moves: only the small board
    of the last move changes, so ENTER takes G of it before and after the move, and a
    node's sum is its parent's less the one and plus the other.

    The small board of the last move, after it, is taken into registers (``take``,
    the small board ``board``; with MAKE's move ``k_hot`` for the player to move), so
    that ENTER looks at registers. The search's states drive the rest:

    - ``start`` (a search begins): the sum and the board taken are emptied;
    - ``init`` (INIT, a clock a small board): the part found a clock before is added,
      and the part of the board taken a clock before is found (none for a decided
      board);
    - ``enter`` (ENTER): G of the board before and after the move, and G of the big
      board, weighted;
    - ``keep`` (SCORE): the node's sum becomes the sum;
    - ``restore`` (RETURN): the sum is ``saved``, the parent's.

    Parameters
    ----------
    weight : int
        The big board's weight in the evaluation.

    Members
    -------
    xs, os : In(81)
        X's and O's cells.
    x_line, o_line : In(9)
        Each small board holds a line of X's, of O's: the big board's stones.
    last_k : In(4)
        The last move's cell in its small board.
    x_turn : In(1)
        X is to move: the side ``k_hot`` goes to.
    root : In(1)
        The node is the root: its sum is the sum, not yet followed.
    board : In(4)
        The small board ``take`` or ``init`` takes.
    k_hot : In(9)
        The stone ``take`` adds to it, one-hot.
    start, init, take, enter, keep, restore : In(1)
        The steps above.
    saved : In(SUM)
        The parent's sum, for ``restore``.
    total : Out(SUM)
        The sum of the undecided small boards' G.
    evaluation, negated : Out(SUM)
        Combinational. The node's evaluation, from X's side, and its negation.
    """

    xs: In(CELLS)
    os: In(CELLS)
    x_line: In(9)
    o_line: In(9)
    last_k: In(4)
    x_turn: In(1)
    root: In(1)
    board: In(4)
    k_hot: In(9)
    start: In(1)
    init: In(1)
    take: In(1)
    enter: In(1)
    keep: In(1)
    restore: In(1)
    saved: In(SUM)
    total: Out(SUM)
    evaluation: Out(SUM)
    negated: Out(SUM)

    def __init__(self, weight):
        self.weight = weight
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        x_here, o_here = Signal(9), Signal(9)
        m.submodules.g_now = g_now = G()
        m.submodules.g_before = g_before = G()
        m.submodules.g_big = g_big = G()
        k_bit = Signal(9)
        m.d.comb += [k_bit.eq(Cat(self.last_k == k for k in range(9))),
                     g_now.red.eq(x_here), g_now.green.eq(o_here),
                     g_before.red.eq(x_here & ~k_bit), g_before.green.eq(o_here & ~k_bit),
                     g_big.red.eq(self.x_line), g_big.green.eq(self.o_line)]
        counted = Signal(SUM)               # the board's part of the sum, now
        m.d.comb += counted.eq(Mux(lines(x_here).any() | lines(o_here).any()
                                   | (x_here | o_here).all(), 0, g_now.value))
        was, now, big = Signal(SUM), Signal(SUM), Signal(SUM)
        here = Signal(SUM)                  # the sum of this position
        m.d.comb += [here.eq(Mux(self.root, self.total, self.total - was + now)),
                     self.evaluation.eq(here + big), self.negated.eq(-here - big)]
        x_taken = Array(small(self.xs, b) for b in range(9))[self.board]
        o_taken = Array(small(self.os, b) for b in range(9))[self.board]

        with m.If(self.start):
            m.d.sync += [self.total.eq(0), now.eq(0), x_here.eq(0), o_here.eq(0)]
        with m.If(self.init):
            m.d.sync += [x_here.eq(x_taken), o_here.eq(o_taken),
                         self.total.eq(self.total + now), now.eq(counted)]
        with m.If(self.enter):
            m.d.sync += [was.eq(g_before.value), now.eq(counted),
                         big.eq(self.weight * g_big.value)]
        with m.If(self.keep):
            m.d.sync += self.total.eq(here)
        with m.If(self.take):
            m.d.sync += [x_here.eq(x_taken | Mux(self.x_turn, self.k_hot, 0)),
                         o_here.eq(o_taken | Mux(self.x_turn, 0, self.k_hot))]
        with m.If(self.restore):
            m.d.sync += self.total.eq(self.saved)
        return m
