"""Baum's G: a machine that moves where Baum's evaluation G is largest, as a cartridge.

Peter Baum's thesis (Tic-Tac-Toe, 1975, chapter 2) scores a board by G, the sum over
the eight lines of F(x, y, z) = (x + y + z)^3 + xyz, a place counting +1 for X, -1 for
O and 0 when empty; X moves where G after its move is largest, O where it is smallest.
F is odd (F(-x, -y, -z) = -F(x, y, z)), so O minimising G is O maximising G with the
stones' signs swapped: this machine, X or O, counts its own stones (red) +1 and the
person's (green) -1 and never needs to know who began.

The rules, clock by clock (firmware_ref/baum_g is the golden model written from this
text and hdl/turns.py's):

- A game of turns (hdl/turns.py) whose engine, `Greedy`, thinks nine clocks for every
  move: on its n-th clock (n = 0..8) it looks at place n.
- An empty place n is a candidate: G of the board with the machine's stone added at n.
  A taken place is no candidate.
- The move is the first candidate (lowest place) with the largest G; it is played on
  the ninth clock, so every move's think time is nine clocks (eleven at the console).
"""

from amaranth.hdl import Module, Mux, Signal

from ..turns import Engine, Turns
from ..g import G, G_SHAPE


__all__ = ["Greedy", "BaumG", "CARTRIDGE"]


class Greedy(Engine):
    """The engine: one place per clock, keeping the first best."""

    def elaborate(self, platform):
        m = Module()
        m.submodules.g = g = G()
        index = Signal(range(9))
        best = Signal(range(9))
        best_value = Signal(G_SHAPE)
        found = Signal()                # some candidate seen since thinking began

        m.d.comb += [g.red[k].eq(self.board[k].red | (index == k)) for k in range(9)]
        m.d.comb += g.green.eq(self.board.as_value()[1::2])
        empty = ~(self.board[index].red | self.board[index].green)
        # Strictly larger only, so that a tie stays with the lower place.
        better = empty & (~found | (g.value > best_value))

        m.d.comb += [self.done.eq(index == 8), self.move.eq(Mux(better, index, best))]
        with m.If(self.think):
            m.d.sync += index.eq(index + 1)
            with m.If(better):
                m.d.sync += [best.eq(index), best_value.eq(g.value), found.eq(1)]
        with m.Else():
            m.d.sync += [index.eq(0), found.eq(0)]
        return m


class BaumG(Turns):
    code = "G"
    blunder_lamp = True
    title = "Baum's G (1975): the move where F summed over the lines is best"

    engine = Greedy


CARTRIDGE = BaumG
