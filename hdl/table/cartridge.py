"""The table: the best move of every board, read from block RAM in one clock, as a
cartridge (the museum's physical limit; code L).

A game of turns (hdl/turns.py, whose text gives the game's rules) whose engine looks the
machine's move up in a table of every board (firmware_ref/table is the golden model
written from these texts; it also computes the table, which the console passes to
``Table(moves=...)``). The rules of the engine:

- A board's number is its ternary reading: place k is digit k (weight 3**k), 0 for an
  empty place, 1 for the machine's stone (red), 2 for the person's (green). A place
  showing both colours is read as the machine's, so that it is taken in the number as
  it is on the board. The numbers run from 0 (the empty board) to 3**9 - 1.
- ``moves[n]`` (0..7) is board n's move, counted among its empty places: entry j is the
  (j + 1)-th empty place in reading order. The empty board, the only one with nine,
  needs its move among the first eight. Two entries share a word of the ROM: board n is
  in word n // 2, in its low three bits if n is even, its high three if odd.
- The ROM is read on every clock at the board's word, whether or not the machine
  thinks. The game of turns never changes the board on the clock before thinking
  begins (it opens or judges), so on the first clock of ``think`` the word read is the
  board's: the engine is done on every clock, and its move is the entry's place.
"""

from ..turns import Turns
from .lookup import Lookup


__all__ = ["Table", "CARTRIDGE"]


class Table(Turns):
    """`moves`: the move of every board (see the module's text), and `blunders` (see
    hdl/turns.py), from the golden model."""

    code = "L"
    title = "the table (every board's best move from block RAM in one clock)"
    blunder_lamp = True

    def __init__(self, moves, blunders=()):
        self.moves = tuple(moves)
        super().__init__(blunders)

    def engine(self):
        return Lookup(self.moves)


CARTRIDGE = Table
