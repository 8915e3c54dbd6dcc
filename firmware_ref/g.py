"""Baum's evaluation G of a board on the golden side (his thesis, Tic-Tac-Toe, 1975,
chapter 2; docs/museum-baum-g.md), for every golden model that weighs a board by it:
Baum's G and G with forced moves, Tactic-Toe's planner and Ultimate's engine.
hdl/g.py is the cores' block (read, not imported).

`F` and `G` with X = +1 and O = -1 as the thesis writes them; `signs` turns a board
into those values from one side; `baum` is the thesis' rule (X maximises G, O
minimises it), against which a machine's reading of it is checked.
"""

from .cartridge import LINES
from .places import EMPTY

__all__ = ["F", "G", "signs", "baum"]


def F(x, y, z):
    """Baum's F of one line's three places (each +1, -1 or 0), fig. 10."""
    return (x + y + z) ** 3 + x * y * z


def G(values):
    """F summed over the lines of nine place values (+1, -1, 0)."""
    return sum(F(*(values[k] for k in three)) for three in LINES)


def signs(places, plus):
    """Place values of `places` with `plus`'s stones +1 and the other's -1."""
    return [0 if p == EMPTY else 1 if p == plus else -1 for p in places]


def _after(places, k, side):
    return places[:k] + [side] + places[k + 1:]


def baum(places, side, x):
    """The thesis' move for `side` when `x` (RED or GREEN) plays X: X takes the empty
    place with the largest G after it, O the smallest, ties to the lowest place."""
    sense = 1 if side == x else -1
    moves = [k for k in range(9) if places[k] == EMPTY]
    return max(moves, key=lambda k: (sense * G(signs(_after(places, k, side), x)), -k))
