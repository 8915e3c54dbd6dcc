"""Turbo's engine: alpha-beta search on a stack of frames, a node looked at in one clock
and stepped in others (the rules: hdl/turbo/cartridge.py's text). Places are one-hot
inside, so that trying, taking back and striking out a place are masks, not decoders;
the answer is registered, so that the console's board is not at the end of the search's
logic."""

from amaranth.hdl import Cat, Module, Mux, Signal, signed
from amaranth.lib import data, wiring

from ..turns import EngineSignature
from .analysis import Analysis
from .order import First


__all__ = ["DEPTH", "FRAME", "Search"]

# A node with three empty places or fewer is a leaf, and a root has at most eight (the
# empty board is a leaf too): a node with children is at most 8 - 4 deep, and so is
# the deepest parent.
DEPTH = 5
FRAME = data.StructLayout({
    "candidates": 9,            # not yet tried
    "makers": 9,
    "alpha": signed(2),
    "move": 9,                  # the child being searched, one-hot
})


def binary(onehot):
    """The place number of a one-hot place."""
    return Cat(Cat(onehot[k] for k in range(9) if k >> bit & 1).any() for bit in range(4))


class Search(wiring.Component):
    def __init__(self):
        super().__init__(EngineSignature())

    def elaborate(self, platform):
        m = Module()
        m.submodules.analysis = seen = Analysis()
        m.submodules.order = order = First()
        m.submodules.order_makers = order_makers = First()

        red, green = Signal(9), Signal(9)                   # the board searched
        stack = [Signal(FRAME, name=f"frame{n}") for n in range(DEPTH)]  # 0: the parent
        depth = Signal(range(DEPTH + 1))
        side = Signal()                                      # 1: the person to move
        looking = Signal(init=1)
        decided = Signal()
        alpha = Signal(signed(2), init=-1)
        candidates, makers = Signal(9), Signal(9)
        best = Signal(9)
        done, move = Signal(), Signal(range(9))
        parent = stack[0]
        root = depth == 0

        m.d.comb += [seen.board.eq(Cat(Cat(r, g) for r, g in zip(red, green))),
                     seen.green.eq(side),
                     self.done.eq(done), self.move.eq(move)]

        # Look: a leaf's value and set, from the board alone.
        leaf, value, chosen = Signal(), Signal(signed(2)), Signal(9)
        candidates_seen = Mux(seen.threats.any(), seen.threats, seen.empties)
        forking = candidates_seen & seen.forks
        with m.If(seen.wins.any()):
            m.d.comb += [leaf.eq(1), value.eq(1), chosen.eq(seen.wins)]
        with m.Elif(seen.forked):
            m.d.comb += [leaf.eq(1), value.eq(-1), chosen.eq(seen.threats)]
        with m.Elif(forking.any()):
            m.d.comb += [leaf.eq(1), value.eq(1), chosen.eq(forking)]
        with m.Else():
            m.d.comb += [leaf.eq(seen.few | seen.bare), value.eq(0),
                         chosen.eq(candidates_seen)]

        # Step: the pick of the candidates, makers first.
        making = candidates & makers
        m.d.comb += [order.places.eq(candidates), order_makers.places.eq(making)]
        pick = Mux(making.any(), order_makers.first, order.first)
        beta = Mux(root, 1, -parent.alpha)
        finished = decided | (alpha >= beta) | ~candidates.any()

        # A return, from a leaf (look) or a finished node (step): the value for the parent.
        back = Signal()
        returned = Signal(signed(2))
        m.d.comb += [back.eq(~root & Mux(looking, leaf, finished)),
                     returned.eq(-Mux(looking, value, alpha))]

        with m.If(~self.think):
            m.d.sync += [red.eq(Cat(place.red for place in self.board)),
                         green.eq(Cat(place.green for place in self.board)),
                         depth.eq(0), side.eq(0), looking.eq(1), decided.eq(0),
                         alpha.eq(-1), done.eq(0)]
        with m.Elif(back):
            m.d.sync += [red.eq(red & ~parent.move), green.eq(green & ~parent.move),
                         depth.eq(depth - 1), side.eq(~side), looking.eq(0),
                         candidates.eq(parent.candidates), makers.eq(parent.makers),
                         alpha.eq(Mux(returned > parent.alpha, returned, parent.alpha))]
            m.d.sync += [stack[n].eq(stack[n + 1]) for n in range(DEPTH - 1)]
            with m.If((depth == 1) & (returned > parent.alpha)):
                m.d.sync += best.eq(parent.move)
        with m.Elif(looking):
            m.d.sync += [looking.eq(0), decided.eq(leaf), makers.eq(seen.makers),
                         candidates.eq(chosen)]
        with m.Elif(finished):              # the root: the answer, shown next clock
            m.d.sync += [done.eq(1), move.eq(binary(Mux(decided, pick, best)))]
        with m.Else():                      # try a child
            m.d.sync += [depth.eq(depth + 1), side.eq(~side), looking.eq(1),
                         alpha.eq(-beta),
                         parent.candidates.eq(candidates & ~pick),
                         parent.makers.eq(makers), parent.alpha.eq(alpha),
                         parent.move.eq(pick)]
            m.d.sync += [stack[n + 1].eq(stack[n]) for n in range(DEPTH - 1)]
            with m.If(side):
                m.d.sync += green.eq(green | pick)
            with m.Else():
                m.d.sync += red.eq(red | pick)
            with m.If(root & (alpha == -1)):
                m.d.sync += best.eq(pick)
        return m
