"""Baum's G with forced moves played through, one clock edge at a time, at the
console's pins: a game of turns (firmware_ref/turns.py) whose engine plays each of its
candidate moves on through the forced replies before it weighs the board by G (rules:
hdl/baum_g_forced/cartridge.py's text, read, not imported; G from firmware_ref/g.py).
"""

from .. import turns
from ..cartridge import LINES, Probe, line
from ..places import EMPTY, GREEN, RED
from ..g import F, G, signs
from ..turns import Inputs

__all__ = ["Inputs", "Probe", "WIN", "LOSS", "wins", "playthrough", "decide", "choose",
           "Forced", "Model", "games"]

WIN = len(LINES) * F(1, 1, 1) + 1     # above any G, so that outcomes outrank G
LOSS = -WIN


def wins(places, side):
    """The empty places where `side` completes a line, lowest first."""
    return [k for k in range(9) if places[k] == EMPTY and any(
        k in three and all(places[j] == side for j in three if j != k) for three in LINES)]


def _other(side):
    return GREEN if side == RED else RED


def playthrough(places, move):
    """The machine (RED) plays `move`; then, while the side to move is forced, the game
    goes on: a side that can complete a line wins; a side that cannot, facing the
    other's threats, blocks the lowest. Returns (value, plies): WIN, LOSS, or G of the
    board where no one is forced (machine +1), and the clocks the engine spends."""
    places = places[:move] + [RED] + places[move + 1:]
    side, plies = GREEN, 0
    while True:
        plies += 1
        if line(places, RED):
            return WIN, plies
        if wins(places, side):
            return (WIN if side == RED else LOSS), plies
        threats = wins(places, _other(side))
        if not threats:
            return G(signs(places, RED)), plies
        k = threats[0]
        places = places[:k] + [side] + places[k + 1:]
        side = _other(side)


def decide(places):
    """(move, clocks): the place with the best playthrough, the lowest of equals, and
    the engine's clocks: one per place, and each candidate's plies."""
    best, clocks = None, 0
    for k in range(9):
        clocks += 1
        if places[k] != EMPTY:
            continue
        value, plies = playthrough(places, k)
        clocks += plies
        if best is None or value > best[0]:
            best = value, k
    return best[1], clocks


def choose(places):
    return decide(places)[0]


class Forced:
    """The engine model: the move on the last of `decide`'s clocks."""

    def __init__(self):
        self.clock = 0
        self.move = self.clocks = None

    def tick(self, places, think):
        if not think:
            self.clock = 0
            return None
        if self.clock == 0:
            self.move, self.clocks = decide(places)
        self.clock += 1
        return self.move if self.clock == self.clocks else None


class Model(turns.Model):
    blunder_lamp = True
    engine_class = Forced


def games(limit=128):
    """Every game a person can play (firmware_ref/turns.py's `games`)."""
    return turns.games(Model(), limit)
