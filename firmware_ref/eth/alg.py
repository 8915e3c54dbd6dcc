"""The search of Geiser and Marzetta's report, alg.c (appendix F.2), ported to Python.

`rek2` keeps alg.c's shape on purpose: the same loop order over places 0..8, the same
alpha-beta cut (``r >= a``), the same values (r in -1..1, bestr in -1..0, a in 0..1),
the same explicit 8-deep stack of (p, a, bestr, i) and the same global-register style,
so that a reader can hold it beside the C. It is the reference the chip's moves are
checked against; the cycle model in `cycle.py` re-derives the clock-by-clock
behaviour from the same algorithm and never calls this search.

Boards are 9 values in reading order, each alg.c's ``enum place`` (firmware_ref/places.py):
0 empty, 1 computer, 2 human.

    ttt move 000020000
"""

from dataclasses import dataclass

# The eight rows of three: the set alg.c's wins() spells out.
from ..cartridge import LINES
from ..places import COLUMNS, COMPUTER, EMPTY, HUMAN, MARKS, PLACES, STONES, coordinate, rows

__all__ = [
    "MAXSP", "Move", "NoMoveFound", "StackOverflow",
    "move", "wins", "full", "check_board", "parse_board", "show", "report",
]

MAXSP = 8


class NoMoveFound(Exception):
    """Every move loses: alg.c prints "no move found" and exits."""


class StackOverflow(RuntimeError):
    """A push with the stack already MAXSP deep (alg.c: "stack overflow")."""


@dataclass(frozen=True)
class Move:
    """The computer's move: `place` 0..8, its `value` (-1 loss, 0 draw, +1 win, from
    the computer's side) and `nodes`, the number of trial stones the search set."""
    place: int
    value: int
    nodes: int


def other(p):
    return 3 - p


def wins(board, p):
    """Has player `p` three in a row?"""
    return any(board[a] == p and board[b] == p and board[c] == p for a, b, c in LINES)


def full(board):
    """Are all nine places taken?"""
    return all(board)


def check_board(board):
    """Return `board` as a list of 9 ints, or raise ValueError saying what is wrong."""
    board = list(board)
    if len(board) != PLACES:
        raise ValueError(f"a board has {PLACES} places, this one has {len(board)}")
    for k, v in enumerate(board):
        if v not in STONES:
            raise ValueError(f"place {k} holds {v!r}; a place is 0 (empty), "
                             f"1 (computer) or 2 (human)")
    return board


def parse_board(text):
    """A board from 9 places, row-major, each a digit 0-2 or the mark that `show`
    prints for it (``.``, ``O``, ``X``); '/', '|', ',' and blanks may separate rows
    (``000/020/000`` or ``.../.X./...``)."""
    places = [c.upper() for c in text if c not in "/|, \t"]
    values = {**{str(v): v for v in STONES}, **{MARKS[v]: v for v in STONES}}
    bad = sorted({c for c in places if c not in values})
    if bad:
        raise ValueError(f"a place is written 0 or . (empty), 1 or O (computer), 2 or X "
                         f"(human), not {''.join(bad)!r}")
    return check_board(values[c] for c in places)


class _Search:
    """alg.c's static variables and its three functions, one instance per Move()."""

    def __init__(self, board, maxsp=MAXSP):
        self.board = board
        self.maxsp = maxsp
        self.stack = [None] * maxsp
        self.sp = 0
        self.m = -1     # -1: no move found yet ("only for the C program")
        self.r = 0
        self.p = COMPUTER
        self.a = 1
        self.bestr = -1
        self.i = 0
        self.nodes = 0

    def push(self):
        if self.sp == self.maxsp:
            raise StackOverflow(f"the search needs more than {self.maxsp} stack entries")
        self.stack[self.sp] = (self.p, self.a, self.bestr, self.i)
        self.sp += 1

    def pop(self):
        self.sp -= 1
        self.p, self.a, self.bestr, self.i = self.stack[self.sp]

    def rek2(self):
        """Find the best move for p, or any move worth >= a; at ground keep it in m.
        On return r is the value for the caller, the player who moved before p."""
        board, ground = self.board, self.sp == 0
        self.bestr = -1
        self.i = 0
        while self.i < PLACES:
            i = self.i
            if board[i] == EMPTY:
                board[i] = self.p
                self.nodes += 1
                if wins(board, self.p):             # this move makes three in a row
                    if ground:
                        self.m = i
                    board[i] = EMPTY
                    self.r = -1
                    return
                if full(board):                     # the last place: a draw
                    if ground:
                        self.m = i
                    board[i] = EMPTY
                    self.r = 0
                    return
                self.push()
                self.p = other(self.p)
                self.a = -self.bestr
                self.rek2()                         # the recursive call
                self.pop()
                board[i] = EMPTY
                if self.r >= self.a:                # good enough: cut the tree
                    if ground:
                        self.m = i
                    self.r = -self.r
                    return
                if self.r > self.bestr:             # better than the moves before it
                    self.bestr = self.r
                    if ground:
                        self.m = i
            self.i += 1
        self.r = -self.bestr


def move(board, *, maxsp=MAXSP):
    """The computer's move on `board` (9 values, row-major), as the chip computes it.

    Raises ValueError for a malformed board, one that is full, or one where either
    side already has three in a row; NoMoveFound when every move loses (alg.c's
    "no move found"); StackOverflow if the search needs more than `maxsp` entries
    (never with the paper's 8 on a 3x3 board).
    """
    board = check_board(board)
    if full(board):
        raise ValueError("the board is full: there is no move to make")
    for p, who in ((COMPUTER, "computer"), (HUMAN, "human")):
        if wins(board, p):
            raise ValueError(f"the {who} already has three in a row: the game is over")
    search = _Search(board, maxsp)
    search.rek2()
    if search.m == -1:
        raise NoMoveFound(f"no move found: every move loses "
                          f"({search.nodes} trial stones searched)")
    assert search.sp == 0, "stack error"
    # rek2 leaves r as the value for the player before the computer: negate it.
    return Move(place=search.m, value=-search.r, nodes=search.nodes)


def show(board):
    """The board as the command line prints it, columns A-C and rows 1-3."""
    lines = ["    " + " ".join(COLUMNS)]
    for number, row in enumerate(rows(board), start=1):
        lines.append(f"  {number} " + " ".join(MARKS[held] for held in row))
    return "\n".join(lines)


def report(text):
    """``ttt move BOARD``: print the board `text` (as `parse_board` reads it), the
    computer's move, its value and the nodes searched. Raises ValueError for a board
    it cannot read, NoMoveFound where alg.c finds no move."""
    board = parse_board(text)
    result = move(board)
    outcome = {1: "the computer wins", 0: "draw", -1: "the computer loses"}[result.value]
    print(show(board))
    print(f"move: {result.place} ({coordinate(result.place)})")
    print(f"value: {result.value:+d} ({outcome})" if result.value else f"value: 0 ({outcome})")
    print(f"nodes: {result.nodes}")
