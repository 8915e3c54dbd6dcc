"""Baum's G, one clock edge at a time, at the console's pins: a game of turns
(firmware_ref/turns.py) whose engine thinks nine clocks and moves where G is largest
for the machine (rules: hdl/baum_g/cartridge.py's text, read, not imported).

G is firmware_ref/g.py's, with the thesis' rule `baum` (X maximises, O minimises);
`choose` is the machine's rule (its own stones +1, maximise), which F's oddness makes
the same move.
"""

from .. import turns
from ..cartridge import Probe
from ..places import EMPTY, RED
from ..g import G, signs
from ..turns import Inputs

__all__ = ["Inputs", "Probe", "choose", "Greedy", "Model", "games"]


def _after(places, k, side):
    return places[:k] + [side] + places[k + 1:]


def choose(places, side=RED):
    """The machine's rule: `side`'s stones +1, the largest G after its move, ties to
    the lowest place."""
    moves = [k for k in range(9) if places[k] == EMPTY]
    return max(moves, key=lambda k: (G(signs(_after(places, k, side), side)), -k))


class Greedy:
    """The engine model: nine clocks a move, the move on the ninth."""

    CLOCKS = 9

    def __init__(self):
        self.clock = 0

    def tick(self, places, think):
        if not think:
            self.clock = 0
            return None
        self.clock += 1
        return choose(places) if self.clock == self.CLOCKS else None


class Model(turns.Model):
    blunder_lamp = True
    engine_class = Greedy


def games(limit=64):
    """Every game a person can play (firmware_ref/turns.py's `games`)."""
    return turns.games(Model(), limit)
