"""Hendrix and Purcell's machine (1958), one clock edge at a time: a game of turns
(firmware_ref/turns.py) whose engine looks three times, one look per clock: its own two
in a row with the third place empty, then the person's, then the first empty cell of
5, 1, 6, 7, 2, 9, 4, 3, 8 (rules: hdl/hendrix_purcell/cartridge.py's text, read, not
imported). Without the machine's unrecorded "special defense mode"."""

from .. import turns
from ..cartridge import LINES, Probe
from ..places import EMPTY, GREEN, RED
from ..turns import Inputs

__all__ = ["Inputs", "Probe", "ORDER", "completes", "Looks", "Model", "games"]

ORDER = tuple(cell - 1 for cell in (5, 1, 6, 7, 2, 9, 4, 3, 8))    # cells 1..9: places 0..8


def completes(places, colour):
    """The first place in `ORDER` that is empty and makes a line of `colour`, or None."""
    for k in ORDER:
        if places[k] == EMPTY and any(
                all(places[j] == colour for j in three if j != k)
                for three in LINES if k in three):
            return k
    return None


class Looks:
    """The engine: look 0 wins, look 1 blocks, look 2 takes the order, one a clock.
    `exceptions` ({position: place}) are looked at in look 2, before the order."""

    exceptions = {}

    def __init__(self):
        self.look = 0

    def choose(self, places, look):
        """The move of `look` on `places`, or None if that look finds nothing."""
        if look == 0:
            return completes(places, RED)
        if look == 1:
            return completes(places, GREEN)
        exception = self.exceptions.get(tuple(places))
        if exception is not None:
            return exception
        return next(k for k in ORDER if places[k] == EMPTY)

    def tick(self, places, think):
        if not think:
            self.look = 0
            return None
        move = self.choose(places, self.look)
        self.look += 1
        return move


class Model(turns.Model):
    blunder_lamp = True
    engine_class = Looks


def games(limit=64):
    """Every game a person can play (firmware_ref/turns.py's `games`)."""
    return turns.games(Model(), limit)
