"""The bomb module, one clock edge at a time at the console's pins (rules and timing:
hdl/ktane/cartridge.py's text and docs/ktane.md, read, not imported).

The module draws from a random source given as a stream of 16-bit words, one per
clock (`Model(source=...)`); by default the LFSR of lfsr.py, as the core's.
"""

import copy
import random
from dataclasses import dataclass, replace

from . import lfsr
from ..cartridge import Inputs, Probe, board_bits, board_places
from .manual import CHART, Defuser, expect, start_row
from .module import EMPTY, O, PASS, X, column, completes

__all__ = ["Inputs", "Probe", "Model", "LINE_LENGTH", "PASS_SWITCH", "keypad", "games",
           "play", "Edgework"]

PIECES = 5                  # placed at random when a module begins
STRIKES_MAX = 9             # the counter stops there: one digit on the host's line
PASS_SWITCH = 1             # each change of switch 1 is a press of PASS
LINE_LENGTH = 20            # "E7021 L123456789 S0" and a newline


@dataclass(frozen=True)
class Edgework:
    digit: int              # the serial number's last digit
    port: int               # a parallel port: 1
    lit: int
    unlit: int

    @property
    def start(self):
        """The starting row, 0-8."""
        return start_row(self.digit, self.port, self.lit, self.unlit) - 1


class Model:
    def __init__(self, source=None):
        self.source = lfsr.Words() if source is None else source
        self.word = next(self.source)
        self.inputs = Inputs()
        self.state = "BEGIN"
        self.board = [EMPTY] * 9
        self.place_of = list(range(9))
        self.edge = Edgework(0, 0, 0, 0)
        self.host = Edgework(0, 0, 0, 0)
        self.host_set = False
        self.shuffle = False
        self.rx_mode, self.rx_field = "IDLE", 0
        self.index = 8              # Fisher-Yates: the label drawn for next
        self.count = 0              # pieces placed at the start
        self.row = 0
        self.up = X
        self.passed = False
        self.strikes = 0
        self.struck = False
        self.press = 0
        self.pass_seen = 0
        self.sending, self.char, self.dirty = False, 0, False

    def copy(self):
        return copy.deepcopy(self)

    def set(self, inputs=None, **pins):
        self.inputs = replace(inputs or self.inputs, **pins)

    # -- outputs ---------------------------------------------------------------------

    def line(self):
        """The line the module sends the host: edgework, labels, strikes."""
        e = self.edge
        labels = "".join(str(self.place_of.index(k) + 1) for k in range(9))
        return f"E{e.digit}{e.port}{e.lit}{e.unlit} L{labels} S{self.strikes}\n"

    @property
    def probe(self):
        ready, over = int(self.state == "READY"), int(self.state == "SOLVED")
        busy = int(self.state in ("WALK", "JUDGE", "RANDOM", "NEXT"))
        lamps = ready | over << 1 | self.struck << 2 | (self.up == X) << 3
        board = board_bits(self.board)
        return Probe(board=board, lamps=lamps, ready=ready, busy=busy, over=over,
                     rx_ready=1, tx_valid=int(self.sending),
                     tx_payload=ord(self.line()[self.char]))

    # -- one rising edge --------------------------------------------------------------

    def tick(self):
        inputs, r = self.inputs, self.word
        nibble, bit = r & 15, r >> 4 & 1
        if self.sending and inputs.tx_ready:
            self.sending = self.char != LINE_LENGTH - 1
            self.char = (self.char + 1) % LINE_LENGTH
        elif not self.sending and self.dirty:
            self.sending, self.char, self.dirty = True, 0, False

        board, passing = self.board, inputs.switches >> PASS_SWITCH & 1
        state = self.state
        if state not in ("READY", "WALK", "JUDGE", "RANDOM", "NEXT"):
            self.pass_seen = passing            # a PASS here is no press
        if state == "BEGIN":
            self.board = [EMPTY] * 9
            self.place_of = list(range(9))
            self.strikes, self.struck, self.passed = 0, False, False
            self.count, self.index = 0, 8
            if self.host_set:
                self.edge = self.host
                self.state = "SHUFFLE"
            else:
                self.state = "DIGIT"
        elif state == "DIGIT":
            if nibble < 10:
                self.edge = Edgework(nibble, bit, r >> 5 & 3, r >> 7 & 3)
                self.state = "SHUFFLE"
        elif state == "SHUFFLE":
            if not self.shuffle or self.index == 0:
                self.state = "PIECES"
            elif nibble <= self.index:
                i, p = self.index, self.place_of
                p[i], p[nibble] = p[nibble], p[i]
                self.index -= 1
        elif state == "PIECES":
            self.row = self.edge.start
            piece = X if bit else O
            if self.count == PIECES:
                self.up, self.dirty = piece, True
                self.state = "READY"
            elif nibble < 9 and board[nibble] == EMPTY and not completes(board, nibble,
                                                                         piece):
                board[nibble] = piece
                self.count += 1
        elif state == "READY":
            if inputs.key:
                self.press = inputs.key.bit_length() - 1
                self.state = "WALK"
            elif passing != self.pass_seen:
                self.press, self.pass_seen = PASS, passing
                self.state = "WALK"
        elif state == "WALK":
            place = self.place_of[CHART[self.row][column(board, self.up)] - 1]
            if board[place] != EMPTY:
                self.row = (self.row + 1) % 9
            else:
                self.state = "JUDGE"
        elif state == "JUDGE":
            place = self.place_of[CHART[self.row][column(board, self.up)] - 1]
            wanted = PASS if completes(board, place, self.up) else place
            if self.press != wanted:
                self.strikes = min(self.strikes + 1, STRIKES_MAX)
                self.struck, self.row, self.dirty = True, self.edge.start, True
                self.state = "READY"
            elif self.press != PASS:
                board[place], self.passed = self.up, False
                self.struck, self.row = False, (self.row + 1) % 9
                self.state = "NEXT"
            elif self.passed:
                self.struck = False
                self.state = "RANDOM"
            else:
                self.struck, self.passed, self.up = False, True, X + O - self.up
                self.state = "READY"
        elif state == "RANDOM":
            if nibble < 9 and board[nibble] == EMPTY:
                board[nibble], self.passed = self.up, False
                self.row = (self.row + 1) % 9
                self.state = "NEXT"
        elif state == "NEXT":
            if EMPTY not in board:
                self.state = "SOLVED"
            else:
                self.up = X if bit else O
                self.state = "READY"
        if inputs.start:
            self.board = board_places(inputs.position)
            self.state = "BEGIN"
        self._hear(inputs)          # after the FSM: it read the host's last values
        self.word = next(self.source)

    def _hear(self, inputs):
        """The host's bytes: ``E`` and four digits (the serial number's last digit,
        a parallel port 0/1, lit, unlit) or ``E?`` (drawn at random), and ``L1``
        (shuffled labels) or ``L0`` (reading order). They apply to the next module."""
        if not inputs.rx_valid:
            return
        c = chr(inputs.rx_payload)
        mode = self.rx_mode
        self.rx_mode = "IDLE"
        if mode == "IDLE":
            self.rx_mode = {"E": "E", "L": "L"}.get(c, "IDLE")
            if c == "E":
                self.host_set, self.rx_field = False, 0
        elif mode == "E" and c.isdigit() and c.isascii():
            d = int(c)
            fields = [self.host.digit, self.host.port, self.host.lit, self.host.unlit]
            fields[self.rx_field] = int(d != 0) if self.rx_field == 1 else d
            self.host = Edgework(*fields)
            self.rx_field += 1
            if self.rx_field == 4:
                self.host_set = True
            else:
                self.rx_mode = "E"
        elif mode == "L" and c in "01":
            self.shuffle = c == "1"


# -- what the defuser sees, and games -----------------------------------------------

def keypad(model):
    """The keypad as the defuser sees it: ``"X"``, ``"O"`` or the key's label 1-9."""
    marks = {X: "X", O: "O"}
    return [marks.get(v) or model.place_of.index(k) + 1 for k, v in enumerate(model.board)]


class Player:
    """Drives a model clock by clock and keeps the inputs of every clock: a game."""

    def __init__(self, model, limit=20_000):
        self.model, self.game, self.limit = model, [], limit

    def clock(self, **pins):
        if self.limit is not None and len(self.game) >= self.limit:
            raise RuntimeError(f"the module did not finish within {self.limit} clocks")
        self.model.set(**pins)
        self.game.append(self.model.inputs)
        self.model.tick()

    def idle(self, clocks):
        for _ in range(clocks):
            self.clock()

    def send(self, text):
        for c in text.encode():
            self.clock(rx_valid=1, rx_payload=c)
        self.clock(rx_valid=0, rx_payload=0)

    def settle(self):
        """Clocks until the module waits for a press or is solved."""
        while not (self.model.probe.ready or self.model.probe.over):
            self.clock()

    def key(self, place):
        self.clock(key=1 << place)
        self.clock(key=0)
        self.settle()

    def pass_(self):
        self.clock(switches=self.model.inputs.switches ^ 1 << PASS_SWITCH)
        self.clock()
        self.settle()


def play(rng, *, edge=None, shuffle=False, wrong=0.0, gap=24, model=None):
    """One module from power-up (or from `model`), defused by the expert: the host
    sets `edge` (an Edgework, else it is drawn) and `shuffle`, a new module begins,
    and the expert presses after a gap of up to `gap` clocks, making a wrong press
    instead with probability `wrong`. Returns the Player (its `game`, its `model`)
    and the number of wrong presses."""
    player = Player(model or Model())
    player.idle(rng.randrange(gap))
    if edge is not None:
        player.send(f"E{edge.digit}{edge.port}{edge.lit}{edge.unlit}")
    player.send(f"L{int(shuffle)}")
    player.clock(start=1)
    player.clock(start=0)
    player.settle()
    model = player.model
    e = model.edge
    defuser, wrongs = Defuser(e.digit, e.port, e.lit, e.unlit), 0
    while not model.probe.over:
        player.idle(rng.randrange(gap))
        seen, up = keypad(model), "X" if model.probe.lamps >> 3 & 1 else "O"
        if rng.random() < wrong:
            answer = expect(seen, up, defuser.row)
            right = "PASS" if answer[0] == "PASS" else answer[1]
            press = rng.choice([p for p in ["PASS", *range(1, 10)] if p != right])
            defuser.struck()
            wrongs += 1
        else:
            press = defuser.press(seen, up)
        if press == "PASS":
            player.pass_()
        else:
            player.key(model.place_of[press - 1])
    return player, wrongs


def games(count=24, seed=2026):
    """Modules defused by the expert, each from power-up: the host sets the edgework
    or the module draws it, labels shuffled or in reading order, with and without
    wrong presses; then one module begun again in the middle."""
    rng = random.Random(seed)
    for n in range(count):
        edge = None if n % 3 == 0 else Edgework(rng.randrange(10), rng.randrange(2),
                                                 rng.randrange(4), rng.randrange(4))
        player, _ = play(rng, edge=edge, shuffle=n % 2 == 1, wrong=0.15 * (n % 4 == 3))
        player.idle(8)
        yield player.game
    player = Player(Model())
    player.settle()
    player.key(0)
    player.send("E?")
    player.clock(start=1)
    player.clock(start=1)
    player.clock(start=0)
    player.settle()
    player.pass_()
    yield player.game
