"""A referee for whole games of Tactic-Toe: round 1, round 2 with each player's
round-1 plan remembered, round 3 only when round 2 ended with no result."""

from .rules import EMPTY, ROUNDS, check, resolve

__all__ = ["Referee"]


class Referee:
    def __init__(self):
        self.board = (EMPTY,) * 9
        self.round = 1
        self.result = "open"
        self.history = {"A": None, "B": None}     # each player's round-1 plan
        self.steps = []                            # the steps of the last round

    @property
    def over(self):
        return self.result != "open"

    def check(self, player, plan):
        """Refuse `player`'s (``"A"`` or ``"B"``) plan with the reason: IllegalPlan."""
        if self.over:
            raise ValueError("the game is over")
        check(plan, self.round, self.history[player])

    def play(self, plan_a, plan_b):
        """Resolve a round; returns its result. Nothing changes if a plan is illegal."""
        self.check("A", plan_a)
        self.check("B", plan_b)
        self.steps = []
        self.board, self.result = resolve(self.board, self.round, plan_a, plan_b,
                                          self.steps)
        if self.round == 1:
            self.history = {"A": plan_a, "B": plan_b}
        if not self.over:
            self.round += 1
            assert self.round <= ROUNDS
        return self.result
