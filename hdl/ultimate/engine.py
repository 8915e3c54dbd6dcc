"""The engine: alpha-beta (negamax) to a fixed depth over Ultimate Tic-Tac-Toe, three
clocks a node, with the position in registers and the stack in block RAM
(docs/ultimate.md; the same search as firmware_ref/ultimate/engine.py, read, not imported).

The engine owns the position: ``xs``, ``os``, the last move (``last_b``, ``last_k``,
``has_last``) and the player to move (``x_turn``). While it is idle the cartridge sets
them: ``clear`` empties the board, ``stone`` puts a stone (X if ``stone_x``) on the cell
``at_b``, ``at_k`` (small board, cell), ``put`` sets the last move and the turn, and
``play`` makes a move on that cell for the player to move.
``run`` searches the position; ``busy`` stays high until the result is in ``best_b``,
``best_k`` (the move), ``value`` (for the player to move) and ``nodes``.

The search makes and unmakes moves on the position itself:

- INIT (9 clocks): ``sum`` := G of each undecided small board, summed.
- ENTER (a node, one clock): count it. A big line is -WIN for the player to move, no
  move left a draw (0), and at the full depth the value is the evaluation, sum +
  BIG x G(big board), signed for the player to move; each returns. Otherwise the node
  keeps its legal cells in ``remaining``. ``sum`` follows the move that led here: only
  its small board changed (G before and after, and whether it is now decided).
- MAKE (one clock): the lowest remaining cell is played, and the node's registers
  (alpha, beta, best, the rest of ``remaining``, ``sum`` and the last move) are pushed;
  the child gets (-beta, -alpha).
- RETURN (one clock): the node's value goes to its parent, whose frame is popped: the
  move is taken back, best and alpha as negamax keeps them; a cut-off (alpha >= beta)
  or no cell left returns the parent too (next clock), else MAKE its next move. The
  root keeps the first move of the best value.

So a search of N nodes takes 9 + 3N + 1 clocks from ``run`` to the clock ``busy`` falls.
"""

from amaranth.hdl import Array, Cat, Module, Mux, Signal, signed
from amaranth.lib import data, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from ..baum_g.g import G
from .rules import CELLS, Boards, small

__all__ = ["WIN", "INFINITY", "BIG", "DEPTH", "VALUE", "SUM", "NODES", "Engine"]

WIN = 1_000_000
INFINITY = 2 * WIN
BIG = 16                    # the big board's weight in the evaluation
DEPTH = 4
VALUE = signed(22)          # -INFINITY..INFINITY
SUM = signed(14)            # G of nine small boards and BIG x G of the big one
NODES = 32
FRAME = data.StructLayout({"alpha": VALUE, "beta": VALUE, "best": VALUE,
                           "remaining": CELLS, "sum": SUM,
                           "last_b": 4, "last_k": 4, "has_last": 1})


def binary(onehot):
    """The index of the one set bit of `onehot`."""
    width = max(1, (len(onehot) - 1).bit_length())
    return Cat(Cat(onehot[i] for i in range(len(onehot)) if i >> j & 1).any()
               for j in range(width))


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
    # The search.
    run: In(1)
    busy: Out(1)
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
        alpha, beta, best = Signal(VALUE), Signal(VALUE), Signal(VALUE)
        remaining = Signal(CELLS)
        total = Signal(SUM)                 # G of the undecided small boards
        returned = Signal(VALUE)            # the value RETURN hands up
        at = Signal(range(9))               # INIT's small board

        # G of one small board before and after the move on it (ENTER), or of board
        # `at` (INIT); G of the big board with owned places as stones.
        m.submodules.g_now = g_now = G()
        m.submodules.g_before = g_before = G()
        m.submodules.g_big = g_big = G()
        board = Signal(4)
        k_bit = Signal(9)
        x_small = Array(small(self.xs, b) for b in range(9))[board]
        o_small = Array(small(self.os, b) for b in range(9))[board]
        m.d.comb += [k_bit.eq(Cat(self.last_k == k for k in range(9))),
                     g_now.red.eq(x_small), g_now.green.eq(o_small),
                     g_before.red.eq(x_small & ~k_bit), g_before.green.eq(o_small & ~k_bit),
                     g_big.red.eq(boards.x_line), g_big.green.eq(boards.o_line)]
        counted = Signal(SUM)               # the board's part of the sum, now
        m.d.comb += counted.eq(Mux(boards.decided.bit_select(board, 1), 0, g_now.value))
        here = Signal(SUM)                  # the sum of this position, in ENTER
        m.d.comb += here.eq(Mux(ply == 0, total, total - g_before.value + counted))
        evaluation = Signal(SUM)
        m.d.comb += evaluation.eq(here + BIG * g_big.value)

        # MAKE's move: the lowest remaining cell.
        lowest = Signal(CELLS)
        m.d.comb += lowest.eq(remaining & (~remaining + 1))
        move_b = binary(Cat(small(lowest, b).any() for b in range(9)))
        move_k = binary(Cat(Cat(lowest[9 * b + k] for b in range(9)).any()
                            for k in range(9)))

        # RETURN's arithmetic on the parent's frame.
        frame = pop.data
        value = Signal(VALUE)
        m.d.comb += value.eq(-returned)
        better = value > frame.best
        raised = better & (value > frame.alpha)
        new_best = Mux(better, value, frame.best)
        cut = raised & (value >= frame.beta)

        # Every change of the board: cells emptied, cells set (X's or O's).
        last, placed = cell(m, self.last_b, self.last_k), cell(m, self.at_b, self.at_k)
        erase, write, to_x = Signal(CELLS), Signal(CELLS), Signal()
        m.d.sync += [self.xs.eq(self.xs & ~erase | write & to_x.replicate(CELLS)),
                     self.os.eq(self.os & ~erase | write & ~to_x.replicate(CELLS))]

        m.d.comb += [
            push.addr.eq(ply),
            push.data.alpha.eq(alpha), push.data.beta.eq(beta), push.data.best.eq(best),
            push.data.remaining.eq(remaining & ~lowest), push.data.sum.eq(total),
            push.data.last_b.eq(self.last_b), push.data.last_k.eq(self.last_k),
            push.data.has_last.eq(self.has_last),
        ]

        with m.FSM():
            with m.State("IDLE"):
                m.d.comb += board.eq(self.last_b)
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
                    m.d.sync += [ply.eq(0), at.eq(0), total.eq(0), self.nodes.eq(0),
                                 alpha.eq(-INFINITY), beta.eq(INFINITY)]
                    m.next = "INIT"
            with m.State("INIT"):
                m.d.comb += [self.busy.eq(1), board.eq(at)]
                m.d.sync += [total.eq(total + counted), at.eq(at + 1)]
                with m.If(at == 8):
                    m.next = "ENTER"
            with m.State("ENTER"):
                m.d.comb += [self.busy.eq(1), board.eq(self.last_b), pop.addr.eq(ply - 1)]
                m.d.sync += [self.nodes.eq(self.nodes + 1), total.eq(here)]
                with m.If(boards.x_big | boards.o_big):
                    m.d.sync += returned.eq(-WIN)
                    m.next = "RETURN"
                with m.Elif(boards.no_move):
                    m.d.sync += returned.eq(0)
                    m.next = "RETURN"
                with m.Elif(ply == self.depth):
                    m.d.sync += returned.eq(Mux(self.x_turn, evaluation, -evaluation))
                    m.next = "RETURN"
                with m.Else():
                    m.d.sync += [remaining.eq(boards.legal), best.eq(-INFINITY)]
                    m.next = "MAKE"
            with m.State("MAKE"):
                m.d.comb += [self.busy.eq(1), board.eq(self.last_b), push.en.eq(1),
                             write.eq(lowest), to_x.eq(self.x_turn)]
                m.d.sync += [self.last_b.eq(move_b), self.last_k.eq(move_k),
                             self.has_last.eq(1), self.x_turn.eq(~self.x_turn),
                             ply.eq(ply + 1), alpha.eq(-beta), beta.eq(-alpha)]
                m.next = "ENTER"
            with m.State("RETURN"):
                m.d.comb += [self.busy.eq(1), board.eq(self.last_b), pop.addr.eq(ply - 2)]
                with m.If(ply == 0):
                    m.d.sync += self.value.eq(returned)
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
                        m.d.sync += returned.eq(new_best)
                    with m.Else():
                        m.d.sync += [alpha.eq(Mux(raised, value, frame.alpha)),
                                     beta.eq(frame.beta), best.eq(new_best),
                                     remaining.eq(frame.remaining)]
                        m.next = "MAKE"
        return m
