"""Hendrix and Purcell's machine with a defence: the smallest that never loses, as the
machine beginning or answering (docs/museum-heuristics.md tells how it was found and
why each exception is needed; firmware_ref/hendrix_purcell_defended/defence.py finds it).

The machine is hdl/hendrix_purcell's (its text gives the three looks, one per clock,
the order 5, 1, 6, 7, 2, 9, 4, 3, 8, the game's timing), with six exception positions
looked at in look 2, before the order: when the board is exactly one of these (X the
machine, O the person, . empty; cells 1..9 in reading order), the machine plays the
cell given instead of the order's (firmware_ref/hendrix_purcell_defended is the golden
model written from this text):

    O . .     . . O     . . O     . . .     . . .     . . .
    . X O     . X .     . X .     . O .     . X O     . X O
    . . .     O . .     . O .     . . .     O . .     . O .
    -> 2      -> 2      -> 4      -> 3      -> 2      -> 3

A win (look 0) or a block (look 1) comes first, as without the defence; on these six
boards there is neither.
"""

from ..turns import Turns
from .engine import Defended


__all__ = ["HendrixPurcellDefended", "CARTRIDGE"]


class HendrixPurcellDefended(Turns):
    code = "D"
    blunder_lamp = True
    title = "Hendrix and Purcell's machine, with the smallest defence that never loses"

    engine = Defended


CARTRIDGE = HendrixPurcellDefended
