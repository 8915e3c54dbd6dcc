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

from amaranth.hdl import Array, Cat, Module, Mux, Signal, signed
from amaranth.lib import data, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from ..g import G
from ..turns import lines
from .rules import CELLS, Boards, small

__all__ = ["WIN", "BIG", "DEPTH", "VALUE", "NODES", "binary", "Engine"]

WIN = 1_000_000
BIG = 16                    # the big board's weight in the evaluation
DEPTH = 4
VALUE = signed(22)          # the value said: -WIN..WIN
SUM = signed(14)            # G of nine small boards and BIG x G of the big one
SCORE = signed(15)          # a value inside: -INSIDE_INFINITY..INSIDE_INFINITY
INSIDE_WIN = 1 << 13
INSIDE_INFINITY = (1 << 14) - 1
NODES = 32
FRAME = data.StructLayout({"alpha": SCORE, "beta": SCORE, "best": SCORE,
                           "remaining": CELLS, "sum": SUM,
                           "last_b": 4, "last_k": 4, "has_last": 1})


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


def cell(m, b, k):
    """The 81-bit one-hot of cell `k` of small board `b`: each decoded on its own, so
    that a cell is one gate of two."""
    boards, places, cells = Signal(9), Signal(9), Signal(CELLS)
    m.d.comb += [boards.eq(Cat(b == i for i in range(9))),
                 places.eq(Cat(k == i for i in range(9))),
                 cells.eq(Cat(boards[i // 9] & places[i % 9] for i in range(CELLS)))]
    return cells


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
        m.submodules.boards = boards = Boards()
        m.d.comb += [boards.xs.eq(self.xs), boards.os.eq(self.os),
                     boards.last_k.eq(self.last_k), boards.has_last.eq(self.has_last)]
        for name in ("x_line", "o_line", "decided", "x_big", "o_big", "no_move", "legal"):
            m.d.comb += getattr(self, name).eq(getattr(boards, name))

        m.submodules.stack = stack = Memory(shape=FRAME, depth=8, init=[],
                                            attrs={"ram_style": "block"})
        push, pop = stack.write_port(), stack.read_port()

        ply = Signal(range(8))              # 0: the root
        alpha, beta, best = Signal(SCORE), Signal(SCORE), Signal(SCORE)
        remaining = Signal(CELLS)           # the node's legal cells not yet played
        pick = Signal(CELLS)                # the one MAKE plays: the lowest
        total = Signal(SUM)                 # G of the undecided small boards
        returned, up = Signal(SCORE), Signal(SCORE)     # RETURN's value, negated
        at = Signal(4)                      # the root's last_b, while INIT walks

        # The small board of the last move, after it: taken by MAKE, so that ENTER looks
        # at registers (INIT walks the boards through it). G of it before and after the
        # move; G of the big board, owned places as stones.
        x_here, o_here = Signal(9), Signal(9)
        m.submodules.g_now = g_now = G()
        m.submodules.g_before = g_before = G()
        m.submodules.g_big = g_big = G()
        k_bit = Signal(9)
        m.d.comb += [self.x_view.eq(Array(small(self.xs, b) for b in range(9))[self.view_b]),
                     self.o_view.eq(Array(small(self.os, b) for b in range(9))[self.view_b]),
                     k_bit.eq(Cat(self.last_k == k for k in range(9))),
                     g_now.red.eq(x_here), g_now.green.eq(o_here),
                     g_before.red.eq(x_here & ~k_bit), g_before.green.eq(o_here & ~k_bit),
                     g_big.red.eq(boards.x_line), g_big.green.eq(boards.o_line)]
        counted = Signal(SUM)               # the board's part of the sum, now
        m.d.comb += counted.eq(Mux(lines(x_here).any() | lines(o_here).any()
                                   | (x_here | o_here).all(), 0, g_now.value))
        # ENTER's findings, for SCORE.
        was, now, big = Signal(SUM), Signal(SUM), Signal(SUM)
        won, drawn = Signal(), Signal()
        here = Signal(SUM)                  # the sum of this position
        m.d.comb += here.eq(Mux(ply == 0, total, total - was + now))
        evaluation, negated = Signal(SUM), Signal(SUM)
        m.d.comb += [evaluation.eq(here + big), negated.eq(-here - big)]

        # The lowest of the cells left: of the node's own (SCORE), or of its frame's
        # (RETURN).
        left, lowest = Signal(CELLS), Signal(CELLS)
        m.d.comb += lowest.eq(first(m, left))
        k_hot = Cat(Cat(pick[9 * b + k] for b in range(9)).any() for k in range(9))
        move_b, move_k = binary(Cat(small(pick, b).any() for b in range(9))), binary(k_hot)
        taken = Signal(4)                   # the small board x_here and o_here take
        x_taken = Array(small(self.xs, b) for b in range(9))[taken]
        o_taken = Array(small(self.os, b) for b in range(9))[taken]

        # RETURN's arithmetic on the parent's frame.
        frame = pop.data
        better = up > frame.best
        raised = better & (up > frame.alpha)
        cut = raised & (up >= frame.beta)

        # Every change of the board: cells emptied, cells set (X's or O's).
        last, placed = cell(m, self.last_b, self.last_k), cell(m, self.at_b, self.at_k)
        erase, write, to_x = Signal(CELLS), Signal(CELLS), Signal()
        m.d.sync += [self.xs.eq(self.xs & ~erase | write & to_x.replicate(CELLS)),
                     self.os.eq(self.os & ~erase | write & ~to_x.replicate(CELLS))]

        m.d.comb += [
            push.addr.eq(ply),
            push.data.alpha.eq(alpha), push.data.beta.eq(beta), push.data.best.eq(best),
            push.data.remaining.eq(remaining & ~pick), push.data.sum.eq(total),
            push.data.last_b.eq(self.last_b), push.data.last_k.eq(self.last_k),
            push.data.has_last.eq(self.has_last),
        ]

        with m.FSM():
            with m.State("IDLE"):
                with m.If(self.clear):
                    m.d.comb += erase.eq(~0)
                    m.d.sync += [self.has_last.eq(0), self.last_b.eq(0), self.last_k.eq(0),
                                 self.x_turn.eq(1)]
                with m.If(self.stone):
                    m.d.comb += [write.eq(placed), to_x.eq(self.stone_x)]
                with m.If(self.put):
                    m.d.sync += [self.last_b.eq(self.put_b), self.last_k.eq(self.put_k),
                                 self.has_last.eq(self.put_has_last),
                                 self.x_turn.eq(self.put_x_turn)]
                with m.If(self.play):
                    m.d.comb += [write.eq(placed), to_x.eq(self.x_turn)]
                    m.d.sync += [self.last_b.eq(self.at_b), self.last_k.eq(self.at_k),
                                 self.has_last.eq(1), self.x_turn.eq(~self.x_turn)]
                with m.If(self.run):
                    # INIT walks the small boards with last_b, kept meanwhile in `at`.
                    m.d.sync += [ply.eq(0), at.eq(self.last_b), self.last_b.eq(0),
                                 total.eq(0), now.eq(0), x_here.eq(0), o_here.eq(0),
                                 self.nodes.eq(0),
                                 alpha.eq(-INSIDE_INFINITY), beta.eq(INSIDE_INFINITY)]
                    m.next = "INIT"
            with m.State("INIT"):
                # Board last_b is taken; the clock after, its part is found (none for
                # the boards past 8, empty); the clock after that, added.
                m.d.comb += [self.searching.eq(1), taken.eq(self.last_b)]
                m.d.sync += [x_here.eq(x_taken), o_here.eq(o_taken),
                             total.eq(total + now), now.eq(counted),
                             self.last_b.eq(self.last_b + 1)]
                with m.If(self.last_b == 10):
                    m.d.sync += self.last_b.eq(at)
                    m.next = "ENTER"
            with m.State("ENTER"):
                m.d.comb += self.searching.eq(1)
                m.d.sync += [self.nodes.eq(self.nodes + 1), was.eq(g_before.value),
                             now.eq(counted), big.eq(BIG * g_big.value),
                             won.eq(boards.x_big | boards.o_big), drawn.eq(boards.no_move),
                             remaining.eq(boards.legal)]
                m.next = "SCORE"
            with m.State("SCORE"):
                m.d.comb += [self.searching.eq(1), pop.addr.eq(ply - 1), left.eq(remaining)]
                m.d.sync += total.eq(here)
                with m.If(won):
                    m.d.sync += [returned.eq(-INSIDE_WIN), up.eq(INSIDE_WIN)]
                    m.next = "RETURN"
                with m.Elif(drawn):
                    m.d.sync += [returned.eq(0), up.eq(0)]
                    m.next = "RETURN"
                with m.Elif(ply == self.depth):
                    m.d.sync += [returned.eq(Mux(self.x_turn, evaluation, negated)),
                                 up.eq(Mux(self.x_turn, negated, evaluation))]
                    m.next = "RETURN"
                with m.Else():
                    m.d.sync += [best.eq(-INSIDE_INFINITY), pick.eq(lowest)]
                    m.next = "MAKE"
            with m.State("MAKE"):
                m.d.comb += [self.searching.eq(1), push.en.eq(1), write.eq(pick),
                             to_x.eq(self.x_turn), taken.eq(move_b)]
                m.d.sync += [x_here.eq(x_taken | Mux(self.x_turn, k_hot, 0)),
                             o_here.eq(o_taken | Mux(self.x_turn, 0, k_hot))]
                m.d.sync += [self.last_b.eq(move_b), self.last_k.eq(move_k),
                             self.has_last.eq(1), self.x_turn.eq(~self.x_turn),
                             ply.eq(ply + 1), alpha.eq(-beta), beta.eq(-alpha)]
                m.next = "ENTER"
            with m.State("RETURN"):
                m.d.comb += [self.searching.eq(1), pop.addr.eq(ply - 2), left.eq(frame.remaining)]
                with m.If(ply == 0):
                    m.d.sync += self.value.eq(Mux(returned == INSIDE_WIN, WIN, Mux(
                        returned == -INSIDE_WIN, -WIN, returned)))
                    m.next = "IDLE"
                with m.Else():
                    m.d.comb += erase.eq(last)
                    m.d.sync += [self.last_b.eq(frame.last_b), self.last_k.eq(frame.last_k),
                                 self.has_last.eq(frame.has_last),
                                 self.x_turn.eq(~self.x_turn), ply.eq(ply - 1),
                                 total.eq(frame.sum)]
                    with m.If((ply == 1) & better):
                        m.d.sync += [self.best_b.eq(self.last_b), self.best_k.eq(self.last_k)]
                    with m.If(cut | (frame.remaining == 0)):
                        # The parent returns its best: up, or the frame's.
                        m.d.sync += [returned.eq(Mux(better, up, frame.best)),
                                     up.eq(Mux(better, returned, -frame.best))]
                    with m.Else():
                        m.d.sync += [alpha.eq(Mux(raised, up, frame.alpha)),
                                     beta.eq(frame.beta), best.eq(Mux(better, up, frame.best)),
                                     remaining.eq(frame.remaining), pick.eq(lowest)]
                        m.next = "MAKE"
        return m
