"""The players' plans in Tactic-Toe's cartridge (docs/tactic.md): each entered key by
key under the round's rule, or B's from the machine's planner, and round 1's kept as
the players' histories."""

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .rules import allowed

__all__ = ["Plans"]


class Plans(wiring.Component):
    """One command a clock. While ``enter``, the player ``player`` enters a plan: a key
    the round's rule allows (hdl/tactic/rules.py) is the plan's next place, and after
    the third (``complete``) the next plan begins from its first; a key the rule
    refuses changes nothing but ``refused``, which stays high until a key is taken.

    Members
    -------
    key : In(9)
        A key press, one-hot.
    round : In(range(1, 4))
        The round, whose rule the keys meet.
    enter : In(1)
        A player enters a plan.
    player : In(1)
        0: A, 1: B.
    clear : In(1)
        A new game: no key taken, none refused.
    machine : In(1)
        B's plan is ``planned``.
    planned : In(4).array(3)
        The machine's plan for B.
    keep : In(1)
        The plans become the histories (at the end of round 1).
    plan_a, plan_b : Out(4).array(3)
        A's and B's plans, places 0-8.
    history_a, history_b : Out(4).array(3)
        A's and B's round-1 plans.
    taken : Out(range(3))
        The keys of the plan being entered.
    refused : Out(1)
        The last key was refused.
    complete : Out(1)
        Combinational. The key taken now is the plan's third.
    """

    key: In(9)
    round: In(range(1, 4))
    enter: In(1)
    player: In(1)
    clear: In(1)
    machine: In(1)
    planned: In(4).array(3)
    keep: In(1)
    plan_a: Out(4).array(3)
    plan_b: Out(4).array(3)
    history_a: Out(4).array(3)
    history_b: Out(4).array(3)
    taken: Out(range(3))
    refused: Out(1)
    complete: Out(1)

    def elaborate(self, platform):
        m = Module()
        key, taken = Signal(4), self.taken
        for k in range(9):
            with m.If(self.key[k]):
                m.d.comb += key.eq(k)

        # One command a clock (the game's states), as one chain: the synthesis then
        # keeps the plans' flip-flops' enables in place of multiplexers.
        with m.If(self.enter & self.key.any()):
            for player, plan, history in ((0, self.plan_a, self.history_a),
                                          (1, self.plan_b, self.history_b)):
                ok = Mux(taken == 0, allowed(self.round, history, [], key),
                         Mux(taken == 1, allowed(self.round, history, plan[:1], key),
                             allowed(self.round, history, plan[:2], key)))
                with m.If(self.player == player):
                    with m.If(ok):
                        m.d.sync += [plan[0].eq(Mux(taken == 0, key, plan[0])),
                                     plan[1].eq(Mux(taken == 1, key, plan[1])),
                                     plan[2].eq(Mux(taken == 2, key, plan[2])),
                                     self.refused.eq(0), taken.eq(taken + 1)]
                        with m.If(taken == 2):
                            m.d.comb += self.complete.eq(1)
                            m.d.sync += taken.eq(0)
                    with m.Else():
                        m.d.sync += self.refused.eq(1)
        with m.Elif(self.machine):
            m.d.sync += [self.plan_b[i].eq(self.planned[i]) for i in range(3)]
        with m.Elif(self.keep):
            m.d.sync += [*(self.history_a[i].eq(self.plan_a[i]) for i in range(3)),
                         *(self.history_b[i].eq(self.plan_b[i]) for i in range(3))]
        with m.Elif(self.clear):
            m.d.sync += [taken.eq(0), self.refused.eq(0)]
        return m
