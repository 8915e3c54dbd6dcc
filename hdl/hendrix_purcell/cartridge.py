"""Hendrix and Purcell's machine: tubes, relays and 187 neon lamps (late 1950s), as a
game of turns (hdl/turns.py, whose text gives the game's rules).

The machine's rules, from Baum's account (thesis, introduction; cells 1..9 in reading
order are places 0..8); firmware_ref/hendrix_purcell is the golden model written from
this text:

- Look 0: if the machine has two stones on a line whose third place is empty, it plays
  there (it wins).
- Look 1: else, if the person has two on a line whose third place is empty, it plays
  there (it blocks).
- Look 2: else it plays the first empty cell of 5, 1, 6, 7, 2, 9, 4, 3, 8.
- Where a look finds several places (two wins, two blocks), it takes the first in that
  same order 5, 1, 6, ...
- One look per clock, as the relays stepped: the engine is done on the clock of the
  look that finds a place (the first, second or third clock of thinking), and starts
  again from look 0 at the next move.
- It can begin (switch 0 off) and answer. Its "special defense mode" for "exceptional
  circumstances" is not described, so this machine has none (it loses some games);
  hdl/hendrix_purcell_defended adds the smallest defence found.
"""

from ..turns import Turns
from .engine import Looks


__all__ = ["HendrixPurcell", "CARTRIDGE"]


class HendrixPurcell(Turns):
    code = "H"
    blunder_lamp = True
    title = "Hendrix and Purcell's neon-lamp machine (1958)"

    engine = Looks


CARTRIDGE = HendrixPurcell
