"""One round resolved in logic: the board after three simultaneous steps."""

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..turns import lines


__all__ = ["OPEN", "CATS", "TIE", "X_WINS", "O_WINS", "Resolver", "step"]

# A round's result: no result yet, a cats game, a tie, player A (X) or B (O) won.
OPEN, CATS, TIE, X_WINS, O_WINS = range(5)


def step(m, xs, os, a, b):
    """The masks after one step: A on `a`, B on `b` (places 0-8); a move onto a
    taken place fails, two onto one empty place bounce."""
    # Each a signal of its own: a simulator then computes it once, not in every
    # expression that reads it (three steps would otherwise nest them many times).
    bit_a, bit_b, new_xs, new_os = Signal(9), Signal(9), Signal(9), Signal(9)
    taken = xs | os
    clash = a == b
    m.d.comb += [bit_a.eq(1 << a), bit_b.eq(1 << b),
                 new_xs.eq(xs | Mux(clash | (taken & bit_a).any(), 0, bit_a)),
                 new_os.eq(os | Mux(clash | (taken & bit_b).any(), 0, bit_b))]
    return new_xs, new_os


class Resolver(wiring.Component):
    """``xs``/``os`` (A's and B's places) and two plans in; the masks after the round
    and its result (`OPEN` ... `O_WINS`) out, combinationally. After each step: a line ends the round (both
    players' lines: a tie), a full board is a cats game; no line after round 3 is a
    cats game (``last``)."""

    xs: In(9)
    os: In(9)
    last: In(1)
    plan_a: In(4).array(3)
    plan_b: In(4).array(3)
    xs_after: Out(9)
    os_after: Out(9)
    result: Out(3)

    def elaborate(self, platform):
        m = Module()
        xs, os = self.xs, self.os
        result = Mux(self.last, CATS, OPEN)
        decided = []
        for i in range(3):
            xs, os = step(m, xs, os, self.plan_a[i], self.plan_b[i])
            x_line, o_line, full = Signal(), Signal(), Signal()
            m.d.comb += [x_line.eq(lines(xs).any()), o_line.eq(lines(os).any()), full.eq((xs | os).all())]
            now = Mux(x_line & o_line, TIE, Mux(x_line, X_WINS, Mux(o_line, O_WINS, CATS)))
            decided.append((x_line | o_line | full, now, xs, os))
        # The first step that decides wins: walk them from the last back.
        final_xs, final_os = xs, os
        for ends, now, step_xs, step_os in reversed(decided):
            result = Mux(ends, now, result)
            final_xs = Mux(ends, step_xs, final_xs)
            final_os = Mux(ends, step_os, final_os)
        m.d.comb += [self.xs_after.eq(final_xs), self.os_after.eq(final_os),
                     self.result.eq(result)]
        return m
