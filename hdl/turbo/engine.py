"""Turbo's engine: alpha-beta search on a stack of frames, one step per clock (the rules:
hdl/turbo/cartridge.py's text). Places are one-hot inside, so that trying, taking back
and striking out a candidate are masks, not decoders."""

from amaranth.hdl import Cat, Module, Mux, Signal, signed
from amaranth.lib import data, wiring

from ..turns import EngineSignature
from .analysis import Analysis
from .order import First


__all__ = ["DEPTH", "FRAME", "Search"]

# A node with three empty places or fewer that is not a leaf is... never: a fresh node
# with at most two is one, so the deepest node that tries a child has three empty places
# and a root has at most eight (an empty board is a leaf): at most 8 - 3 + 1 frames.
DEPTH = 6
FRAME = data.StructLayout({
    "candidates": 9,            # not yet tried
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
        m.submodules.analysis = analysis = Analysis()
        m.submodules.order = order = First()

        red, green = Signal(9), Signal(9)                   # the board searched
        stack = [Signal(FRAME, name=f"frame{n}") for n in range(DEPTH)]  # 0: the parent
        depth = Signal(range(DEPTH + 1))
        side = Signal()                                      # 1: the person to move
        fresh = Signal(init=1)
        alpha = Signal(signed(2), init=-1)
        candidates = Signal(9)
        best = Signal(9)
        parent = stack[0]
        root = depth == 0

        m.d.comb += [analysis.board.eq(Cat(Cat(r, g) for r, g in zip(red, green))),
                     analysis.green.eq(side)]

        beta = Signal(signed(2))
        m.d.comb += beta.eq(Mux(root, 1, -parent.alpha))

        # The node: a fresh one's leaf or candidates, from the analysis; else its own.
        leaf, value, move = Signal(), Signal(signed(2)), Signal(9)
        wins, threats = analysis.wins, analysis.threats
        choice = Signal(9)
        with m.If(wins.any()):
            m.d.comb += [leaf.eq(1), value.eq(1), choice.eq(wins)]
        with m.Elif(analysis.forked):
            m.d.comb += [leaf.eq(1), value.eq(-1), choice.eq(threats)]
        with m.Elif(analysis.few | analysis.bare):
            m.d.comb += [leaf.eq(1), value.eq(0),
                         choice.eq(Mux(threats.any(), threats, analysis.empties))]
        with m.Else():
            m.d.comb += choice.eq(Mux(threats.any(), threats, analysis.empties))
        trying = Signal(9)                  # the candidates left to this node
        finished = Signal()
        pick = order.first
        m.d.comb += trying.eq(Mux(fresh, choice, candidates))
        with m.If(fresh):
            m.d.comb += [finished.eq(leaf), move.eq(pick)]
        with m.Else():
            m.d.comb += [finished.eq((alpha >= beta) | ~candidates.any()),
                         value.eq(alpha), move.eq(best)]

        # The pick, of a leaf too: the first maker among the node's candidates, else the
        # first candidate; a leaf's moves (its wins, say) are all as good.
        makers = trying & analysis.makers
        m.d.comb += order.places.eq(Mux(makers.any(), makers, trying))

        m.d.comb += [self.done.eq(self.think & finished & root), self.move.eq(binary(move))]

        returned = Signal(signed(2))        # the value for the parent of a finishing node
        m.d.comb += returned.eq(-value)
        with m.If(~self.think):
            m.d.sync += [red.eq(Cat(place.red for place in self.board)),
                         green.eq(Cat(place.green for place in self.board)),
                         depth.eq(0), side.eq(0), fresh.eq(1), alpha.eq(-1),
                         candidates.eq(0), best.eq(0)]
        with m.Elif(finished & ~root):      # return to the parent
            m.d.sync += [red.eq(red & ~parent.move), green.eq(green & ~parent.move),
                         depth.eq(depth - 1), side.eq(~side), fresh.eq(0),
                         candidates.eq(parent.candidates),
                         alpha.eq(Mux(returned > parent.alpha, returned, parent.alpha))]
            m.d.sync += [stack[n].eq(stack[n + 1]) for n in range(DEPTH - 1)]
            with m.If((depth == 1) & (returned > parent.alpha)):
                m.d.sync += best.eq(parent.move)
        with m.Elif(~finished):             # try a child
            m.d.sync += [depth.eq(depth + 1), side.eq(~side), fresh.eq(1),
                         alpha.eq(-beta), candidates.eq(0),
                         parent.candidates.eq(trying & ~pick),
                         parent.alpha.eq(alpha), parent.move.eq(pick)]
            with m.If(side):
                m.d.sync += green.eq(green | pick)
            with m.Else():
                m.d.sync += red.eq(red | pick)
            m.d.sync += [stack[n + 1].eq(stack[n]) for n in range(DEPTH - 1)]
            with m.If(fresh & root):
                m.d.sync += best.eq(pick)
        return m
