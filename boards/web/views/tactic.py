"""David Dickerson's Tactic-Toe (docs/tactic.md), as the terminal client plays it
(boards/host/tactic.py, whose board side this uses): both players plan three places,
revealed together, step by step, over up to three rounds; against the machine, or two
people at one screen. The page draws it in static/tactic.js.
"""

from firmware_ref.tactic.rules import IllegalPlan, check, parse_plan
from sim import catalogue

from ...host import tactic
from ..messages import Invalid
from . import Base, field

__all__ = ["NAME", "View"]

NAME = catalogue.TACTIC.view
MARKS = {0: "", 1: "X", 2: "O"}


class View(Base):
    NAME = NAME

    def begin(self):
        self.game = tactic.BoardGame(self.link)
        self.words = tactic.Session(self.game, None, self.said.append)
        self.referee = self.game.new(True)
        self.rounds = []            # each round played: the plans and the steps

    def do_new(self, message):
        machine = field(message, "machine", bool) if "machine" in message else True
        self.referee = self.game.new(machine)
        self.rounds = []

    def do_plan(self, message):
        if self.referee.over:
            raise Invalid("plan: the game is over (new begins another)")
        plan_a = self._plan(message, "a", "A")
        plan_b = None if self.game.machine else self._plan(message, "b", "B")
        played = self.referee.round
        self.referee, plan_b = self.game.play(plan_a, plan_b)
        if self.game.machine:
            self.said.append("The machine planned " + " ".join(map(str, plan_b)) + ".")
        steps = [{"x": step.a, "x_was": step.a_was, "o": step.b, "o_was": step.b_was,
                  "board": [MARKS[v] for v in step.board]} for step in self.referee.steps]
        self.rounds.append({"round": played, "a": plan_a, "b": plan_b, "steps": steps})
        for n, step in enumerate(self.referee.steps):
            self.said.append(f"Round {played}, move {n + 1}: X {step.a} "
                             f"{tactic.STEP[step.a_was]}, O {step.b} "
                             f"{tactic.STEP[step.b_was]}.")
        if self.referee.over:
            self.said.append(self.words.result(self.referee))

    def _plan(self, message, name, player):
        text = field(message, name, str)
        try:
            plan = parse_plan(text.strip())
            check(plan, self.referee.round, self.referee.history[player] or ())
        except (ValueError, IllegalPlan) as error:
            raise Invalid(f"That plan won't do: {error}.") from None
        return plan

    def state(self):
        referee = self.referee
        return {**super().state(), "board": [MARKS[v] for v in referee.board],
                "round": referee.round, "over": referee.over,
                "result": self.words.result(referee) if referee.over else None,
                "machine": self.game.machine, "rounds": self.rounds}
