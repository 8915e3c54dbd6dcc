"""Turbo's engine: alpha-beta search on a stack of frames, a node looked at in one clock
and stepped in others (the rules: hdl/turbo/cartridge.py's text).

For speed (the board's analysis starts each look): the board is kept as the stones of
the side to move (``mine``) and of the other (``theirs``), swapped at each step down
and back, so that no colour is chosen before the analysis; places are one-hot, so that
trying, taking back and striking out a place are masks, not decoders; and the answer is
registered, so that the console's board is not at the end of the search's logic."""

from amaranth.hdl import Cat, Module, Mux, Signal, signed
from amaranth.lib import data

from ..turns import Engine
from .analysis import Analysis
from .order import First


__all__ = ["DEPTH", "FRAME", "Search"]

# A node with children has four empty places or more (three or fewer make a leaf) and a
# root eight at most (the empty board is a leaf): parents stand at depths 0 to 4.
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


class Search(Engine):
    def elaborate(self, platform):
        m = Module()
        m.submodules.analysis = seen = Analysis()
        m.submodules.order = order = First()
        m.submodules.order_makers = order_makers = First()

        mine, theirs = Signal(9), Signal(9)                 # the board searched
        stack = [Signal(FRAME, name=f"frame{n}") for n in range(DEPTH)]  # 0: the parent
        depth = Signal(range(DEPTH + 1))
        looking = Signal(init=1)
        decided, leaf_value = Signal(), Signal(signed(2))   # a leaf, and its value
        settling = Signal(2)                # a decided root: its steps to its answer
        forks = Signal(9)
        alpha = Signal(signed(2), init=-1)
        candidates, makers = Signal(9), Signal(9)
        best = Signal(9)
        done, answer = Signal(), Signal(9)
        parent = stack[0]
        # Kept in registers, not derived, for speed: at depth 0, at depth 1, and beta
        # (1 at the root, else minus the parent's alpha).
        root, child = Signal(init=1), Signal()
        beta = Signal(signed(2), init=1)

        m.d.comb += [seen.mine.eq(mine), seen.theirs.eq(theirs),
                     self.done.eq(done), self.move.eq(binary(answer))]

        # Look: whether the node is a leaf, and its value.
        leaf, value = Signal(), Signal(signed(2))
        m.d.comb += [
            leaf.eq(seen.won | seen.forked | seen.forking | seen.few | seen.bare),
            value.eq(Mux(seen.won, 1, Mux(seen.forked, -1, Mux(seen.forking, 1, 0)))),
        ]

        # Step: the pick of the candidates, makers first.
        making = candidates & makers
        m.d.comb += [order.places.eq(candidates), order_makers.places.eq(making)]
        pick = Mux(making.any(), order_makers.first, order.first)
        finished = decided | (alpha >= beta) | ~candidates.any()
        returned = Signal(signed(2))        # minus the node's value, for the parent
        m.d.comb += returned.eq(-Mux(decided, leaf_value, alpha))
        forking = candidates & forks

        with m.If(~self.think):
            red = Cat(place.red for place in self.board)
            green = Cat(place.green for place in self.board)
            m.d.sync += [mine.eq(red), theirs.eq(green), depth.eq(0), looking.eq(1),
                         decided.eq(0), settling.eq(0), alpha.eq(-1), done.eq(0),
                         root.eq(1), child.eq(0), beta.eq(1)]
        with m.Elif(looking):
            m.d.sync += [looking.eq(0), decided.eq(leaf), leaf_value.eq(value),
                         makers.eq(seen.makers), forks.eq(seen.forks),
                         candidates.eq(Mux(seen.won, seen.wins,
                                           Mux(seen.threatened, seen.threats,
                                               seen.empties)))]
        with m.Elif(root & decided & (settling == 0)):
            m.d.sync += [settling.eq(1), candidates.eq(Mux(forking.any(), forking,
                                                           candidates))]
        with m.Elif(root & decided & (settling == 1)):
            m.d.sync += [settling.eq(2), best.eq(pick)]
        with m.Elif(finished & root):       # the answer, shown from the next clock
            m.d.sync += [done.eq(1), answer.eq(best)]
        with m.Elif(finished):              # return to the parent
            m.d.sync += [mine.eq(theirs & ~parent.move), theirs.eq(mine),
                         depth.eq(depth - 1), decided.eq(0), root.eq(child),
                         child.eq(depth == 2),
                         beta.eq(Mux(child, 1, -stack[1].alpha)),
                         candidates.eq(parent.candidates), makers.eq(parent.makers),
                         alpha.eq(Mux(returned > parent.alpha, returned, parent.alpha))]
            m.d.sync += [stack[n].eq(stack[n + 1]) for n in range(DEPTH - 1)]
            with m.If(child & ((returned > parent.alpha) | (parent.alpha == -1))):
                m.d.sync += best.eq(parent.move)
        with m.Else():                      # try a child
            m.d.sync += [mine.eq(theirs), theirs.eq(mine | pick),
                         depth.eq(depth + 1), looking.eq(1), alpha.eq(-beta),
                         root.eq(0), child.eq(root), beta.eq(-alpha),
                         parent.candidates.eq(candidates & ~pick),
                         parent.makers.eq(makers), parent.alpha.eq(alpha),
                         parent.move.eq(pick)]
            m.d.sync += [stack[n + 1].eq(stack[n]) for n in range(DEPTH - 1)]
        return m
