"""Baum's G, one clock edge at a time, at the console's pins: a game of turns
(firmware_ref/turns.py) whose engine thinks nine clocks and moves where G is largest
for the machine (rules: hdl/baum_g/cartridge.py's text, read, not imported).

G is defined here once for the golden side: `F`, `G` with X = +1 and O = -1 as the
thesis writes it, `baum`, the thesis' rule (X maximises, O minimises) and `choose`, the
machine's rule (its own stones +1, maximise), which F's oddness makes the same move.
"""

from .. import turns
from ..turns import EMPTY, LINES, RED, Inputs, Probe

__all__ = ["Inputs", "Probe", "F", "G", "signs", "baum", "choose", "Greedy", "Model",
           "games"]


def F(x, y, z):
    """Baum's F of one line's three places (each +1, -1 or 0), fig. 10."""
    return (x + y + z) ** 3 + x * y * z


def G(values):
    """F summed over the lines of nine place values (+1, -1, 0)."""
    return sum(F(*(values[k] for k in three)) for three in LINES)


def signs(places, plus):
    """Place values of `places` with `plus`'s stones +1 and the other's -1."""
    return [0 if p == EMPTY else 1 if p == plus else -1 for p in places]


def _after(places, k, side):
    return places[:k] + [side] + places[k + 1:]


def baum(places, side, x):
    """The thesis' move for `side` when `x` (RED or GREEN) plays X: X takes the empty
    place with the largest G after it, O the smallest, ties to the lowest place."""
    sense = 1 if side == x else -1
    moves = [k for k in range(9) if places[k] == EMPTY]
    return max(moves, key=lambda k: (sense * G(signs(_after(places, k, side), x)), -k))


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

    def __init__(self):
        super().__init__(Greedy())


def games(limit=64):
    """Every game a person can play (firmware_ref/turns.py's `games`)."""
    return turns.games(Model(), limit)
