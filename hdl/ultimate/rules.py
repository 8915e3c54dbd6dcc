"""Ultimate Tic-Tac-Toe's rules as logic (with the gaps docs/ultimate.md decides).

Cell i (0-80) is cell i % 9 of small board i // 9, both row by row; a move on cell k of
any small board sends the other player to small board k. `Boards` looks at a position
(X's and O's 81 cells, and the last move's cell within its small board) and says, for
every small board, whether a player has a line in it and whether it is decided (a line,
or full), whether a player owns a big line, and which cells are legal.
"""

from amaranth.hdl import Cat, Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..turns import lines

__all__ = ["CELLS", "small", "Boards"]

CELLS = 81


def small(cells, board):
    """The nine cells of small board `board` (a constant 0-8) of 81 `cells`."""
    return cells[9 * board:9 * board + 9]


class Boards(wiring.Component):
    """The rules' view of a position: ``xs`` and ``os`` (81 cells each), ``last_k`` (the
    last move's cell in its small board) and ``has_last`` (there was a move)."""

    xs: In(CELLS)
    os: In(CELLS)
    last_k: In(4)
    has_last: In(1)
    x_line: Out(9)          # small board b holds a line of X's
    o_line: Out(9)
    decided: Out(9)         # a line, or full
    x_big: Out(1)           # X owns three big places in a row
    o_big: Out(1)
    no_move: Out(1)         # every small board is decided
    legal: Out(CELLS)       # the cells the player to move may take (none once the game ends)

    def elaborate(self, platform):
        m = Module()
        for b in range(9):
            x, o = small(self.xs, b), small(self.os, b)
            m.d.comb += [self.x_line[b].eq(lines(x).any()),
                         self.o_line[b].eq(lines(o).any()),
                         self.decided[b].eq(self.x_line[b] | self.o_line[b] | (x | o).all())]
        m.d.comb += [self.x_big.eq(lines(self.x_line).any()),
                     self.o_big.eq(lines(self.o_line).any()),
                     self.no_move.eq(self.decided.all())]
        # Sent to a decided board (or at the first move): any undecided board.
        anywhere = ~self.has_last | self.decided.bit_select(self.last_k, 1)
        over = self.x_big | self.o_big
        empty = ~(self.xs | self.os)
        m.d.comb += self.legal.eq(Cat(
            small(empty, b) & (~self.decided[b] & ~over
                               & (anywhere | (self.last_k == b))).replicate(9)
            for b in range(9)))
        return m
