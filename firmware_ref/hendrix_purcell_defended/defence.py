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

from functools import lru_cache

from .. import perfect
from ..hendrix_purcell.model import Looks
from ..turns import EMPTY, GREEN, RED, full, line

__all__ = ["move", "lost_games", "search"]


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


def search(most=4):
    """Every smallest set of exceptions ({position: place}) with which no game is lost,
    trying up to `most` exceptions; None if there is none so small."""
    tried = set()

    def deepen(exceptions, left):
        key = frozenset(exceptions.items())
        if key in tried:
            return
        tried.add(key)
        game = next(lost_games(exceptions), None)
        if game is None:
            yield dict(exceptions)
            return
        if not left:
            return
        for places, k, ordered in game:
            if not ordered or places in exceptions:
                continue
            for place, value in sorted(perfect.values(places, RED).items()):
                if place != k and value >= perfect.DRAW:
                    yield from deepen({**exceptions, places: place}, left - 1)

    for size in range(most + 1):
        tried.clear()
        found = []
        for solution in deepen({}, size):
            if solution not in found:
                found.append(solution)
        if found:
            return found
    return None


def draw(places):
    """A board as three rows: X the machine, O the person, . empty."""
    marks = {EMPTY: ".", RED: "X", GREEN: "O"}
    return "\n".join(" ".join(marks[places[3 * row + col]] for col in range(3))
                     for row in range(3))


if __name__ == "__main__":
    undefended = list(lost_games({}))
    print(f"without a defence the machine loses {len(undefended)} games")
    solutions = search()
    print(f"{len(solutions)} smallest defences of {len(solutions[0])} exceptions")
    for n, solution in enumerate(solutions):
        print(f"defence {n}:")
        for places, place in solution.items():
            print(draw(places), f"-> cell {place + 1}\n")
