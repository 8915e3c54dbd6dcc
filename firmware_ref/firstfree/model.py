"""First free, one clock edge at a time, at the console's pins: a game of turns
(firmware_ref/turns.py) whose engine takes the first empty place, looking at one place
per clock from place 0 (rules: hdl/firstfree/cartridge.py's text, read, not imported)."""

from .. import turns
from ..cartridge import Probe
from ..places import EMPTY
from ..turns import Inputs

__all__ = ["Inputs", "Probe", "Scan", "Model", "games"]


class Scan:
    """One place a clock from `first` by `step` (the tests' last free scans from place 8
    down), until an empty one."""

    first, step = 0, 1

    def __init__(self):
        self.index = self.first

    def tick(self, places, think):
        if not think:
            self.index = self.first
            return None
        if places[self.index] == EMPTY:
            return self.index
        self.index += self.step
        return None


class Model(turns.Model):
    engine_class = Scan


def games(limit=64):
    """Every game a person can play (firmware_ref/turns.py's `games`)."""
    return turns.games(Model(), limit)
