"""Ultimate Tic-Tac-Toe's cartridge, one clock edge at a time at the console's pins
(timing: hdl/ultimate/cartridge.py's and hdl/ultimate/engine.py's texts, and
docs/ultimate.md; read, not imported). The engine's move, value and nodes are
engine.move's; its search takes 4 clocks a node and 10 more."""

import copy
import functools
import random
from dataclasses import dataclass, replace

from . import engine
from .. import cartridge
from ..cartridge import LINES, Probe, board_bits, board_places, lit
from ..places import GREEN, RED
from .rules import CELLS, FULL, HAS_LINE, Position, parse, positions, show

__all__ = ["Inputs", "Probe", "Model", "search_clocks", "Player", "load",
           "position_games", "played_games", "refused_games", "games"]

PERSON_SWITCH, MACHINE_SWITCH = 0, 1
BOTH = RED | GREEN            # a small board decided without a line


def search_clocks(nodes):
    """The clocks the engine is busy for a search of `nodes` nodes."""
    return 11 + 4 * nodes - 1


@dataclass(frozen=True)
class Inputs(cartridge.Inputs):
    switches: int = 0b11    # the person begins, the engine plays: the core's switch_init


@functools.lru_cache(maxsize=4096)
def _lines(xs, os):
    return (tuple(HAS_LINE[xs >> 9 * b & FULL] for b in range(9)),
            tuple(HAS_LINE[os >> 9 * b & FULL] for b in range(9)))


@functools.lru_cache(maxsize=4096)
def _decided(xs, os):
    """Whether each small board is decided: a line, or full."""
    x_line, o_line = _lines(xs, os)
    return tuple(x_line[b] or o_line[b] or (xs | os) >> 9 * b & FULL == FULL
                 for b in range(9))


@functools.lru_cache(maxsize=4096)
def _big_lines(xs, os):
    """Whether X owns a big line, and whether O does."""
    return tuple(_big_line(lines) for lines in _lines(xs, os))


@functools.lru_cache(maxsize=4096)
def _legal(xs, os, last):
    return frozenset(Position(xs, os, last).legal())


def _big_line(lines):
    return any(all(lines[b] for b in line) for line in LINES)


class Model:
    """The cartridge from power-up; `blink`: the clocks of a blink of the legal places,
    as its core's (firmware_ref/cartridge.py's `lit`)."""

    def __init__(self, blink=None):
        self.blink = blink
        self.inputs = Inputs()
        self.state = "BEGIN"
        self.flash = 0              # clocks from power-up
        self.xs = self.os = 0
        self.last = None
        self.x_turn = True
        self.chosen = 0
        self.line = b""             # what is left to say
        self.settled = True         # the byte to say has been in its register a clock
        self.payload = ord("\n")    # that register
        self.loaded = self.surplus = 0
        self.bad = False
        self.tens = self.units = self.place = 0
        self.frozen = 0
        self.big = self.cells = [0] * 9
        self.opening = "position"   # what TURN says at a rest: "move", "refused" too
        self.move_line = b""
        self.busy_left = 0          # the engine's clocks still to search
        self.thinking = None        # the pins while it does
        self.found = None           # its move, value and nodes when done

    def copy(self):
        return copy.copy(self)          # every field is immutable

    def set(self, inputs=None, **pins):
        self.inputs = replace(inputs or self.inputs, **pins) if pins else \
            inputs or self.inputs

    # -- the position as the engine's registers and rules have it ---------------------

    def position(self):
        return Position(self.xs, self.os, self.last)

    def lines(self):
        """Whether each small board holds a line of X's, and of O's."""
        return _lines(self.xs, self.os)

    def decided(self, b):
        return _decided(self.xs, self.os)[b]

    def over(self):
        return any(_big_lines(self.xs, self.os)) or all(_decided(self.xs, self.os))

    def legal(self):
        return _legal(self.xs, self.os, self.last)

    def colours(self, switches):
        x_red = switches >> MACHINE_SWITCH & 1 and not switches >> PERSON_SWITCH & 1
        x, o = (RED, GREEN) if x_red else (GREEN, RED)
        return x, o, x if self.x_turn else o

    def owners(self, switches):
        x, o, _ = self.colours(switches)
        x_line, o_line = self.lines()
        return [x if x_line[b] else o if o_line[b] else BOTH if self.decided(b) else 0
                for b in range(9)]

    def engines_turn(self, switches):
        return bool(switches >> MACHINE_SWITCH & 1) and \
            self.x_turn != bool(switches >> PERSON_SWITCH & 1)

    def said(self):
        """The position line."""
        last = "--" if self.last is None else f"{self.last:02d}"
        return f"P{show(self.position())} {last}\n".encode()

    # -- outputs ---------------------------------------------------------------------

    def shown(self):
        if self.state == "BEGIN":
            return board_places(self.inputs.position)
        if self.state == "THINK":
            return board_places(self.frozen)
        return self.cells if self.state in ("CELL", "PLACE") else self.big

    def views(self):
        """The big board and the chosen small board as shown (a clock later)."""
        switches = self.inputs.switches
        x, o, mover = self.colours(switches)
        blink = lit(self.flash, self.blink)
        legal = self.legal()
        base = 9 * self.chosen
        cells = [x if self.xs >> base + k & 1 else o if self.os >> base + k & 1
                 else mover if blink and base + k in legal else 0 for k in range(9)]
        places = self.owners(switches)
        if self.state == "PICK" and blink:
            boards = {c // 9 for c in legal}
            places = [mover if b in boards else p for b, p in enumerate(places)]
        return places, cells

    @property
    def probe(self):
        if self.thinking is not None:
            return self.thinking
        ready = int(self.state in ("PICK", "CELL", "LOAD")
                    or self.state in ("BEGIN", "PLACE") and bool(self.line))
        over = int(self.state == "OVER")
        busy = int(self.state == "THINK")
        x_big, o_big = _big_lines(self.xs, self.os)
        x, _, _ = self.colours(self.inputs.switches)
        red_won = x_big if x == RED else o_big
        green_won = o_big if x == RED else x_big
        lamps = ready | over << 1 | (over and red_won) << 2 | (over and green_won) << 3
        return Probe(board=board_bits(self.shown()),
                     lamps=lamps, ready=ready, busy=busy, over=over, rx_ready=1,
                     tx_valid=int(bool(self.line) and self.settled),
                     tx_payload=self.payload)

    # -- one rising edge --------------------------------------------------------------

    def _play(self, cell):
        if self.x_turn:
            self.xs |= 1 << cell
        else:
            self.os |= 1 << cell
        self.last, self.x_turn = cell, not self.x_turn

    def _clear(self):
        self.xs = self.os = 0
        self.last, self.x_turn = None, True

    def _load(self, byte):
        """LOAD takes one byte."""
        self.loaded += 1
        if self.loaded <= CELLS:
            is_x, is_o = byte == ord("X"), byte == ord("O")
            self.xs |= is_x << self.loaded - 1
            self.os |= is_o << self.loaded - 1
            self.surplus += is_x - is_o
            self.bad |= not (is_x or is_o or byte == ord("."))
            return
        if self.loaded == CELLS + 1:
            self.tens = byte
        else:
            self.units = byte
            self.state = "CHECK"

    def _check(self):
        """TAKE: the position loaded, and its last move, refused or taken."""
        tens, units = chr(self.tens), chr(self.units)
        x_moves = self.surplus == 0
        none = tens == units == "-"
        digits = tens in "012345678" and units in "0123456789"
        number = int(tens + units) if digits else None
        stone = digits and number <= 80 and \
            (self.os if x_moves else self.xs) >> number & 1
        x_line, o_line = self.lines()
        if (self.bad or not (none or stone) or self.surplus not in (0, 1)
                or any(a and b for a, b in zip(x_line, o_line))):
            self._clear()
            self.opening = "refused"
        else:
            self.last, self.x_turn = number, x_moves
        self.state = "TURN"

    def tick(self):
        inputs, state = self.inputs, self.state
        if state == "THINK" and self.busy_left and not self.line and not inputs.start:
            # The engine searches: nothing but the counters changes, nor any pin.
            self.flash += 1
            self.busy_left -= 1
            self.settled, self.payload = True, ord("\n")
            if self.thinking is None:
                self.thinking = self.probe
            return
        self.thinking = None
        switches = inputs.switches
        engine_busy = self.busy_left > 0
        if state != "THINK":
            frozen = board_bits(self.owners(switches))
        if state != "THINK" or not engine_busy:     # unseen while the engine searches
            self.big, self.cells = self.views()
        silent = not self.line
        line, self.payload = self.line, self.line[0] if self.line else ord("\n")
        if self.line and self.settled and inputs.tx_ready:
            # A line's bytes are fixed when it begins: the registers it tells of hold
            # still until it is out.
            self.line = self.line[1:]
        self.flash += 1
        key = inputs.key.bit_length() - 1           # 0-8, or -1: no key
        byte = inputs.rx_payload if inputs.rx_valid else None
        run = False

        def listen(moves):
            nonlocal run
            if byte is None or not silent:
                return
            if byte == ord("P"):
                self._clear()
                self.loaded = self.surplus = 0
                self.bad = False
                self.state = "LOAD"
            elif byte == ord("M") and moves:
                run = True
                self.state = "THINK"

        if state == "BEGIN":
            if not inputs.start and silent and not engine_busy:
                self._clear()
                self.state = "TURN"
        elif state == "TURN":
            self.state = "NEXT"
        elif state == "NEXT":
            if not self.over() and self.engines_turn(switches):
                run = True
                self.state = "THINK"
            else:
                self.line = {"move": self.move_line, "refused": b"?\n"}.get(
                    self.opening, b"") + self.said()
                self.opening = "position"
                self.state = "OVER" if self.over() else "PICK"
        elif state == "PICK":
            if key < 0:
                listen(True)
            elif key in {c // 9 for c in self.legal()}:
                self.chosen = key
                self.state = "CELL"
        elif state == "CELL":
            if key >= 0:
                self.place = key
                self.state = "PLACE" if 9 * self.chosen + key in self.legal() else "PICK"
            else:
                listen(True)
        elif state == "PLACE":
            if silent:
                self._play(9 * self.chosen + self.place)
                self.state = "TURN"
        elif state == "THINK":
            if not engine_busy:
                cell, value, nodes = self.found
                self._play(cell)
                self.move_line = f"M{cell:02d} {value & 0xFFFFFF:06X} {nodes:08X}\n".encode()
                self.opening = "move"
                self.state = "TURN"
        elif state == "LOAD":
            if byte is not None:
                self._load(byte)
        elif state == "CHECK":
            self.state = "TAKE"
        elif state == "TAKE":
            self._check()
        elif state == "OVER":
            listen(False)
        if state != "BEGIN" and inputs.start:
            self.state = "BEGIN"
        if state != "THINK":
            self.frozen = frozen
        if engine_busy:
            self.busy_left -= 1
        self.settled = self.line is line
        if run:
            self.found = engine.move(self.position())
            self.busy_left = search_clocks(self.found[2])


class Player:
    """Drives a model clock by clock and keeps the inputs of every clock: a game."""

    def __init__(self, switches=0b11, model=None):
        self.model, self.game = model or Model(), []
        self.clock(start=1, switches=switches)
        self.clock(start=0)
        self.settle()

    def clock(self, **pins):
        if pins:            # a new Inputs only where they change: games share the rest
            self.model.set(**pins)
        self.game.append(self.model.inputs)
        self.model.tick()

    def settle(self):
        """Clocks until the cartridge rests (a person's move, or the game over) and its
        line is out."""
        while self.model.state not in ("PICK", "CELL", "OVER") or self.model.line:
            self.clock()

    def key(self, place):
        """Press place 0-8 for one clock, then wait until the cartridge waits."""
        self.clock(key=1 << place)
        self.clock(key=0)
        self.settle()

    def send(self, data):
        """The host's bytes, one every other clock, then wait."""
        for byte in data:
            self.clock(rx_valid=1, rx_payload=byte)
            self.clock(rx_valid=0)
        self.settle()

    def move(self, cell, rng=None, wrong=0.0):
        """Play `cell`: its small board's key, then its cell's; now and then a key on a
        board or a cell that is not legal first."""
        m = self.model
        if rng and rng.random() < wrong:
            self.key(rng.choice([b for b in range(9) if b not in {c // 9 for c in m.legal()}]
                                or [cell // 9]))
        self.key(cell // 9)
        if rng and rng.random() < wrong:
            taken = [k for k in range(9) if 9 * (cell // 9) + k not in m.legal()]
            if taken:
                self.key(rng.choice(taken))         # back to the big board
                self.key(cell // 9)
        self.key(cell % 9)


def load(position):
    """The host's bytes that load `position`."""
    last = "--" if position.last is None else f"{position.last:02d}"
    return f"P{show(position)}{last}".encode()


def position_games(count=300, per_game=10, seed=18):
    """The engine on `count` positions of random games: two people (switch 1 off), each
    position loaded and searched with ``M``, `per_game` positions a game."""
    chosen = list(positions(count, seed))
    for first in range(0, count, per_game):
        player = Player(switches=0b00)
        for position in chosen[first:first + per_game]:
            player.send(load(position))
            player.send(b"M")
        player.clock()
        yield player.game


def played_games(count=3, seed=18, plies=0):
    """Whole games on the panel from a position `plies` random moves in, loaded: a
    random player with wrong keys against the engine, moving first (switch 0) in every
    other game, and two people in the last."""
    rng = random.Random(seed)
    for n in range(count):
        switches = 0b00 if n == count - 1 else 0b10 | (n % 2 == 0)
        start = Position()
        for _ in range(plies):
            if start.legal():
                start = start.play(rng.choice(start.legal()))
        player = Player(switches=switches)
        player.send(load(start))
        m = player.model
        while not m.probe.over:
            player.move(rng.choice(sorted(m.legal())), rng, wrong=0.3)
        player.clock()
        yield player.game


# Positions the cartridge refuses, each with why.
REFUSED = (
    b"P" + b"X" * 81 + b"--",                   # 81 X's and no O
    b"P" + b"X" + b"." * 79 + b"Q" + b"--",     # a character no position has
    b"P" + b"X" + b"." * 80 + b"81",            # past the last cell
    b"P" + b"X" + b"." * 80 + b"01",            # the last move on an empty cell
    b"P" + b"XXXOOO" + b"." * 75 + b"--",      # a line of each in one small board
    b"P" + b"X" + b"." * 80 + b"-0",            # half a last move
)


def refused_games():
    """Each refused position, after a good one; then the start key in the middle of the
    engine's search and in the middle of a line."""
    good = parse("X" + "." * 80, "0")
    player = Player(switches=0b00)
    for refused in REFUSED:
        player.send(load(good))
        player.send(refused)
    player.clock()
    yield player.game
    player = Player(switches=0b00)
    player.send(load(good))
    player.clock(rx_valid=1, rx_payload=ord("M"))
    for _ in range(200):
        player.clock(rx_valid=0)
    player.clock(start=1, position=0b10_01)
    player.clock(start=0)
    while player.model.state == "BEGIN":        # BEGIN waits for the search's end
        player.clock()
    for _ in range(30):                         # into the position's line
        player.clock()
    player.clock(start=1)
    player.clock(start=0)
    player.settle()
    player.clock()
    yield player.game


def games():
    """Every game the lockstep plays: hundreds of positions, whole games, refusals."""
    yield from refused_games()
    yield from played_games(plies=44)
    yield from position_games()
    yield from played_games(seed=19)
