"""The table's move on a board with the machine (red) to move: a perfect move, the
quickest win or the slowest loss among them, then the lowest place; on a board where the
game is over, the first empty place (the game of turns never asks there)."""

from functools import lru_cache

from .. import perfect
from ..cartridge import full, line
from ..places import EMPTY, GREEN, RED

__all__ = ["score", "choose"]


def _after(places, k, side):
    return places[:k] + (side,) + places[k + 1:]


@lru_cache(maxsize=None)
def score(places, side):
    """The value for `side` (to move) of `places` (a tuple), weighted by how soon the
    game ends with best play: a loss with e empty places left is -(1 + e), a win
    1 + e, a draw 0, and each side plays for the highest."""
    if line(places, perfect.other(side)):
        return -(1 + places.count(EMPTY))
    if full(places):
        return 0
    return max(-score(_after(places, k, side), perfect.other(side))
               for k in range(9) if places[k] == EMPTY)


@lru_cache(maxsize=None)
def _choose(places):
    empty = [k for k in range(9) if places[k] == EMPTY]
    if not empty or line(places, RED) or line(places, GREEN):
        return empty[0] if empty else None
    return min(perfect.best(places, RED),
               key=lambda k: (score(_after(places, k, RED), GREEN), k))


def choose(places):
    """The machine's move on `places` (nine of EMPTY, RED, GREEN; a place showing both
    colours counts as RED), or None on a full board."""
    return _choose(tuple(RED if place & RED else place for place in places))
