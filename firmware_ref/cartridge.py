"""The cartridge on the golden side: what every golden model shares (docs/cartridge.md),
as hdl/cartridge.py is what every core shares (read, not imported).

- `Inputs`, `Probe`: the signature's members as the golden models' pins, one field each,
  a stream's as ``rx_valid``, ``rx_payload``, ``tx_ready``. A game whose switches power
  up otherwise (its core's ``switch_init``), or that needs more, extends them.
- A board: nine places in reading order, each holding `EMPTY`, `RED` (the machine's
  stone), `GREEN` (the person's) or both where a position entered says so
  (firmware_ref/places.py); at the pins it is 18 bits, place k in bits 2k (red) and
  2k + 1 (green): `board_bits` and `board_places`.
- `LINES`, the eight lines of three, and `line` and `full`, the judge of a board.
- `lit`: a blink, for a game whose core blinks. Such a core is built with ``blink``, the
  clocks of one blink, from the board's clock (hdl/cartridge.py's text); its golden
  model takes the same ``blink``, which a bench gives both.
"""

from dataclasses import dataclass

from .places import EMPTY, PLACES

__all__ = ["LINES", "Inputs", "Probe", "board_bits", "board_places", "line", "full", "lit"]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))


@dataclass(frozen=True)
class Inputs:
    """The cartridge's inputs in one clock, each at its value at power-up."""
    key: int = 0            # one bit per place, at most one
    start: int = 0
    position: int = 0       # a board's 18 bits (`board_bits`)
    switches: int = 0       # as hdl/cartridge.py's switch_init; a game sets its own
    rx_valid: int = 0       # bytes from the host
    rx_payload: int = 0
    tx_ready: int = 1       # the host takes the cartridge's text


@dataclass(frozen=True)
class Probe:
    """Every output of the cartridge after an edge. A bench compares them in this
    order and names the first that differs, so the board, what a person sees, comes
    first."""
    board: int              # 18 bits (`board_bits`)
    lamps: int
    ready: int
    busy: int
    over: int
    rx_ready: int
    tx_valid: int
    tx_payload: int


def board_bits(places):
    """`places` (nine) as the cartridge's 18-bit board: place k in bits 2k (red),
    2k + 1 (green)."""
    return sum(v << 2 * k for k, v in enumerate(places))


def board_places(bits):
    """The nine places of an 18-bit board (`board_bits` undone), a list."""
    return [bits >> 2 * k & 3 for k in range(PLACES)]


def line(places, colour):
    """Whether `colour` holds a whole line of `places` (a place entered with both
    colours counts for both, as the core's bits do)."""
    return any(all(places[k] & colour for k in three) for three in LINES)


def full(places):
    return EMPTY not in places


def lit(clock, blink):
    """Whether a blink of `blink` clocks is lit at `clock` clocks from power-up: in the
    second half of each blink, as the top bit of the core's counter. With `blink` None
    nothing blinks: a model that only walks games has no board to light."""
    return blink is not None and clock % blink >= blink // 2
