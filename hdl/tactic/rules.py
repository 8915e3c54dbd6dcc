"""Tactic-Toe's rules as logic: which key a plan may take next.

Places are 0-8 here (the seed's 1-9 less one); a plan is three places; `round` is a
signal 1-3 and `history` the player's round-1 plan.
"""

from amaranth.hdl import C, Cat

from ..turns import LINES

__all__ = ["CENTRE", "allowed", "legal"]

CENTRE = 4


def _in(place, places):
    return Cat(place == p for p in places).any()


def allowed(round, history, earlier, key):
    """Whether `key` may follow the places `earlier` (0-2 of them) in a plan.

    Round 1: not the centre, not a place already in the plan, and the third not
    making the plan a line. Round 2: not a place of `history`, nor one already in the
    plan. Round 3: any place."""
    again = _in(key, earlier) if earlier else C(0, 1)
    if len(earlier) == 2:
        plan = (*earlier, key)
        in_line = Cat(Cat(_in(p, line) for p in plan).all() for line in LINES).any()
    else:
        in_line = C(0, 1)
    first = (key != CENTRE) & ~again & ~in_line
    second = ~_in(key, history) & ~again
    return (round == 3) | (round == 1) & first | (round == 2) & second


def legal(round, history, plan):
    """Whether the whole `plan` is legal in `round`."""
    return Cat(allowed(round, history, plan[:i], plan[i]) for i in range(3)).all()

