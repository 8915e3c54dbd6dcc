"""The engine: alpha-beta (negamax) to a fixed depth over Ultimate Tic-Tac-Toe, four
clocks a node, with the position in registers and the stack in block RAM
(docs/ultimate.md; the same search as firmware_ref/ultimate/engine.py, read, not imported).

The engine owns the position: ``xs``, ``os``, the last move (``last_b``, ``last_k``,
``has_last``) and the player to move (``x_turn``). While it is idle the cartridge sets
them: ``clear`` empties the board, ``stone`` puts a stone (X if ``stone_x``) on the cell
``at_b``, ``at_k`` (small board, cell), ``put`` sets the last move and the turn, and
``play`` makes a move on that cell for the player to move. ``view_b`` chooses the small
board ``x_view`` and ``o_view`` show. ``run`` searches the position; ``searching`` stays
high until the result is in ``best_b``, ``best_k`` (the move), ``value`` (for the player to
move) and ``nodes``.

The search makes and unmakes moves on the position itself:

- INIT (11 clocks): ``total`` := G of each undecided small board, summed.
- ENTER (a node, one clock): count it; take G of the small board the last move changed,
  before and after it, whether that board is now decided, G of the big board (owned
  places as stones), whether a big line or no move ends the game, and the legal cells.
- SCORE (one clock): a big line is -WIN for the player to move, no move left a draw
  (0), and at the full depth the value is the evaluation, total + BIG x G(big), signed
  for the player to move; each returns. Otherwise the node keeps its legal cells and
  picks the lowest. ``total`` follows the move: only one small board changed.
- MAKE (one clock): the picked cell is played, and the node's registers (alpha, beta,
  best, the cells left, ``total`` and the last move) are pushed; the child gets
  (-beta, -alpha).
- RETURN (one clock): the node's value goes to its parent, whose frame is popped: the
  move is taken back, best and alpha as negamax keeps them; a cut-off (alpha >= beta) or
  no cell left returns the parent too (next clock), else it picks its next cell (MAKE).
  The root keeps the first move of the best value.

Values are kept in 15 bits: an evaluation is within +-5,600 (nine small boards' G and
16 x the big board's, each at most 224), so a win is 8,192 inside and WIN (1,000,000)
only in ``value``; negamax only compares and negates, so the order is the same. A
search of N nodes keeps ``searching`` high for 11 + 4N - 1 clocks.
"""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .pick import binary
from .position import Position
from .rules import CELLS, Boards
from .search import NODES, VALUE, WIN, Search

__all__ = ["WIN", "BIG", "DEPTH", "VALUE", "NODES", "binary", "Engine"]

BIG = 16                    # the big board's weight in the evaluation
DEPTH = 4


class Engine(wiring.Component):
    xs: Out(CELLS)
    os: Out(CELLS)
    last_b: Out(4)
    last_k: Out(4)
    has_last: Out(1)
    x_turn: Out(1, init=1)
    # The rules' view of the position (hdl/ultimate/rules.py).
    x_line: Out(9)
    o_line: Out(9)
    decided: Out(9)
    x_big: Out(1)
    o_big: Out(1)
    no_move: Out(1)
    legal: Out(CELLS)
    # Setting up, while idle.
    clear: In(1)
    stone: In(1)
    stone_x: In(1)
    at_b: In(4)
    at_k: In(4)
    put: In(1)
    put_b: In(4)
    put_k: In(4)
    put_has_last: In(1)
    put_x_turn: In(1)
    play: In(1)
    view_b: In(4)
    x_view: Out(9)
    o_view: Out(9)
    # The search.
    run: In(1)
    searching: Out(1)
    best_b: Out(4)
    best_k: Out(4)
    value: Out(VALUE)
    nodes: Out(NODES)

    def __init__(self, depth=DEPTH):
        self.depth = depth
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        m.submodules.position = position = Position()
        m.submodules.boards = boards = Boards()
        m.submodules.search = search = Search(self.depth, BIG)
        seen = ("xs", "os", "last_b", "last_k", "has_last", "x_turn")
        ruled = ("x_line", "o_line", "decided", "x_big", "o_big", "no_move", "legal")
        m.d.comb += [
            *(getattr(self, name).eq(getattr(position, name)) for name in seen),
            *(getattr(search, name).eq(getattr(position, name)) for name in seen),
            *(getattr(position, name).eq(getattr(self, name)) for name in (
                "clear", "stone", "stone_x", "at_b", "at_k", "put", "put_b", "put_k",
                "put_has_last", "put_x_turn", "play", "view_b")),
            self.x_view.eq(position.x_view), self.o_view.eq(position.o_view),
            *(getattr(position, name).eq(getattr(search, name)) for name in (
                "idle", "walk", "walk_b", "make", "move", "move_b", "move_k", "unmake",
                "back_b", "back_k", "back_has_last")),
            boards.xs.eq(position.xs), boards.os.eq(position.os),
            boards.last_k.eq(position.last_k), boards.has_last.eq(position.has_last),
            *(getattr(self, name).eq(getattr(boards, name)) for name in ruled),
            *(getattr(search, name).eq(getattr(boards, name)) for name in (
                "x_line", "o_line", "x_big", "o_big", "no_move", "legal")),
            search.run.eq(self.run),
            *(getattr(self, name).eq(getattr(search, name)) for name in (
                "searching", "best_b", "best_k", "value", "nodes")),
        ]
        return m
