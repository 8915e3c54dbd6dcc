"""The ETH chip as a cartridge, clock by clock at the console's pins (docs/cartridge.md).

The golden model of the thin adapter ``hdl/eth/cartridge.py`` (its text read, not
imported) on top of the chip's own golden model, `cycle.CycleModel`. What the adapter does:

- **Start.** While ``start`` is high the chip is held in reset (``load``). On the clock
  after ``start`` falls (still ``load``, the chip still in reset) the adapter reads which
  places of ``position`` are occupied; the next clock is the last reset edge, and it
  gives the chip the lowest of them (``opening``); then one place per clock (``burst``),
  ``piN`` high in the clock that places a machine's stone (§4's test mode), read from
  ``position``, which the console holds meanwhile. A clock with no key left lets the
  chip open (the person, or the chip at its 3-bit counter); the game runs from then.
  Power-up is a start that has just fallen, from the empty board.
- **Running.** ``keyboardN`` is the complement of ``key``, ``piN`` is switch 1 and
  ``userbegins`` switch 0 (always, bursts too). ``ready`` is the chip's ``prompt``
  (which falls two clocks after a key, within the console's ``SETTLE``); ``busy`` is
  neither ``prompt`` nor ``fin``; ``over`` is ``fin``. Before the game runs all three are
  low.
- **The board** is ``position`` while ``start`` is high (from the next clock), else the
  chip's ``led`` as it was at the last clock with ``copyboard`` high, never its search: the place bits agree (bit 2k the machine's stone, 2k + 1 the
  person's).
- **Lamps**: ``prompt``, ``fin``, ``win``, 0. The chip has nothing to say to the host:
  ``rx_ready`` is 1, ``tx_valid`` and ``tx_payload`` are 0.

`Model` has the protocol every golden model of a cartridge has: `set` the inputs,
`tick` the clock, read `probe`; `games()` is every game a person can play at the pins.
"""

from dataclasses import dataclass, replace

from .. import cartridge
from ..cartridge import Probe, board_bits, board_places
from ..places import EMPTY, PLACES, RED
from .cycle import NO_KEY, CycleModel
from .cycle import Inputs as ChipInputs

__all__ = ["Inputs", "Probe", "Model", "SETTLE", "OPENINGS", "POSITIONS", "start_clocks",
           "session", "played", "games", "unusual"]

SETTLE = 3                  # the console's contract: a taken key shows within 3 clocks
_PINS = {}                  # the chip's inputs seen so far, each value once
OPENINGS = (None, *range(PLACES - 1))   # the person begins, or the chip opens at 0..7
PERSON_BEGINS, CHIP_BEGINS = 0b01, 0b00  # switch 0: userbegins; switch 1 (piN) low


@dataclass(frozen=True)
class Inputs(cartridge.Inputs):
    switches: int = PERSON_BEGINS   # switch 0: userbegins, switch 1: piN


def _occupied(board):
    """One bit per place of an 18-bit board: either stone is there."""
    return sum(1 << k for k, place in enumerate(board_places(board)) if place)


class Model:
    """The cartridge, one clock edge at a time, from power-up."""

    def __init__(self):
        self.inputs = Inputs()
        self.chip = CycleModel()        # the chip's random counter powers up at 0
        # The adapter's states, one hot as its flip-flops: power-up is `load`.
        self.load, self.opening, self.burst, self.run = 1, 0, 0, 0
        self.left = 0                   # occupied places not yet given to the chip
        self.given = 0                  # the place given last clock, one hot
        self.board = 0                  # what the board shows
        self._drive()

    def copy(self):
        """An independent cartridge in the same state (the chip rebuilt from its
        registers, as a scan path would load them)."""
        twin = Model.__new__(Model)
        twin.__dict__.update(self.__dict__)
        twin.chip = CycleModel.from_registers(self.chip.registers(), self.chip.inputs)
        return twin

    # -- the bench: inputs, clock, probe ---------------------------------------------

    def set(self, inputs=None, **pins):
        """Drive input pins, e.g. ``set(key=1 << 4)``."""
        inputs = replace(inputs or self.inputs, **pins) if pins else inputs
        if inputs is not None and inputs is not self.inputs:
            self.inputs = inputs
            self._drive()

    def tick(self):
        """One rising edge of the clock, with the inputs now applied."""
        inputs, before = self.inputs, self._chip_probe()
        first, rest = self._first(), not self.left
        if self.load:
            self.left = _occupied(inputs.position)
        elif self.opening or self.burst:
            self.left, self.given = self.left & ~first, first
        if inputs.start:
            self.load, self.opening, self.burst, self.run = 1, 0, 0, 0
        else:
            self.load, self.opening, self.burst, self.run = (
                0, self.load, int(self.opening or self.burst and not rest),
                int(self.run or self.burst and rest))
        if inputs.start:
            self.board = inputs.position
        elif before.copyboard:
            self.board = before.led
        self.chip.tick()
        self._seen = None
        self._drive()

    @property
    def probe(self):
        chip, running = self._chip_probe(), self.run
        return Probe(
            ready=int(running and chip.prompt),
            busy=int(running and not chip.prompt and not chip.fin),
            over=int(running and chip.fin), board=self.board,
            lamps=chip.prompt | chip.fin << 1 | chip.win << 2,
            rx_ready=1, tx_valid=0, tx_payload=0)

    # -- the chip's pins --------------------------------------------------------------

    def _chip_probe(self):
        # The chip's probe, once per clock and inputs: the bench reads it several times.
        if self._seen is None:
            self._seen = self.chip.probe
        return self._seen

    def _first(self):
        """The lowest place still to give the chip, one hot (0 when none is left)."""
        return self.left & -self.left

    def _drive(self):
        inputs = self.inputs
        if self.run:
            keyboardN, piN = NO_KEY & ~inputs.key, inputs.switches >> 1 & 1
        else:
            keyboardN = NO_KEY if self.load else NO_KEY & ~self._first()
            reds = sum(1 << k for k, place in enumerate(board_places(inputs.position))
                       if place & RED)
            piN = int(bool(self.burst and self.given & reds))
        pins = ChipInputs(keyboardN=keyboardN, userbegins=inputs.switches & 1, piN=piN,
                          resetN=int(not (self.load or self.opening)))
        self.chip.inputs = _PINS.setdefault(pins, pins)   # as chip.set does, uncopied
        self._seen = None

    # -- what a person sees -----------------------------------------------------------

    @property
    def waiting(self):
        """The game is at rest: the cartridge takes a key, or the game is over."""
        probe = self.probe
        return bool(probe.ready or probe.over)


# -- the games a person can play at the pins ------------------------------------------

def start_clocks(opening):
    """How many clocks to hold ``start`` from power-up so that the chip opens at place
    `opening` (0 to 7). The chip's 3-bit counter counts every edge from 0: the
    ``start`` edges and the two reset edges that follow the fall of ``start`` (the
    adapter reads the position, then gives the first key), and the chip opens at the
    counter's value after them, so at ``start`` clocks + 2 (mod 8)."""
    return (opening - 2) % 8 or 8


def session(switches, *, clocks=1, board=0):
    """The inputs that begin a game: ``start`` for `clocks` clocks with the position
    `board`, then ``start`` low, the position held as the console holds it."""
    begin = Inputs(start=1, position=board, switches=switches)
    return [begin] * clocks + [replace(begin, start=0)]


def _settle(model, inputs, limit):
    """Clock `model` on `inputs` until it is at rest; the inputs of each clock."""
    clocks = []
    model.set(inputs)
    while not model.waiting:
        if len(clocks) == limit:
            raise RuntimeError(f"the cartridge did not come to rest within {limit} clocks")
        clocks.append(inputs)
        model.tick()
    return clocks


def _play(model, played, limit, keys=None):
    """Every continuation of `model` (at rest), each key on each empty place while the
    game goes on; `keys(board)`: the places to try (default: every empty one)."""
    if model.probe.over:
        yield played + [played[-1]]     # and one clock more: the board shows the end
        return
    board = model.chip.board            # the display shows it one clock later
    empty = [k for k, place in enumerate(board_places(board)) if not place]
    for k in (keys(board) if keys else empty):
        branch = model.copy()
        yield from _play(branch, _press(branch, played, 1 << k, limit), limit, keys)


def _first_free(board):
    return [board_places(board).index(EMPTY)]


def _begin(switches, clocks, board, limit):
    """A cartridge from power-up given `session`, at rest, and the inputs it was given."""
    model, played = Model(), []
    for inputs in session(switches, clocks=clocks, board=board):
        model.set(inputs)
        played.append(inputs)
        model.tick()
    return model, played + _settle(model, played[-1], limit)


def _press(model, played, key, limit):
    """`model` (at rest) given `key` for one clock, then quiet: for the SETTLE clocks in
    which the console does not look, and on until it is at rest."""
    model.set(key=key)
    pressed = model.inputs
    model.tick()
    quiet = replace(pressed, key=0)
    model.set(quiet)
    for _ in range(SETTLE - 1):
        model.tick()
    return played + [pressed] + [quiet] * (SETTLE - 1) + _settle(model, quiet, limit)


# Positions a game may begin from (``start`` with ``position``): the board in alg.py's
# encoding, whose place bits are the cartridge's, and the switches. From each the
# person plays the first empty place.
POSITIONS = (
    (board_bits([0, 0, 2, 0, 1, 0, 0, 0, 0]), PERSON_BEGINS),  # as tests/test_box.py
    (board_bits([1, 2, 0, 0, 2, 0, 0, 1, 0]), PERSON_BEGINS),
    (board_bits([2, 0, 0, 0, 1, 0, 0, 0, 2]), PERSON_BEGINS),
    (board_bits([0, 0, 0, 0, 2, 0, 0, 0, 0]), CHIP_BEGINS),    # it also opens at its counter
)


def unusual(*, limit=100_000):
    """Games a console would not play but the pins allow: a key on a taken place (the
    chip ignores it), ``start`` with a position in the middle of a search, and switch 1
    (piN) on, so that the person's keys put the machine's stones."""
    model, played = _begin(PERSON_BEGINS, 1, 0, limit)
    played = _press(model, played, 1 << 4, limit)
    played = _press(model, played, 1 << 4, limit)             # taken: ignored
    yield from _play(model, played, limit, _first_free)

    model, played = _begin(PERSON_BEGINS, 1, 0, limit)
    model.set(key=1 << 0)
    played.append(model.inputs)
    model.tick()
    quiet = replace(model.inputs, key=0)
    model.set(quiet)
    for _ in range(40):                                        # into the search
        played.append(quiet)
        model.tick()
    restart = replace(quiet, start=1, position=board_bits([0, 1, 0, 0, 2, 0, 0, 0, 0]))
    played += [restart] * 2
    model.set(restart)
    model.tick()
    model.tick()
    played += _settle(model, replace(restart, start=0), limit)
    yield from _play(model, played, limit, _first_free)

    model, played = _begin(PERSON_BEGINS | 0b10, 1, 0, limit)
    played = _press(model, played, 1 << 0, limit)
    yield from _play(model, played, limit, _first_free)


def played(switches=PERSON_BEGINS, board=0, keys=None, *, clocks=1, limit=100_000):
    """The games from a `session` (`switches`, ``start`` for `clocks` clocks with
    `board`): at each of the person's turns each place of `keys(board)` (the chip's
    board as it is; default: every empty place) is tried."""
    yield from _play(*_begin(switches, clocks, board, limit), limit, keys)


def games(openings=OPENINGS, positions=POSITIONS, *, others=True, limit=100_000):
    """Every game a person can play at the pins from the empty board, for each of
    `openings` (None: switch 0 on, the person begins; k: switch 0 off and ``start``
    held so long that the chip opens at k, `start_clocks`); a game from each of
    `positions` (board, switches), the person on the first empty place; and with
    `others` the `unusual` games. Each game is the inputs of each clock from power-up.
    A key is pressed for one clock on an empty place as soon as the cartridge is ready
    (its board shows the chip's move one clock later: it latches what the chip shows
    with ``copyboard``); the inputs then stay quiet until it is ready again or the game
    is over, and one clock more. The empty board gives 1955 games, as ``make games``
    counts them (10,252,629 clocks from power-up, 7,044,273 of them when the person
    begins: each of those games begins with the chip's long reply to the opening)."""
    for opening in openings:
        if opening is None:
            yield from _play(*_begin(PERSON_BEGINS, 1, 0, limit), limit)
        else:
            model, played = _begin(CHIP_BEGINS, start_clocks(opening), 0, limit)
            if model.chip.board != 1 << 2 * opening:
                raise RuntimeError(f"the chip opened at {model.chip.board:018b}, "
                                   f"not at place {opening}")
            yield from _play(model, played, limit)
    for board, switches in positions:
        yield from _play(*_begin(switches, 1, board, limit), limit, _first_free)
    if others:
        yield from unusual(limit=limit)
