"""Tactic-Toe (David Dickerson, 2006): the rules, the resolver and the
round's result, with the gaps the issue decided (docs/tactic.md).

Places are 1-9 as the seed's master grid, row by row; a board is nine of `EMPTY`,
`X` (player A) and `O` (player B); a plan is three places, the first move first.
"""

from functools import lru_cache
from itertools import product

from .. import cartridge

__all__ = ["EMPTY", "X", "O", "LINES", "ROUNDS", "IllegalPlan", "refusal", "check", "plans",
           "Step", "resolve", "winner", "parse_board", "parse_plan", "show_board"]

EMPTY, X, O = 0, 1, 2
MARKS = {EMPTY: ".", X: "X", O: "O"}
ROUNDS = 3
CENTRE = 5
# The board's lines (firmware_ref/cartridge.py) in the places 1-9 that plans name.
LINES = tuple(tuple(k + 1 for k in three) for three in cartridge.LINES)


_LINE_SETS = {tuple(sorted(line)) for line in LINES}


class IllegalPlan(ValueError):
    """A plan its round's rule refuses; the text is the reason."""


def refusal(round, history, earlier, key):
    """Why `key` may not follow the places `earlier` in a plan of `round`, or None.
    Round 1: not the centre, no place twice, the three not a line. Round 2: not a
    place of `history` (the player's round-1 plan), no place twice. Round 3: any."""
    if round == 1:
        if key in earlier:
            return "round 1: three different places"
        if key == CENTRE:
            return "round 1: not the centre, 5"
        if len(earlier) == 2 and tuple(sorted((*earlier, key))) in _LINE_SETS:
            return "round 1: not three places in a row"
    elif round == 2:
        if key in history:
            return f"round 2: not a place written in round 1 ({key})"
        if key in earlier:
            return "round 2: three different places"
    elif round != 3:
        return f"there is no round {round}: rounds are 1-3"
    return None


def check(plan, round, history=None):
    """Refuse `plan` for `round` (1-3) with the reason; `history` is the same
    player's round-1 plan (needed in round 2)."""
    if len(plan) != 3 or any(p not in range(1, 10) for p in plan):
        raise IllegalPlan("a plan is three places 1-9")
    if round == 2 and history is None:
        raise IllegalPlan("round 2 needs the player's round-1 plan")
    for i, key in enumerate(plan):
        reason = refusal(round, history or (), plan[:i], key)
        if reason:
            raise IllegalPlan(reason)


@lru_cache(maxsize=None)
def plans(round, history=None):
    """Every legal plan of `round`, in lexicographic order (a tuple)."""
    found = []
    for plan in product(range(1, 10), repeat=3):
        try:
            check(plan, round, history)
        except IllegalPlan:
            continue
        found.append(plan)
    return tuple(found)


def winner(board):
    """`X`, `O`, both (`"tie"`) or neither (None) with three in a row."""
    x = any(all(board[k - 1] == X for k in line) for line in LINES)
    o = any(all(board[k - 1] == O for k in line) for line in LINES)
    return "tie" if x and o else "X" if x else "O" if o else None


class Step:
    """One step of a round: each player's place and what became of it (``placed``,
    ``taken``: the place was occupied, ``bounced``: both chose it), and the board
    and result after it."""

    def __init__(self, a, b, a_was, b_was, board, result):
        self.a, self.b, self.a_was, self.b_was = a, b, a_was, b_was
        self.board, self.result = board, result

    def __repr__(self):
        return (f"Step({self.a} {self.a_was}, {self.b} {self.b_was}, "
                f"{show_board(self.board)}, {self.result})")


def resolve(board, round, plan_a, plan_b, steps=None):
    """The board after the round and its result: ``X``, ``O``, ``tie``, ``cats`` or
    ``open``. Step by step: a move onto an occupied place fails; two moves onto the
    same empty place both bounce; a line ends the game at once, both players' lines
    in one step are a tie; a full board, or no line after round 3, is a cats game.
    `steps`, a list, gets each `Step`."""
    board = list(board)
    for a, b in zip(plan_a, plan_b):
        if a == b:
            a_was = b_was = "taken" if board[a - 1] else "bounced"
        else:
            a_was = "taken" if board[a - 1] else "placed"
            b_was = "taken" if board[b - 1] else "placed"
            if a_was == "placed":
                board[a - 1] = X
            if b_was == "placed":
                board[b - 1] = O
        result = winner(board) or ("cats" if EMPTY not in board else None)
        if steps is not None:
            steps.append(Step(a, b, a_was, b_was, tuple(board), result or "open"))
        if result:
            return tuple(board), result
    return tuple(board), "cats" if round == ROUNDS else "open"


def parse_board(text):
    text = "".join(c for c in text.upper() if c not in "/|")
    if len(text) != 9 or any(c not in ".XO" for c in text):
        raise ValueError(f"{text!r} is not a board: nine of X, O and . row by row")
    return tuple({".": EMPTY, "X": X, "O": O}[c] for c in text)


def parse_plan(text):
    if len(text) != 3 or any(c not in "123456789" for c in text):
        raise ValueError(f"{text!r} is not a plan: three places 1-9, e.g. 237")
    return tuple(int(c) for c in text)


def show_board(board):
    return "".join(MARKS[v] for v in board)
