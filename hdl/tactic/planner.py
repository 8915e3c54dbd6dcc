"""The machine's planner in hardware: every pair of legal plans, one pair a clock."""

from amaranth.hdl import Cat, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .resolver import Resolver
from .rules import legal
from .score import Score, WIN


__all__ = ["Planner", "PLANS", "PIPELINE"]

PLANS = 9 ** 3                 # every triple of places, legal or not
PIPELINE = 2                   # clocks from a pair to its score, and to the sum
TOTAL = signed((PLANS * WIN).bit_length() + 1)


class Planner(wiring.Component):
    """B's plan: for each legal plan p of B (in lexicographic order), the sum over
    every legal plan q of A of the score of the round (hdl/tactic/score.py) that p and
    q give; the plan with the largest sum, the first among equals. Every mean divides
    by the same count, so the sums compare as the means do.

    While ``run`` is high it walks p and q over all 729 triples each: one pair a clock
    while p is legal (a clock for each q, legal or not), one clock for an illegal p.
    Three stages, a clock each, resolve a pair, score it and add it up (and compare
    at the end of p's walk). So with L legal plans of B the walk takes
    W = 729 L + (729 - L) clocks, and ``done`` rises `PIPELINE` + 1 clocks after its
    last: W + 3 clocks from ``run``. Round 1: W = 227,865; round 2: 88,089; round
    3: 531,441. ``plan`` holds once ``done`` is high; dropping ``run`` makes it
    ready for the next.
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
        p_ok = legal(self.round, self.history_b, p)
        q_ok = legal(self.round, self.history_a, q)
        finished = Signal()                 # the walk is over; the pipeline drains
        draining = Signal(PIPELINE - 1)     # the last pair in the stages behind
        m.d.comb += [
            resolver.xs.eq(self.xs), resolver.os.eq(self.os),
            resolver.last.eq(self.round == 3),
            *(resolver.plan_a[i].eq(q[i]) for i in range(3)),
            *(resolver.plan_b[i].eq(p[i]) for i in range(3)),
        ]

        def last(digits):
            return Cat(d == 8 for d in digits).all()

        def advance(digits):
            """The next triple in lexicographic order (888 wraps to 000)."""
            for i in range(3):
                with m.If(last(digits[i + 1:]) if i < 2 else 1):
                    m.d.sync += digits[i].eq(Mux(digits[i] == 8, 0, digits[i] + 1))

        # Stage 1: the pair resolved. Stage 2: its score. Stage 3: the sum, and at the
        # end of a plan's walk the comparison. Each stage is a clock: fmax.
        s1_xs, s1_os, s1_result = Signal(9), Signal(9), Signal(3)
        s1_count, s1_end, s1_plan = Signal(), Signal(), [Signal(4) for _ in range(3)]
        s2_value = Signal(score.value.shape())
        s2_count, s2_end, s2_plan = Signal(), Signal(), [Signal(4) for _ in range(3)]
        total, best = Signal(TOTAL), Signal(TOTAL)
        m.d.comb += [score.xs.eq(s1_xs), score.os.eq(s1_os), score.result.eq(s1_result)]
        m.d.sync += [
            s1_xs.eq(resolver.xs_after), s1_os.eq(resolver.os_after),
            s1_result.eq(resolver.result),
            s1_count.eq(self.run & ~finished & p_ok & q_ok),
            s1_end.eq(self.run & ~finished & p_ok & last(q)),
            *(s1_plan[i].eq(p[i]) for i in range(3)),
            s2_value.eq(score.value), s2_count.eq(s1_count), s2_end.eq(s1_end),
            *(s2_plan[i].eq(s1_plan[i]) for i in range(3)),
            # The last pair's sum is compared on the edge that raises done.
            draining.eq(Cat(finished, draining[:-1])),
            self.done.eq(draining[-1]),
        ]
        sum_now = Signal(TOTAL)
        m.d.comb += sum_now.eq(total + Mux(s2_count, s2_value, 0))
        with m.If(s2_end):
            m.d.sync += total.eq(0)
            with m.If(sum_now > best):
                m.d.sync += [best.eq(sum_now), *(self.plan[i].eq(s2_plan[i]) for i in range(3))]
        with m.Else():
            m.d.sync += total.eq(sum_now)

        with m.If(~self.run):
            m.d.sync += [*(d.eq(0) for d in p + q), total.eq(0), finished.eq(0),
                         draining.eq(0), self.done.eq(0),
                         best.eq(-(1 << (TOTAL.width - 1)))]
        with m.Elif(~finished):
            with m.If(p_ok & ~last(q)):
                advance(q)
            with m.Else():
                m.d.sync += [d.eq(0) for d in q]
                advance(p)
                with m.If(last(p)):
                    m.d.sync += finished.eq(1)
        return m
