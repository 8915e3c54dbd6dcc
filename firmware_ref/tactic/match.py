"""The machine against a uniformly random legal opponent, and against itself: whole
games through the referee, with the results counted (docs/tactic.md)."""

import random
from collections import Counter
from functools import lru_cache

from . import planner
from .referee import Referee
from .rules import O, X, plans

__all__ = ["machine", "random_player", "game", "against_random", "self_play"]


@lru_cache(maxsize=None)
def _machine_plan(board, round, side, history, other):
    return planner.plan(board, round, side, history, other)


def machine(referee, player):
    """The machine's plan as player ``"A"`` (X) or ``"B"`` (O)."""
    other = "B" if player == "A" else "A"
    return _machine_plan(referee.board, referee.round, X if player == "A" else O,
                         referee.history[player], referee.history[other])


def random_player(rng):
    def choose(referee, player):
        return rng.choice(plans(referee.round, referee.history[player]))
    return choose


def game(a, b):
    """A whole game: `a` and `b` choose plans (referee, player) -> plan; the result."""
    referee = Referee()
    while not referee.over:
        referee.play(a(referee, "A"), b(referee, "B"))
    return referee.result


def against_random(games, seed=0):
    """{side: Counter of "win", "loss", "draw"} for the machine as X and as O."""
    rng = random.Random(seed)
    other = random_player(rng)
    found = {}
    for side in ("X", "O"):
        counts = Counter()
        for _ in range(games):
            result = game(machine, other) if side == "X" else game(other, machine)
            counts["win" if result == side else "draw" if result in ("tie", "cats")
                   else "loss"] += 1
        found[side] = counts
    return found


def self_play():
    """The machine against itself: the one game it plays."""
    referee = Referee()
    while not referee.over:
        referee.play(machine(referee, "A"), machine(referee, "B"))
    return referee
