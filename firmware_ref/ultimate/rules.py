"""Ultimate Tic-Tac-Toe: the rules on bitboards, with the gaps decided as
docs/ultimate.md says; and open positions of random games.

A position is two 81-bit masks, X's and O's cells. Cell i (0-80) is cell i % 9,
row by row, of small board i // 9, row by row; a move on cell c of any small board
sends the other player to small board c. A small board is decided when it has a line
(its owner's big place) or is full (nobody's). Decided boards take no more moves; a
player sent to one may play any empty cell of any undecided board. The game ends
when a player owns three big places in a row, or when no move is left (a draw).
"""

import random

from ..cartridge import LINES

__all__ = ["CELLS", "Position", "parse", "show", "positions"]

CELLS = 81
FULL = 0x1FF
LINE_MASKS = tuple(sum(1 << k for k in line) for line in LINES)
HAS_LINE = tuple(any(m & line == line for line in LINE_MASKS) for m in range(512))
FREE_CELLS = tuple(tuple(k for k in range(9) if not m >> k & 1) for m in range(512))


class Position:
    """X's and O's cells (`xs`, `os`, 81-bit masks) and the last move (0-80 or None)."""

    __slots__ = ("xs", "os", "last")

    def __init__(self, xs=0, os=0, last=None):
        self.xs, self.os, self.last = xs, os, last

    def small(self, board):
        """Small board `board`'s X and O masks (9 bits each)."""
        return self.xs >> 9 * board & FULL, self.os >> 9 * board & FULL

    def owner(self, board):
        """``"X"``, ``"O"``, ``"-"`` (full, nobody's) or None (undecided)."""
        x, o = self.small(board)
        if HAS_LINE[x]:
            return "X"
        if HAS_LINE[o]:
            return "O"
        return "-" if x | o == FULL else None

    def to_move(self):
        return "X" if bin(self.xs).count("1") == bin(self.os).count("1") else "O"

    def winner(self):
        """``"X"``, ``"O"``, ``"draw"`` (no move left, no big line) or ``"open"``."""
        owners = [self.owner(b) for b in range(9)]
        for side in "XO":
            if any(all(owners[b] == side for b in line) for line in LINES):
                return side
        return "open" if None in owners else "draw"

    def legal(self):
        """The legal moves, increasing: in the small board the last move sends to,
        or, sent to a decided board (or at the first move), in every undecided one."""
        if self.winner() != "open":
            return []
        boards = range(9)
        if self.last is not None and self.owner(self.last % 9) is None:
            boards = [self.last % 9]
        moves = []
        for b in boards:
            if self.owner(b) is None:
                x, o = self.small(b)
                moves += [9 * b + k for k in FREE_CELLS[x | o]]
        return moves

    def play(self, cell):
        """The position after the player to move takes `cell` (legal, not checked)."""
        bit = 1 << cell
        if self.to_move() == "X":
            return Position(self.xs | bit, self.os, cell)
        return Position(self.xs, self.os | bit, cell)


def parse(board, last="-"):
    """A Position from 81 of ``X``, ``O`` and ``.`` and the last move, 0-80 or ``-``;
    ValueError with the reason when it is no position a game reaches that way."""
    text = "".join(c for c in board.upper() if c not in "/| ")
    if len(text) != CELLS or any(c not in "XO." for c in text):
        raise ValueError(f"a position is 81 of X, O and . (got {len(text)} characters)")
    xs = sum(1 << i for i, c in enumerate(text) if c == "X")
    os = sum(1 << i for i, c in enumerate(text) if c == "O")
    xn, on = text.count("X"), text.count("O")
    if xn - on not in (0, 1):
        raise ValueError(f"{xn} Xs and {on} Os: X moves first, so no game gets there")
    position = Position(xs, os)
    for b in range(9):
        x, o = position.small(b)
        if HAS_LINE[x] and HAS_LINE[o]:
            raise ValueError(f"small board {b + 1} holds a line of each: a board is "
                             "closed at its first line")
    if last == "-":
        cell = None
    elif last.isdigit() and int(last) < CELLS:
        cell = int(last)
        mover = "O" if xn == on else "X"
        if text[cell] != mover:
            raise ValueError(f"the last move, cell {cell}, must hold the last mover's "
                             f"{mover}")
    else:
        raise ValueError(f"{last!r} is not a move: a cell 0-80, or - for none")
    return Position(xs, os, cell)


def show(position):
    return "".join("X" if position.xs >> i & 1 else "O" if position.os >> i & 1 else "."
                   for i in range(CELLS))


def positions(count, seed):
    """`count` open positions of random games (random legal moves from the empty board),
    the same for the same `seed`. Each is taken at a ply drawn uniformly from its game's
    length, so that openings, middle games and endgames all occur."""
    rng = random.Random(seed)
    for _ in range(count):
        position, game = Position(), []
        while position.legal():
            game.append(position)
            position = position.play(rng.choice(position.legal()))
        yield rng.choice(game)
