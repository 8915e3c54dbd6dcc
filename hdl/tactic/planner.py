"""The machine's planner in hardware: every pair of legal plans, one pair a clock."""

from amaranth.hdl import Cat, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .resolver import Resolver
from .rules import legal
from .score import Score, WIN


__all__ = ["Planner", "PLANS"]

PLANS = 9 ** 3                 # every triple of places, legal or not
TOTAL = signed((PLANS * WIN).bit_length() + 1)


class Planner(wiring.Component):
    """B's plan: for each legal plan p of B (in lexicographic order), the sum over
    every legal plan q of A of the score of the round (hdl/tactic/score.py) that p and
    q give; the plan with the largest sum, the first among equals. Every mean divides
    by the same count, so the sums compare as the means do.

    While ``run`` is high it walks p and q over all 729 triples each: one pair a clock
    while p is legal (a clock for each q, legal or not), one clock for an illegal p.
    So a plan takes, with L legal plans of B, 729 L + (729 - L) clocks, and one more
    for ``done`` to rise: round 1 227,866, round 2 88,090, round 3 531,442. ``plan``
    holds once ``done`` is high; dropping ``run`` makes it ready for the next.
    """

    run: In(1)
    round: In(range(1, 4))
    xs: In(9)
    os: In(9)
    history_a: In(4).array(3)
    history_b: In(4).array(3)
    done: Out(1)
    plan: Out(4).array(3)

    def elaborate(self, platform):
        m = Module()
        m.submodules.resolver = resolver = Resolver()
        m.submodules.score = score = Score()
        p = [Signal(range(9), name=f"p{i}") for i in range(3)]
        q = [Signal(range(9), name=f"q{i}") for i in range(3)]
        total = Signal(TOTAL)
        best = Signal(TOTAL)
        p_ok = legal(self.round, self.history_b, p)
        q_ok = legal(self.round, self.history_a, q)
        m.d.comb += [
            resolver.xs.eq(self.xs), resolver.os.eq(self.os),
            resolver.last.eq(self.round == 3),
            score.xs.eq(resolver.xs_after), score.os.eq(resolver.os_after),
            score.result.eq(resolver.result),
        ]
        for i in range(3):
            m.d.comb += [resolver.plan_a[i].eq(q[i]), resolver.plan_b[i].eq(p[i])]
        # The sum with this pair's score, when q is legal.
        sum_now = Signal(TOTAL)
        m.d.comb += sum_now.eq(Mux(q_ok, total + score.value, total))

        def last(digits):
            return Cat(d == 8 for d in digits).all()

        def advance(digits):
            """The next triple in lexicographic order (888 wraps to 000)."""
            for i in range(3):
                with m.If(last(digits[i + 1:]) if i < 2 else 1):
                    m.d.sync += digits[i].eq(Mux(digits[i] == 8, 0, digits[i] + 1))

        def next_p():
            m.d.sync += [*(d.eq(0) for d in q), total.eq(0)]
            advance(p)
            with m.If(last(p)):
                m.d.sync += self.done.eq(1)

        with m.If(~self.run):
            m.d.sync += [*(d.eq(0) for d in p + q), total.eq(0), self.done.eq(0),
                         best.eq(-(1 << (TOTAL.width - 1)))]
        with m.Elif(~self.done):
            with m.If(~p_ok):
                next_p()
            with m.Else():
                with m.If(last(q)):
                    with m.If(sum_now > best):
                        m.d.sync += [best.eq(sum_now),
                                     *(self.plan[i].eq(p[i]) for i in range(3))]
                    next_p()
                with m.Else():
                    m.d.sync += total.eq(sum_now)
                    advance(q)
        return m
