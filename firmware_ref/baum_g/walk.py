"""Every game against a machine's rule, weighed by perfect play (firmware_ref/perfect.py):
where the machine gives away a win or a draw, and whether it ever loses.

A rule is `choose(places)`, the machine's move (machine RED, person GREEN) on a board
where it is to move; the walk gives the person every empty place at each turn, the
machine moving first and second.
"""

from dataclasses import dataclass

from .. import perfect
from ..cartridge import full, line
from ..places import EMPTY, GREEN, RED

__all__ = ["Slip", "Walk", "walk"]


@dataclass(frozen=True)
class Slip:
    """A machine's move that loses value: `places` before it, the machine having begun
    (`first`) or not, the value it had and the value after `move`."""
    places: tuple
    first: bool
    move: int
    had: int
    kept: int


@dataclass
class Walk:
    games: int = 0
    lost: int = 0           # games the person won
    won: int = 0            # games the machine won
    slips: tuple = ()       # each position once, in the order met


def walk(choose):
    """Walk every game against `choose`, the machine beginning and not."""
    result, slips = Walk(), {}

    def play(places, side, first):
        if line(places, RED) or line(places, GREEN) or full(places):
            result.games += 1
            result.won += line(places, RED)
            result.lost += line(places, GREEN)
            return
        if side == RED:
            move = choose(list(places))
            had, kept = perfect.value(places, RED), perfect.values(places, RED)[move]
            if kept < had:
                slips.setdefault((places, first), Slip(places, first, move, had, kept))
            play(places[:move] + (RED,) + places[move + 1:], GREEN, first)
        else:
            for k in range(9):
                if places[k] == EMPTY:
                    play(places[:k] + (GREEN,) + places[k + 1:], RED, first)

    for first in (True, False):
        play((EMPTY,) * 9, RED if first else GREEN, first)
    result.slips = tuple(slips.values())
    return result
