"""The search for Hendrix and Purcell's smallest defence: the fewest exception positions
(each a board on which the machine, finding no win and no block, plays a given place
instead of the first empty cell of its order) after which the machine loses no game,
as first or second player. Run it: python -m firmware_ref.hendrix_purcell_defended.defence

Iterative deepening: a game the machine loses passes only through positions where it
played as it does without the new exceptions, so some position of that game on which
it used its order must become an exception; try each, with each move that keeps at
least a draw by perfect play (firmware_ref/perfect.py), and go on from the next lost
game. The first depth with a solution is the smallest; every solution of that depth is
returned, in the order found."""

import sys
from functools import lru_cache

from .. import cli, perfect
from ..hendrix_purcell.model import Looks
from ..cartridge import full, line
from ..places import EMPTY, GREEN, RED

__all__ = ["move", "lost_games", "alternatives", "candidates", "bound", "search", "draw"]


@lru_cache(maxsize=None)
def _undefended(places):
    engine = Looks()
    for look in range(3):
        chosen = engine.choose(list(places), look)
        if chosen is not None:
            return chosen, look == 2


def move(places, exceptions):
    """The machine's move on `places` (a tuple) with `exceptions`, and whether look 2
    chose it (exceptions are looked at there, before the order)."""
    k, ordered = _undefended(places)
    return (exceptions.get(places, k) if ordered else k), ordered


def lost_games(exceptions):
    """Every game the machine loses, as the list of (position, machine's move, chosen by
    look 2) of its turns, the machine beginning and the person beginning."""
    def walk(places, side, turns):
        if line(places, GREEN):
            yield turns
            return
        if line(places, RED) or full(places):
            return
        if side == RED:
            k, ordered = move(places, exceptions)
            after = places[:k] + (RED,) + places[k + 1:]
            yield from walk(after, GREEN, turns + [(places, k, ordered)])
        else:
            for k in range(9):
                if places[k] == EMPTY:
                    yield from walk(places[:k] + (GREEN,) + places[k + 1:], RED, turns)

    for first in (RED, GREEN):
        yield from walk((EMPTY,) * 9, first, [])


def alternatives(places, k):
    """The places other than `k` where the machine keeps at least a draw."""
    return [place for place, value in sorted(perfect.values(places, RED).items())
            if place != k and value >= perfect.DRAW]


def candidates(game, exceptions):
    """The positions of a lost `game` where a new exception could change it: the order
    chose the move there, and another move keeps at least a draw."""
    return {places for places, k, ordered in game
            if ordered and places not in exceptions and alternatives(places, k)}


def bound(exceptions):
    """A lower bound of the exceptions still needed: lost games whose candidates share no
    position need one each (a greedy packing)."""
    taken, count = set(), 0
    for game in lost_games(exceptions):
        mine = candidates(game, exceptions)
        if not mine & taken:
            taken |= mine
            count += 1
    return count


def search(most=8):
    """The first smallest set of exceptions ({position: place}) found with which no game
    is lost, trying up to `most`; None if there is none so small."""
    tried = set()

    def deepen(exceptions, left):
        key = frozenset(exceptions.items())
        if key in tried:
            return None
        tried.add(key)
        game = next(lost_games(exceptions), None)
        if game is None:
            return dict(exceptions)
        if bound(exceptions) > left:
            return None
        for places, k, ordered in game:
            if places not in candidates([(places, k, ordered)], exceptions):
                continue
            for place in alternatives(places, k):
                found = deepen({**exceptions, places: place}, left - 1)
                if found is not None:
                    return found
        return None

    for size in range(bound({}), most + 1):
        tried.clear()
        found = deepen({}, size)
        if found is not None:
            return found
    return None


def draw(places):
    """A board as three rows: X the machine, O the person, . empty."""
    marks = {EMPTY: ".", RED: "X", GREEN: "O"}
    return "\n".join(" ".join(marks[places[3 * row + col]] for col in range(3))
                     for row in range(3))


def main(argv=None):
    undefended = list(lost_games({}))
    print(f"without a defence the machine loses {len(undefended)} games")
    print(f"it needs at least {bound({})} exceptions")
    defence = search()
    print(f"the first smallest defence found has {len(defence)}:")
    for places, place in defence.items():
        print(draw(places), f"-> cell {place + 1}\n")


if __name__ == "__main__":
    sys.exit(cli.run(main))
