"""Every state a module can reach, and the expert checked against the module in each.

A state the defuser can meet is a board, the Up Next piece, whether the last right
press was a PASS, and the row; with the labels in reading order (the panel's). A module
begins with five pieces and no line, any Up Next, no pass, at any row (the starting
rows of the edgework are all nine). From there every right press leads on: a key,
a PASS, a second PASS on every empty place; a strike only moves the row back to a
starting row, which is any of the nine. So the rows are all reachable with every
(board, Up Next, pass) reached, and `reachable` walks those.
"""

import itertools

from ..cartridge import LINES
from .manual import Defuser
from .module import EMPTY, O, PASS, X, expected

__all__ = ["starts", "reachable", "check", "Counts"]

MARK = {X: "X", O: "O"}
IDENTITY = tuple(range(9))


def _line(board):
    return any(board[a] == board[b] == board[c] != EMPTY for a, b, c in LINES)


def starts():
    """The boards a module begins with: five pieces, no line."""
    for places in itertools.combinations(range(9), 5):
        for pieces in itertools.product((X, O), repeat=5):
            board = [EMPTY] * 9
            for k, piece in zip(places, pieces):
                board[k] = piece
            if not _line(board):
                yield tuple(board)


def _after(board, place, piece):
    return board[:place] + (piece,) + board[place + 1:]


def reachable():
    """Every (board, up, passed) a module reaches before it is solved."""
    seen = set()
    todo = [(board, up, False) for board in starts() for up in (X, O)]
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        board, up, passed = state
        for row in range(9):
            press, _ = expected(board, up, row, IDENTITY)
            if press == PASS and not passed:
                todo.append((board, X + O - up, True))
                continue
            places = ([k for k in range(9) if board[k] == EMPTY] if press == PASS
                      else [press])
            for place in places:
                after = _after(board, place, up)
                if EMPTY in after:
                    todo += [(after, X, False), (after, O, False)]
    return seen


class Counts:
    def __init__(self):
        self.states = self.presses = self.passes = self.double_passes = 0
        self.boards = set()


def check(states=None):
    """The expert's press and row in every reachable state at every row, against the
    module's. Returns `Counts`; raises AssertionError at the first disagreement."""
    counts = Counts()
    for board, up, passed in sorted(reachable() if states is None else states):
        keypad = [MARK.get(v) or k + 1 for k, v in enumerate(board)]
        counts.boards.add(board)
        for row in range(9):
            press, here = expected(board, up, row, IDENTITY)
            defuser = Defuser(0, False, 0, 0)
            defuser.row, defuser.passed = row + 1, passed
            answer = defuser.press(keypad, MARK[up])
            wanted = "PASS" if press == PASS else press + 1
            # Where the module's row goes: on after a key or a second PASS, stays after
            # a first PASS.
            moves = press != PASS or passed
            assert (answer, defuser.row - 1) == (wanted, (here + moves) % 9), \
                (f"board {keypad}, Up Next {MARK[up]}, row {row + 1}, pass {passed}: "
                 f"the expert presses {answer} and goes to row {defuser.row}, the module "
                 f"wants {wanted} and goes to row {(here + moves) % 9 + 1}")
            counts.states += 1
            if press != PASS:
                counts.presses += 1
            elif passed:
                counts.double_passes += 1
            else:
                counts.passes += 1
    return counts
