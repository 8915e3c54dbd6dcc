"""Turbo, one clock edge at a time, at the console's pins: a game of turns
(firmware_ref/turns.py) whose engine searches with alpha-beta, one step per clock (rules:
hdl/turbo/cartridge.py's text, read, not imported). `Search` is the engine; its
`clocks` counts the clocks of the last move's thinking, for the tests and the budget."""

from .. import turns
from ..turns import EMPTY, GREEN, LINES, RED, Inputs, Probe

__all__ = ["ORDER", "Inputs", "Probe", "Search", "Model", "games", "analyse", "pick"]

ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)     # centre, corners, edges


def analyse(places, side):
    """(wins, threats, makers, empties) of `places` for `side` to move, each a set."""
    other = GREEN if side == RED else RED
    empties = {k for k in range(9) if places[k] == EMPTY}
    wins, threats, makers = set(), set(), set()
    for three in LINES:
        for k in three:
            if places[k] != EMPTY:
                continue
            rest = [places[j] for j in three if j != k]
            if rest == [side, side]:
                wins.add(k)
            elif rest == [other, other]:
                threats.add(k)
            elif sorted(rest) == sorted([side, EMPTY]):
                makers.add(k)
    return wins, threats, makers, empties


def pick(places, makers):
    """The first maker among `places`, else the first of them, in `ORDER`."""
    return next(k for k in ORDER if k in (places & makers or places))


class Frame:
    """A node below which the search stands: candidates left, alpha, the child tried."""

    def __init__(self, candidates, alpha, move):
        self.candidates, self.alpha, self.move = candidates, alpha, move


class Search:
    def __init__(self):
        self.places = [EMPTY] * 9
        self.clocks = 0
        self.reset()

    def reset(self):
        self.stack = []             # the frames above the node, the parent last
        self.fresh, self.alpha, self.candidates, self.best = True, -1, set(), 0

    def tick(self, places, think):
        if not think:
            self.places = list(places)
            self.reset()
            self.clocks = 0
            return None
        self.clocks += 1
        depth = len(self.stack)
        side = RED if depth % 2 == 0 else GREEN
        beta = -self.stack[-1].alpha if self.stack else 1
        if self.fresh:
            wins, threats, makers, empties = analyse(self.places, side)
            if wins:
                finished, value, candidates = True, 1, wins
            elif len(threats) >= 2:
                finished, value, candidates = True, -1, threats
            elif len(empties) <= 2 and len(threats) <= 1 or len(empties) == 9:
                finished, value, candidates = True, 0, threats or empties
            else:
                finished, candidates = False, threats or empties
            move = pick(candidates, makers)
        else:
            makers = analyse(self.places, side)[2]
            candidates = self.candidates
            finished = self.alpha >= beta or not candidates
            value, move = self.alpha, self.best
        if finished and not self.stack:
            return move
        if finished:
            parent = self.stack.pop()
            self.places[parent.move] = EMPTY
            if not self.stack and -value > parent.alpha:
                self.best = parent.move
            self.fresh, self.candidates = False, parent.candidates
            self.alpha = max(parent.alpha, -value)
            return None
        move = pick(candidates, makers)
        if self.fresh and not self.stack:
            self.best = move
        self.stack.append(Frame(candidates - {move}, self.alpha, move))
        self.places[move] = side
        self.fresh, self.alpha, self.candidates = True, -beta, set()
        return None


class Model(turns.Model):
    def __init__(self):
        super().__init__(Search())


def games(limit=256):
    """Every game a person can play (firmware_ref/turns.py's `games`); `limit`: the
    console's think clocks of a move at most."""
    return turns.games(Model(), limit)
