"""First free, one clock edge at a time, at the console's pins (docs/cartridge.md)."""

import copy
from dataclasses import dataclass, replace

__all__ = ["Inputs", "Probe", "Model", "LINES", "games"]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))
RED, GREEN = 1, 2           # a place's two bits: the machine's stone, the person's


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


class Model:
    def __init__(self):
        self.inputs = Inputs()
        self.state = "OPEN"
        self.places = [0] * 9
        self.index = 0
        self.said = 0
        self.saying = 0

    def copy(self):
        """An independent model in the same state."""
        return copy.deepcopy(self)

    def set(self, inputs=None, **pins):
        self.inputs = replace(inputs or self.inputs, **pins)

    def _line(self, colour):
        return any(all(self.places[k] & colour for k in three) for three in LINES)

    def _full(self):
        return all(self.places)

    @property
    def probe(self):
        ready, over = int(self.state == "WAIT"), int(self.state == "OVER")
        lamps = ready | over << 1 | self._line(RED) << 2 | self._line(GREEN) << 3
        return Probe(
            board=sum(v << 2 * k for k, v in enumerate(self.places)), lamps=lamps,
            ready=ready, busy=int(self.state in ("JUDGE_PERSON", "THINK", "JUDGE_MACHINE")),
            over=over, rx_ready=1, tx_valid=int(self.saying != 0),
            tx_payload=ord("0") + self.said if self.saying == 2 else ord("\n"))

    def tick(self):
        inputs = self.inputs
        if self.saying and inputs.tx_ready:
            self.saying -= 1
        if self.state == "OPEN":
            self.index = 0
            self.state = "WAIT" if inputs.switches & 1 else "THINK"
        elif self.state == "WAIT":
            # A key on a taken place is ignored.
            free = [k for k in range(9) if inputs.key >> k & 1 and not self.places[k]]
            if free:
                self.places[free[-1]] = GREEN
                self.state = "JUDGE_PERSON"
        elif self.state == "JUDGE_PERSON":
            self.index = 0
            self.state = "OVER" if self._line(GREEN) or self._full() else "THINK"
        elif self.state == "THINK":
            if self.places[self.index]:
                self.index += 1
            else:
                self.places[self.index] = RED
                self.said, self.saying = self.index, 2
                self.state = "JUDGE_MACHINE"
        elif self.state == "JUDGE_MACHINE":
            self.state = "OVER" if self._line(RED) or self._full() else "WAIT"
        if inputs.start:
            self.places = [inputs.position >> 2 * k & 3 for k in range(9)]
            self.saying = 0
            self.state = "OPEN"



def games(limit=64):
    """Every game a person can play: both openings, then each empty place at each of
    the person's turns. Each game is the list of the inputs of each clock."""
    def play(model, session):
        while model.state != "WAIT":
            if model.state == "OVER":
                yield session
                return
            if len(session) > limit:
                raise RuntimeError(f"first free did not settle within {limit} clocks")
            session = session + [model.inputs]
            model.tick()
        for k in range(9):
            if not model.places[k]:
                branch = copy.deepcopy(model)
                branch.set(key=1 << k)
                pressed = branch.inputs
                branch.tick()
                branch.set(key=0)
                yield from play(branch, session + [pressed])

    for switches in (0b1, 0b0):
        model = Model()
        model.set(start=1, switches=switches)
        first = model.inputs
        model.tick()
        model.set(start=0)
        yield from play(model, [first])
