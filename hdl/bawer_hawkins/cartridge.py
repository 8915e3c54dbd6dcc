"""Bawer and Hawkins's "Tick-Tack-Toe in a Cigarette Box" (1970), as a game of turns
(hdl/turns.py, whose text gives the game's rules).

The box is nine switches and lamps: a switch lights the person's lamp in its cell and
a wired answer, the machine's lamp in another (Baum's figure 3; cells 1..9 in reading
order are places 0..8): 1 -> 5, 2 -> 3, 3 -> 2, 4 -> 7, 6 -> 8, 7 -> 4, 8 -> 6, 9 -> 8.
Cell 5 has no answer. The person must begin, in a corner. The rules of this cartridge
(firmware_ref/bawer_hawkins is the golden model written from this text; the reasons are
in docs/museum-heuristics.md):

- It cannot begin (``can_begin`` false): the person begins whatever switch 0 says.
- The frame: at the box's first answer of a game (no machine stone on the board) the
  person's cell is their first stone in reading order. If it is a corner the person
  turns the box on the table, a whole number of quarter turns clockwise (0 for the top
  left corner, 1 top right, 2 bottom right, 3 bottom left), so that their corner is
  the box's cell 1; any other first cell leaves the box as it stands. Every answer of
  the game is read in that frame: the box's cell c is the board's place under it.
- Later answers: the person's cell is the first place in reading order that holds a
  person's stone and did not at the box's last answer.
- The answer is the wired one of the person's cell, if that place is empty. If it is
  taken, or the cell has no answer (5), or no new stone is found, the box takes the
  first empty cell in its own numbering 1..9 (in its frame).
- The box answers at once: the engine is done on the first clock of thinking. At that
  clock it keeps the frame and the person's stones for the next answer.
"""

from ..turns import Turns
from .engine import Box


__all__ = ["BawerHawkins", "CARTRIDGE"]


class BawerHawkins(Turns):
    code = "B"
    blunder_lamp = True
    title = "Bawer and Hawkins's tick-tack-toe in a cigarette box (1970)"
    can_begin = False

    engine = Box


CARTRIDGE = BawerHawkins
