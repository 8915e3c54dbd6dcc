"""A node of the engine's search (docs/ultimate.md, "The engine in hardware"): its
window, its best value, the cells it has left and the move picked, with the frames of
the nodes above it on a stack in block RAM."""

from amaranth.hdl import Module, Mux, Signal, signed
from amaranth.lib import data, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from .evaluation import SUM
from .pick import Pick
from .rules import CELLS

__all__ = ["SCORE", "INSIDE_WIN", "INSIDE_INFINITY", "FRAME", "Node"]

SCORE = signed(15)          # a value inside: -INSIDE_INFINITY..INSIDE_INFINITY
INSIDE_WIN = 1 << 13
INSIDE_INFINITY = (1 << 14) - 1
FRAME = data.StructLayout({"alpha": SCORE, "beta": SCORE, "best": SCORE,
                           "remaining": CELLS, "sum": SUM,
                           "last_b": 4, "last_k": 4, "has_last": 1})


class Node(wiring.Component):
    """Negamax on the node at ``ply``, as the search's states ask, one step a clock:

    - ``start`` (a search begins): the root's window is everything;
    - ``enter`` (ENTER): whether a big line or no move ends the game, and the legal
      cells;
    - ``score`` (SCORE): a big line is -WIN for the player to move, no move left a draw
      (0), and at the full depth the value is the evaluation signed for the player to
      move (``returns``: each returns). Otherwise the node picks its lowest cell;
    - ``make`` (MAKE): the node's frame (window, best, cells left, the sum and the
      last move) is pushed, and the child gets (-beta, -alpha);
    - ``ret`` (RETURN): the node's value (``returned``; ``up`` is it negated) goes to
      its parent, whose frame was read a clock ahead: best and alpha as negamax keeps
      them. A cut-off (alpha >= beta) or no cell left returns the parent too, else
      (``again``) it picks its next cell.

    The frame of ply p is at p in the stack: SCORE reads the parent's, RETURN the
    grandparent's, each ready the clock after.

    Parameters
    ----------
    depth : int
        The plies searched: a node at that ply is a leaf.

    Members
    -------
    start, enter, score, make, ret : In(1)
        The steps above, one at a time.
    ply : In(range(8))
        The node's ply, 0 at the root.
    legal : In(81)
        The cells the player to move may take.
    x_big, o_big, no_move : In(1)
        X, O owns a big line; no move is left.
    x_turn : In(1)
        X is to move.
    evaluation, negated : In(SUM)
        The position's evaluation from X's side, and negated.
    sum, last_b, last_k, has_last : In
        The rest of the frame pushed: the sum of G, the last move.
    returns : Out(1)
        Combinational. At SCORE: the node returns, else it makes a move.
    again : Out(1)
        Combinational. At RETURN: the parent picks its next cell.
    better : Out(1)
        Combinational. At RETURN: the child's value beats the parent's best.
    returned : Out(SCORE)
        The value returned, for the player to move at the node returning.
    frame : Out(FRAME)
        The parent's frame, read a clock ahead.
    move : Out(81)
        The cell picked, one-hot.
    move_b, move_k : Out(4)
        Combinational. That cell: small board, cell.
    k_hot : Out(9)
        Combinational. That cell, one-hot in its small board.
    """

    start: In(1)
    enter: In(1)
    score: In(1)
    make: In(1)
    ret: In(1)
    ply: In(range(8))
    legal: In(CELLS)
    x_big: In(1)
    o_big: In(1)
    no_move: In(1)
    x_turn: In(1)
    evaluation: In(SUM)
    negated: In(SUM)
    sum: In(SUM)
    last_b: In(4)
    last_k: In(4)
    has_last: In(1)
    returns: Out(1)
    again: Out(1)
    better: Out(1)
    returned: Out(SCORE)
    frame: Out(FRAME)
    move: Out(CELLS)
    move_b: Out(4)
    move_k: Out(4)
    k_hot: Out(9)

    def __init__(self, depth):
        self.depth = depth
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        m.submodules.pick = pick = Pick()
        m.submodules.stack = stack = Memory(shape=FRAME, depth=8, init=[],
                                            attrs={"ram_style": "block"})
        push, pop = stack.write_port(), stack.read_port()
        alpha, beta, best = Signal(SCORE), Signal(SCORE), Signal(SCORE)
        remaining = Signal(CELLS)           # the node's legal cells not yet played
        up = Signal(SCORE)                  # the value returned, negated
        won, drawn = Signal(), Signal()     # ENTER's findings, for SCORE
        leaf = self.ply == self.depth
        # RETURN's arithmetic on the parent's frame.
        frame = pop.data
        better = up > frame.best
        raised = better & (up > frame.alpha)
        cut = raised & (up >= frame.beta)
        m.d.comb += [
            self.frame.eq(frame), self.better.eq(better), self.returns.eq(won | drawn | leaf),
            self.again.eq(~(cut | (frame.remaining == 0))),
            pick.pick.eq(self.move), self.move_b.eq(pick.move_b), self.move_k.eq(pick.move_k),
            self.k_hot.eq(pick.k_hot),
            push.addr.eq(self.ply), push.en.eq(self.make),
            push.data.alpha.eq(alpha), push.data.beta.eq(beta), push.data.best.eq(best),
            push.data.remaining.eq(remaining & ~self.move), push.data.sum.eq(self.sum),
            push.data.last_b.eq(self.last_b), push.data.last_k.eq(self.last_k),
            push.data.has_last.eq(self.has_last),
        ]

        # One step a clock (the search's states), as one chain: with a condition for
        # each, the synthesis keeps a multiplexer for every register (some 240 LUTs)
        # in place of the flip-flops' enables.
        with m.If(self.start):
            m.d.sync += [alpha.eq(-INSIDE_INFINITY), beta.eq(INSIDE_INFINITY)]
        with m.Elif(self.enter):
            m.d.sync += [won.eq(self.x_big | self.o_big), drawn.eq(self.no_move),
                         remaining.eq(self.legal)]
        with m.Elif(self.score):
            m.d.comb += [pop.addr.eq(self.ply - 1), pick.cells.eq(remaining)]
            with m.If(won):
                m.d.sync += [self.returned.eq(-INSIDE_WIN), up.eq(INSIDE_WIN)]
            with m.Elif(drawn):
                m.d.sync += [self.returned.eq(0), up.eq(0)]
            with m.Elif(leaf):
                m.d.sync += [self.returned.eq(Mux(self.x_turn, self.evaluation, self.negated)),
                             up.eq(Mux(self.x_turn, self.negated, self.evaluation))]
            with m.Else():
                m.d.sync += [best.eq(-INSIDE_INFINITY), self.move.eq(pick.lowest)]
        with m.Elif(self.make):
            m.d.sync += [alpha.eq(-beta), beta.eq(-alpha)]
        with m.Elif(self.ret):
            m.d.comb += [pop.addr.eq(self.ply - 2), pick.cells.eq(frame.remaining)]
            with m.If(self.ply != 0):
                with m.If(~self.again):
                    # The parent returns its best: up, or the frame's.
                    m.d.sync += [self.returned.eq(Mux(better, up, frame.best)),
                                 up.eq(Mux(better, self.returned, -frame.best))]
                with m.Else():
                    m.d.sync += [alpha.eq(Mux(raised, up, frame.alpha)),
                                 beta.eq(frame.beta), best.eq(Mux(better, up, frame.best)),
                                 remaining.eq(frame.remaining), self.move.eq(pick.lowest)]
        return m
