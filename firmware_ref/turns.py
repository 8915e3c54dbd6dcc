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

__all__ = ["LINES", "EMPTY", "RED", "GREEN", "Inputs", "Probe", "Model", "line", "full",
           "games"]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))
EMPTY, RED, GREEN = 0, 1, 2     # a place's two bits: the machine's stone, the person's


@dataclass(frozen=True)
class Inputs:
    key: int = 0            # one bit per place
    start: int = 0
    position: int = 0       # 18 bits: place k is bits 2k (red) and 2k+1 (green)
    switches: int = 0b1
    rx_valid: int = 0       # bytes from the host, which it does not hear
    rx_payload: int = 0
    tx_ready: int = 1       # the host takes the text


@dataclass(frozen=True)
class Probe:
    board: int
    lamps: int
    ready: int
    busy: int
    over: int
    rx_ready: int
    tx_valid: int
    tx_payload: int


def line(places, colour):
    """Whether `colour` holds a whole line of `places`."""
    return any(all(places[k] == colour for k in three) for three in LINES)


def full(places):
    return EMPTY not in places


class Model:
    """The game around `engine` (an engine model, see the module's text); a machine
    that cannot begin (`can_begin` false) lets the person begin whatever switch 0 says."""

    can_begin = True

    def __init__(self, engine):
        self.engine = engine
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
        lamps = (ready | over << 1 | line(self.places, RED) << 2
                 | line(self.places, GREEN) << 3)
        return Probe(
            board=sum(v << 2 * k for k, v in enumerate(self.places)), lamps=lamps,
            ready=ready, busy=int(self.state in ("JUDGE_PERSON", "THINK", "JUDGE_MACHINE")),
            over=over, rx_ready=1, tx_valid=int(self.saying != 0),
            tx_payload=ord("0") + self.said if self.saying == 2 else ord("\n"))

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
                places[move] = RED
                self.said, self.saying = move, 2
                self.state = "JUDGE_MACHINE"
        elif self.state == "JUDGE_MACHINE":
            self.state = "OVER" if line(places, RED) or full(places) else "WAIT"
        if inputs.start:
            self.places = [inputs.position >> 2 * k & 3 for k in range(9)]
            self.saying = 0
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
