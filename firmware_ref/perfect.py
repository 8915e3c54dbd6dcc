"""Perfect play: the minimax value of every position, the yardstick of the museum.

Boards are nine places in reading order: `EMPTY`, `RED` (the machine, or whoever the
caller says) and `GREEN`, as in firmware_ref/cartridge.py; the side to move is given,
not guessed from the counts, since either side may have begun. Values are for the side to
move: 1 it wins, 0 a draw, -1 it loses, with best play by both.
"""

from functools import lru_cache

from .cartridge import full, line
from .places import EMPTY, GREEN, RED

__all__ = ["WIN", "DRAW", "LOSS", "other", "value", "values", "best", "positions"]

WIN, DRAW, LOSS = 1, 0, -1


def other(side):
    return GREEN if side == RED else RED


@lru_cache(maxsize=None)
def _value(places, side):
    if line(places, other(side)):
        return LOSS
    if full(places):
        return DRAW
    return max(-_value(_after(places, k, side), other(side))
               for k in range(9) if places[k] == EMPTY)


def _after(places, k, side):
    return places[:k] + (side,) + places[k + 1:]


def value(places, side):
    """The value of `places` for `side`, whose move it is."""
    return _value(tuple(places), side)


def values(places, side):
    """{place: the value for `side` of moving there}, over the empty places of a
    position that is not over."""
    places = tuple(places)
    return {k: -_value(_after(places, k, side), other(side))
            for k in range(9) if places[k] == EMPTY}


def best(places, side):
    """The places where `side` keeps the position's value."""
    moves = values(places, side)
    return {k for k, v in moves.items() if v == max(moves.values())}


def positions():
    """Every position a game can reach where the game is not over, with the side to
    move: pairs (places, side) for both sides having begun."""
    seen = set()

    def walk(places, side):
        if (places, side) in seen or line(places, RED) or line(places, GREEN) \
                or full(places):
            return
        seen.add((places, side))
        for k in range(9):
            if places[k] == EMPTY:
                walk(_after(places, k, side), other(side))

    for first in (RED, GREEN):
        walk((EMPTY,) * 9, first)
    return seen

