"""The machine against a uniformly random legal opponent, and against itself: whole
games through the referee, with the results counted (docs/tactic.md). Its command line,
``python -m firmware_ref.tactic.match``, stands alone, not a verb of ``ttt``: the golden
models sit below sim/ and boards/ and import neither."""

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


def main(argv=None):
    """`python -m firmware_ref.tactic.match [--games N] [--seed S]`: the rates."""
    import argparse
    import time
    parser = argparse.ArgumentParser(
        prog="python -m firmware_ref.tactic.match",
        description="How strong the Tactic-Toe machine is: whole games against a "
        "player that picks a legal plan at random, as X and as O, and one game against "
        "itself. It prints the wins, losses and draws of each side and the time. 200 "
        "games as each side took 162 s on 2 cores.")
    parser.add_argument("--games", type=int, default=100,
                        help="games as each side (default 100)")
    parser.add_argument("--seed", type=int, default=0,
                        help="the random player's seed (default 0)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games: at least 1")
    began = time.perf_counter()
    for side, counts in against_random(args.games, args.seed).items():
        rates = ", ".join(f"{counts[k]} {name} ({100 * counts[k] / args.games:.0f}%)"
                          for k, name in (("win", "wins"), ("loss", "losses"),
                                          ("draw", "draws")))
        print(f"the machine as {side} against a random player, {args.games} games: {rates}")
    referee = self_play()
    print(f"the machine against itself: {referee.result} after round {referee.round}")
    print(f"({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    import sys

    from ..cli import run
    sys.exit(run(main))
