"""A game of turns between the person and a machine, clock by clock at the cartridge's
pins: the golden model of every such cartridge (rules: hdl/turns.py's text, read, not
imported), around an engine model that chooses the machine's move.

An engine model offers ``tick(places, think)``, called once per clock with the board
(a list of nine places: `EMPTY`, `RED` the machine's stone, `GREEN` the person's) and
whether the machine thinks on this clock; it returns the machine's move (a place 0..8)
on the clock its thinking ends, else None. Between moves (``think`` false) it gets ready
for the next, as the engine's registers do.
"""

import copy
from dataclasses import dataclass, replace
from functools import lru_cache

from . import cartridge, perfect
from .cartridge import Probe, board_bits, board_places, full, line
from .places import EMPTY, GREEN, RED

__all__ = ["Inputs", "Model", "games", "replies", "blunders_of"]


@dataclass(frozen=True)
class Inputs(cartridge.Inputs):
    switches: int = 0b1     # the person begins, as hdl/turns.py's switch_init


class Model:
    """The game around `engine` (an engine model, see the module's text), by default a
    new `engine_class`: a game whose engine takes no arguments names its class, as its
    core does (hdl/turns.py's ``engine``). A machine that cannot begin (`can_begin`
    false) lets the person begin whatever switch 0 says. With `blunder_lamp`, lamp 3
    lights from a move that is one of `blunders` (pairs of the board moved from, as
    `board_bits`, and the place; by default those perfect play finds for the engine,
    `blunders_of`) until the machine's next move or a new game; else it is "you won".
    """

    can_begin = True
    blunder_lamp = False
    engine_class = None

    def __init__(self, engine=None, blunders=None):
        engine = self.engine_class() if engine is None else engine
        if blunders is None and self.blunder_lamp:
            blunders = blunders_of(type(engine), self.can_begin)
        self.engine = engine
        self.blunders = frozenset(blunders or ())
        self.blundered = False
        self.inputs = Inputs()
        self.state = "OPEN"
        self.places = [EMPTY] * 9
        self.said = 0
        self.saying = 0

    def copy(self):
        """An independent model in the same state."""
        return copy.deepcopy(self)

    def set(self, inputs=None, **pins):
        self.inputs = replace(inputs or self.inputs, **pins)

    @property
    def probe(self):
        ready, over = int(self.state == "WAIT"), int(self.state == "OVER")
        own = self.blundered if self.blunder_lamp else line(self.places, GREEN)
        lamps = ready | over << 1 | line(self.places, RED) << 2 | own << 3
        return Probe(
            board=board_bits(self.places), lamps=lamps,
            ready=ready, busy=int(self.state in ("JUDGE_PERSON", "THINK", "JUDGE_MACHINE")),
            over=over, rx_ready=1, tx_valid=int(self.saying != 0),
            tx_payload=ord(self.line()[-self.saying]) if self.saying else ord("\n"))

    def line(self):
        """The line that says the machine's last move: its column A-C, its row 1-3 and a
        newline, as the host names places."""
        return "ABC"[self.said % 3] + "123"[self.said // 3] + "\n"

    def tick(self):
        inputs, places = self.inputs, self.places
        if self.saying and inputs.tx_ready:
            self.saying -= 1
        move = self.engine.tick(list(places), self.state == "THINK")
        if self.state == "OPEN":
            if line(places, RED) or line(places, GREEN) or full(places):
                self.state = "OVER"
            else:
                begins = inputs.switches & 1 or not self.can_begin
                self.state = "WAIT" if begins else "THINK"
        elif self.state == "WAIT":
            # A key on a taken place is ignored.
            free = [k for k in range(9) if inputs.key >> k & 1 and not places[k]]
            if free:
                places[free[-1]] = GREEN
                self.state = "JUDGE_PERSON"
        elif self.state == "JUDGE_PERSON":
            self.state = "OVER" if line(places, GREEN) or full(places) else "THINK"
        elif self.state == "THINK":
            if move is not None:
                if places[move] != EMPTY:
                    raise AssertionError(f"the engine moved to taken place {move} "
                                         f"of {places}")
                self.blundered = (board_bits(places), move) in self.blunders
                places[move] = RED
                self.said, self.saying = move, 3
                self.state = "JUDGE_MACHINE"
        elif self.state == "JUDGE_MACHINE":
            self.state = "OVER" if line(places, RED) or full(places) else "WAIT"
        if inputs.start:
            self.places = board_places(inputs.position)
            self.saying = 0
            self.blundered = False
            self.state = "OPEN"


def games(model, limit=64, first=True, second=True):
    """Every game a person can play against `model` (a fresh Model): the person begins
    (`first`) and the machine begins (`second`), then each empty place at each of the
    person's turns. Each game is the list of the inputs of each clock. `limit`: the
    most clocks a machine may take between two of the person's turns."""
    def play(model, session):
        clocks = 0
        while model.state != "WAIT":
            if model.state == "OVER":
                yield session
                return
            if clocks > limit:
                raise RuntimeError(f"the machine did not answer within {limit} clocks")
            session, clocks = session + [model.inputs], clocks + 1
            model.tick()
        for k in range(9):
            if not model.places[k]:
                branch = model.copy()
                branch.set(key=1 << k)
                pressed = branch.inputs
                branch.tick()
                branch.set(key=0)
                yield from play(branch, session + [pressed])

    for switches, wanted in ((0b1, first), (0b0, second and model.can_begin)):
        if not wanted:
            continue
        begin = model.copy()
        begin.set(start=1, switches=switches)
        pins = begin.inputs
        begin.tick()
        begin.set(start=0)
        yield from play(begin, [pins])


def replies(engine, can_begin=True):
    """Every move the machine makes in a game, the person trying every empty place at
    each turn: {(places, move): think clocks}, places a tuple. `engine` makes a fresh
    engine model; each branch of the walk goes on with its own copy, so an engine that
    remembers the game (the cigarette box) answers as it would in that game, and one
    position may get different moves in different games."""
    found = {}

    def answer(places, machine):
        machine = copy.deepcopy(machine)
        machine.tick(list(places), False)
        clocks, move = 1, machine.tick(list(places), True)
        while move is None:
            clocks, move = clocks + 1, machine.tick(list(places), True)
        found[places, move] = clocks
        after = places[:move] + (RED,) + places[move + 1:]
        if not (line(after, RED) or full(after)):
            person(after, machine)

    def person(places, machine):
        for k in range(9):
            if places[k] == EMPTY:
                after = places[:k] + (GREEN,) + places[k + 1:]
                if not (line(after, GREEN) or full(after)):
                    answer(after, machine)

    person((EMPTY,) * 9, engine())
    if can_begin:
        answer((EMPTY,) * 9, engine())
    return found


@lru_cache(maxsize=None)
def blunders_of(engine, can_begin=True):
    """The moves by which the machine that `engine` makes lowers the position's value
    for itself by perfect play (perfect.py), over every game a person can play against
    it (`replies`): pairs of the board moved from (as `board_bits`) and the place; found
    once per engine."""
    return frozenset((board_bits(places), move)
                     for places, move in replies(engine, can_begin)
                     if perfect.values(places, RED)[move] < perfect.value(places, RED))
