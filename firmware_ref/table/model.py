"""The table, one clock edge at a time, at the console's pins: a game of turns
(firmware_ref/turns.py) whose engine gives its move on the first clock of thinking,
chosen from the board then (rules: hdl/table/cartridge.py's text, read, not imported).
The move is computed from perfect play (choice.py), not looked up in the table."""

from .. import turns
from ..cartridge import Probe
from ..turns import Inputs
from .choice import choose

__all__ = ["Inputs", "Probe", "Lookup", "Model", "games"]


class Lookup:
    def tick(self, places, think):
        return choose(places) if think else None


class Model(turns.Model):
    blunder_lamp = True
    engine_class = Lookup


def games(limit=64):
    """Every game a person can play (firmware_ref/turns.py's `games`)."""
    return turns.games(Model(), limit)
