"""The module's rules as the original module applies them: places 0-8 in reading order,
labels 0-8 (the page's number less one), rows 0-8, and ``place_of[label]``, the key
that shows each label. The expert (manual.py) works from the page instead.
"""

# A piece is a place's bit on the console: X red, O green.
from ..cartridge import LINES
from ..places import EMPTY, GREEN as O, RED as X
from .manual import CHART

__all__ = ["EMPTY", "X", "O", "PASS", "column", "completes", "found", "expected"]

PASS = 9                        # the press that is not a key


def column(board, up):
    """The chart's column: more Xs (0, 1), as many (2, 3), more Os (4, 5); +1 for O."""
    xs, os = board.count(X), board.count(O)
    return (0 if xs > os else 2 if xs == os else 4) + (up == O)


def completes(board, place, piece):
    """Whether `piece` on `place` makes three in a row."""
    return any(all(board[k] == piece for k in three if k != place)
               for three in LINES if place in three)


def found(board, up, row, place_of):
    """The row the walk stops at, from `row` down, and its empty place."""
    col = column(board, up)
    for step in range(9):
        here = (row + step) % 9
        place = place_of[CHART[here][col] - 1]
        if board[place] == EMPTY:
            return here, place
    raise ValueError("no empty place: the module is solved")


def expected(board, up, row, place_of):
    """The press the module takes, a place or `PASS`, and the row it stopped at."""
    here, place = found(board, up, row, place_of)
    return (PASS if completes(board, place, up) else place), here
