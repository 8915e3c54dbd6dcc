"""Turbo, one clock edge at a time, at the console's pins: a game of turns
(firmware_ref/turns.py) whose engine searches with alpha-beta, a node looked at in one
clock and stepped in another (rules: hdl/turbo/cartridge.py's text, read, not
imported). `Search` is the engine; its `clocks` counts the clocks of the last move's
thinking, for the tests and the budget."""

from .. import turns
from ..cartridge import LINES, Probe
from ..places import EMPTY, GREEN, RED
from ..turns import Inputs

__all__ = ["ORDER", "Inputs", "Probe", "Look", "Search", "Model", "games", "look", "pick"]

ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)     # centre, corners, edges


class Look:
    """What a board says to the side to move: sets of places."""

    def __init__(self, places, side):
        other = GREEN if side == RED else RED
        self.empties = {k for k in range(9) if places[k] == EMPTY}
        self.wins, self.threats, self.makers, self.forks = set(), set(), set(), set()
        for k in self.empties:
            making = 0
            for three in LINES:
                if k not in three:
                    continue
                rest = sorted(places[j] for j in three if j != k)
                if rest == [side, side]:
                    self.wins.add(k)
                elif rest == [other, other]:
                    self.threats.add(k)
                elif rest == sorted([side, EMPTY]):
                    making += 1
            if making:
                self.makers.add(k)
            if making >= 2:
                self.forks.add(k)
        self.candidates = self.threats or self.empties


def look(places, side):
    """What `places` say to `side`, as the search looks (a function a test can replace)."""
    return Look(places, side)


def pick(places, makers):
    """The first maker among `places`, else the first of them, in `ORDER`."""
    return next(k for k in ORDER if k in (places & makers or places))


class Frame:
    """A node below which the search stands: its candidates left, makers, alpha, and
    the child being searched."""

    def __init__(self, candidates, makers, alpha, move):
        self.candidates, self.makers = candidates, makers
        self.alpha, self.move = alpha, move


class Search:
    def __init__(self):
        self.places = [EMPTY] * 9
        self.tick([EMPTY] * 9, False)

    def tick(self, places, think):
        if not think:
            self.places = list(places)
            self.stack = []             # the frames above the node, the parent last
            self.looking, self.decided, self.alpha, self.best = True, False, -1, 0
            self.value, self.settling = 0, 0
            self.candidates, self.makers, self.forks = set(), set(), set()
            self.done, self.move, self.clocks = False, 0, 0
            return None
        self.clocks += 1
        if self.done:
            return self.move
        side = RED if len(self.stack) % 2 == 0 else GREEN
        if self.looking:
            seen = look(self.places, side)
            self.looking, self.makers, self.forks = False, seen.makers, seen.forks
            self.candidates = seen.wins or seen.candidates
            self.decided, self.value = True, 0
            if seen.wins:
                self.value = 1
            elif len(seen.threats) >= 2:
                self.value = -1
            elif seen.candidates & seen.forks:
                self.value = 1
            elif not (len(seen.empties) <= 3 or len(seen.empties) == 9):
                self.decided = False
            return None
        beta = -self.stack[-1].alpha if self.stack else 1
        if self.decided and not self.stack and self.settling == 0:
            self.candidates = self.candidates & self.forks or self.candidates
            self.settling = 1
        elif self.decided and not self.stack and self.settling == 1:
            self.best = pick(self.candidates, self.makers)
            self.settling = 2
        elif self.decided or self.alpha >= beta or not self.candidates:
            if self.stack:
                self.back()
            else:
                self.done, self.move = True, self.best
        else:
            self.down(side, beta)
        return None

    def down(self, side, beta):
        """Try the pick of the candidates."""
        move = pick(self.candidates, self.makers)
        self.stack.append(Frame(self.candidates - {move}, self.makers, self.alpha, move))
        self.places[move] = side
        self.looking, self.alpha = True, -beta

    def back(self):
        """A return to the parent, with the node's value."""
        value = self.value if self.decided else self.alpha
        parent = self.stack.pop()
        self.places[parent.move] = EMPTY
        if not self.stack and (-value > parent.alpha or parent.alpha == -1):
            self.best = parent.move
        self.decided, self.candidates, self.makers = False, parent.candidates, parent.makers
        self.alpha = max(parent.alpha, -value)


class Model(turns.Model):
    blunder_lamp = True
    engine_class = Search


def games(limit=256):
    """Every game a person can play (firmware_ref/turns.py's `games`); `limit`: the
    console's think clocks of a move at most."""
    return turns.games(Model(), limit)
