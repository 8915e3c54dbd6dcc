"""The museum's scores: every machine through every game, each of its moves weighed by
perfect play (firmware_ref/perfect.py), and the console's think time of each move.

A machine is a game folder (hdl/<name>/ beside firmware_ref/<name>/); `MACHINES` gives
each machine's key in the museum's table and its folder. Its scores come from its golden
model's games at the console's pins (`walk`): a stone of the machine's colour (red)
appearing on ``board`` is a machine move, made in the position shown without it;
its think time is the clocks with ``busy`` high from the key that led to it (or from the
clock ``start`` falls, for an opening) to the next key; the game's outcome is read from
the final board's lines. A game belongs to side ``first`` when the machine placed the
first stone. Only games of the rules count: from the empty board (``start`` only at the
beginning, no position, no switch but switch 0) and no key on a taken place; a golden
model's other games (the ETH adapter's positions and unusual games) are for lockstep.
The ETH chip's 1955 games (10 million clocks) take this same walk, about half a minute.
"""

import operator
from dataclasses import dataclass, field

from firmware_ref import perfect
from firmware_ref.cartridge import board_places, line
from firmware_ref.places import EMPTY, GREEN, RED
from firmware_ref.perfect import LOSS

from sim import catalogue
from sim.cartridges.golden import Golden

__all__ = ["MACHINES", "SIDES", "Move", "Side", "judge", "by_the_rules", "walk", "score"]

# The museum's machines: the key of each in build/museum.json -> its game folder.
MACHINES = {
    "bawer_hawkins": "bawer_hawkins",
    "hendrix_purcell": "hendrix_purcell",
    "hendrix_purcell_defended": "hendrix_purcell_defended",
    "baum_g": "baum_g",
    "baum_g_forced": "baum_g_forced",
    "eth1990": catalogue.CHIP.name,
    "turbo": "turbo",
    "table": "table",
}
SIDES = ("first", "second")     # the machine placed the first stone, or the person did


@dataclass(frozen=True)
class Move:
    """A machine's move weighed: `before` the position, `place` its move, `value` the
    position's minimax value for it, `after` the value of the move, `best` the places
    that keep `value`."""
    before: tuple
    place: int
    value: int
    after: int
    best: frozenset

    @property
    def blunder(self):
        return self.after < self.value

    @property
    def loses(self):
        """A move that turns a position it does not lose into one it does."""
        return self.value > LOSS and self.after == LOSS


def judge(before, place):
    """The machine's (red's) move to `place` in `before`, weighed by perfect play."""
    moves = perfect.values(before, RED)
    best = max(moves.values())
    return Move(tuple(before), place, best, moves[place],
                frozenset(k for k, v in moves.items() if v == best))


@dataclass
class Side:
    """The scores of one side: outcomes, the distinct positions of its blunders (a
    position -> its Move), and the think time of every move, in clocks."""
    games: int = 0
    lost: int = 0
    drawn: int = 0
    won: int = 0
    blunders: dict = field(default_factory=dict)
    cycles: list = field(default_factory=list)

    def add_game(self, final):
        self.games += 1
        if line(final, RED):
            self.won += 1
        elif line(final, GREEN):
            self.lost += 1
        else:
            self.drawn += 1

    def add_move(self, move, cycles):
        if move.blunder:
            self.blunders[move.before] = move
        self.cycles.append(cycles)


def by_the_rules(game):
    """Whether `game` (inputs per clock) begins from the empty board with switch 0 as
    its only switch and holds ``start`` only at its beginning (keys are checked in
    `walk`)."""
    opening = next((n for n, pins in enumerate(game) if not pins.start), len(game))
    return all(not pins.position and not pins.switches & ~1 for pins in game) \
        and not any(pins.start for pins in game[opening:])


def walk(package, games):
    """The scores of `games` (lists of a golden model's inputs per clock) played on
    golden model `package` at the console's pins (see the module's text), those
    `by_the_rules`: {side: Side}, the sides the machine played."""
    golden = Golden(package)
    index = {name: golden.outputs.index(name) for name in ("board", "busy")}
    board_of, busy_of = (operator.itemgetter(index[n]) for n in ("board", "busy"))
    score = {}
    for game in filter(by_the_rules, games):
        shown = golden.play(game)
        fair = True
        stones, first, segment, made, pending = (EMPTY,) * 9, None, 0, [], None
        for pins, probe in zip(game, shown):
            if pins.start:              # the game (re)opens from the position shown
                stones = tuple(board_places(board_of(probe)))
                first, made, pending = None, [], None
                segment = 0
                continue
            now = tuple(board_places(board_of(probe)))
            new = [k for k in range(9) if now[k] != stones[k]]
            if new:
                # A board that shows the machine's answer with the person's stone (the
                # ETH chip's latches both at once) shows the person moved first.
                red = [k for k in new if now[k] == RED]
                first = first or ("second" if len(red) < len(new) else "first")
                if len(red) > 1:
                    raise AssertionError(f"two machine stones at once: {now}")
                if red:
                    before = now[:red[0]] + (EMPTY,) + now[red[0] + 1:]
                    pending = [judge(before, red[0]), segment]
                    made.append(pending)
            if pins.key:
                k = pins.key.bit_length() - 1
                fair &= stones[k] == EMPTY and now[k] != RED
                # The console counts each key's clocks afresh; a stone shown on the
                # key's clock (the ETH chip's board follows ready by one) was the
                # last key's answer.
                segment, pending = 0, None
            stones = now
            segment += busy_of(probe)
            if pending:
                pending[1] = segment    # the busy clocks after its stone count too
        if not fair:
            continue
        side = score.setdefault(first, Side())
        side.add_game(stones)
        for move, clocks in made:
            side.add_move(move, clocks)
    return score


def score(name, games=None):
    """The scores of game folder `name` over its golden model's `games()` (or `games`)."""
    package = catalogue.game(name).checked()
    return walk(package, package.games() if games is None else games)
