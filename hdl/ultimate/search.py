"""The engine's search: alpha-beta (negamax) to a fixed depth, four clocks a node,
making and unmaking moves on the position itself, the stack in block RAM
(hdl/ultimate/engine.py's text gives the states clock by clock)."""

from amaranth.hdl import Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .evaluation import Evaluation
from .node import INSIDE_WIN, Node
from .rules import CELLS

__all__ = ["WIN", "VALUE", "NODES", "Search"]

WIN = 1_000_000
VALUE = signed(22)          # the value said: -WIN..WIN
NODES = 32


class Search(wiring.Component):
    """The states IDLE, INIT, ENTER, SCORE, MAKE and RETURN, the ply, the nodes
    counted and the root's move and value. The position is the engine's
    (hdl/ultimate/position.py): the search asks it to walk, make and unmake moves.
    The sum of G follows them (hdl/ultimate/evaluation.py), and the node's numbers
    and the stack of frames are the node's (hdl/ultimate/node.py).

    Parameters
    ----------
    depth : int
        The plies searched.
    weight : int
        The big board's weight in the evaluation.

    Members
    -------
    run : In(1)
        While idle: search the position.
    searching : Out(1)
        Combinational. High until the result is in.
    best_b, best_k : Out(4)
        The root's move: the first of the best value.
    value : Out(VALUE)
        Its value, for the player to move (a win is ±`WIN`).
    nodes : Out(NODES)
        The nodes entered, the root included.
    xs, os : In(81)
        The position's X's and O's.
    last_b, last_k : In(4)
        The last move.
    has_last, x_turn : In(1)
        There was a last move; X is to move.
    x_line, o_line : In(9)
        Each small board holds a line of X's, of O's.
    x_big, o_big, no_move : In(1)
        X, O owns a big line; every small board is decided.
    legal : In(81)
        The legal cells.
    idle : Out(1)
        Combinational. The search is idle: the position takes its set-up.
    walk : Out(1)
        Combinational. The position's last small board is ``walk_b``.
    walk_b : Out(4)
        Combinational. The small board INIT takes next, or at the end the root's.
    make : Out(1)
        Combinational. The player to move plays ``move``.
    move : Out(81)
        Combinational. The cell picked (the node's), one-hot.
    move_b, move_k : Out(4)
        Combinational. That cell: small board, cell.
    unmake : Out(1)
        Combinational. The last move is taken back.
    back_b, back_k : Out(4)
        Combinational. The move before it, from the parent's frame.
    back_has_last : Out(1)
        Combinational. There was one.
    """

    run: In(1)
    searching: Out(1)
    best_b: Out(4)
    best_k: Out(4)
    value: Out(VALUE)
    nodes: Out(NODES)
    xs: In(CELLS)
    os: In(CELLS)
    last_b: In(4)
    last_k: In(4)
    has_last: In(1)
    x_turn: In(1)
    x_line: In(9)
    o_line: In(9)
    x_big: In(1)
    o_big: In(1)
    no_move: In(1)
    legal: In(CELLS)
    idle: Out(1)
    walk: Out(1)
    walk_b: Out(4)
    make: Out(1)
    move: Out(CELLS)
    move_b: Out(4)
    move_k: Out(4)
    unmake: Out(1)
    back_b: Out(4)
    back_k: Out(4)
    back_has_last: Out(1)

    def __init__(self, depth, weight):
        self.depth, self.weight = depth, weight
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        m.submodules.evaluation = evaluation = Evaluation(self.weight)
        m.submodules.node = node = Node(self.depth)
        ply = Signal(range(8))              # 0: the root
        at = Signal(4)                      # the root's last_b, while INIT walks
        m.d.comb += [
            *(getattr(evaluation, name).eq(getattr(self, name))
              for name in ("xs", "os", "x_line", "o_line", "last_k", "x_turn")),
            evaluation.root.eq(ply == 0), evaluation.k_hot.eq(node.k_hot),
            evaluation.saved.eq(node.frame.sum),
            *(getattr(node, name).eq(getattr(self, name)) for name in (
                "legal", "x_big", "o_big", "no_move", "x_turn", "last_b", "last_k",
                "has_last")),
            node.ply.eq(ply), node.sum.eq(evaluation.total),
            node.evaluation.eq(evaluation.evaluation), node.negated.eq(evaluation.negated),
            *(getattr(self, name).eq(getattr(node, name)) for name in ("move", "move_b",
                                                                        "move_k")),
            self.back_b.eq(node.frame.last_b), self.back_k.eq(node.frame.last_k),
            self.back_has_last.eq(node.frame.has_last),
        ]

        with m.FSM():
            with m.State("IDLE"):
                m.d.comb += self.idle.eq(1)
                with m.If(self.run):
                    # INIT walks the small boards with last_b, kept meanwhile in `at`.
                    m.d.comb += [self.walk.eq(1), self.walk_b.eq(0), evaluation.start.eq(1),
                                 node.start.eq(1)]
                    m.d.sync += [ply.eq(0), at.eq(self.last_b), self.nodes.eq(0)]
                    m.next = "INIT"
            with m.State("INIT"):
                m.d.comb += [self.searching.eq(1), evaluation.board.eq(self.last_b),
                             evaluation.init.eq(1), self.walk.eq(1),
                             self.walk_b.eq(self.last_b + 1)]
                with m.If(self.last_b == 10):
                    m.d.comb += self.walk_b.eq(at)
                    m.next = "ENTER"
            with m.State("ENTER"):
                m.d.comb += [self.searching.eq(1), evaluation.enter.eq(1), node.enter.eq(1)]
                m.d.sync += self.nodes.eq(self.nodes + 1)
                m.next = "SCORE"
            with m.State("SCORE"):
                m.d.comb += [self.searching.eq(1), node.score.eq(1), evaluation.keep.eq(1)]
                with m.If(node.returns):
                    m.next = "RETURN"
                with m.Else():
                    m.next = "MAKE"
            with m.State("MAKE"):
                m.d.comb += [self.searching.eq(1), self.make.eq(1), node.make.eq(1),
                             evaluation.board.eq(node.move_b), evaluation.take.eq(1)]
                m.d.sync += ply.eq(ply + 1)
                m.next = "ENTER"
            with m.State("RETURN"):
                m.d.comb += [self.searching.eq(1), node.ret.eq(1)]
                with m.If(ply == 0):
                    m.d.sync += self.value.eq(Mux(node.returned == INSIDE_WIN, WIN, Mux(
                        node.returned == -INSIDE_WIN, -WIN, node.returned)))
                    m.next = "IDLE"
                with m.Else():
                    m.d.comb += [self.unmake.eq(1), evaluation.restore.eq(1)]
                    m.d.sync += ply.eq(ply - 1)
                    with m.If((ply == 1) & node.better):
                        m.d.sync += [self.best_b.eq(self.last_b), self.best_k.eq(self.last_k)]
                    with m.If(node.again):
                        m.next = "MAKE"
        return m
