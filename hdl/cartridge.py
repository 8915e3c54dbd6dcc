"""The cartridge: what every game core offers the console (docs/cartridge.md).

The console (boards/gateware/desk.py) owns the panel, the keys, the switches, the host
link and position entry; a cartridge owns the game. Between them runs one signature,
``Signature``, from the cartridge's side:

- ``key`` (in, 9): a key press, one clock, at most one bit, place k = bit k in reading
  order (top left is 0). The console presses only while ``ready`` is high.
- ``ready`` (out): the cartridge takes a key now.
- ``busy`` (out): the cartridge is working on the last key; the console counts these
  clocks as its think time. A cartridge that takes a key raises ``busy`` (if it thinks
  at all) or lowers ``ready`` within ``SETTLE`` clocks, so the console knows when to
  look again.
- ``over`` (out): the game has ended; no key is taken until the next ``start``.
- ``start`` (in): one clock or more: begin a new game from ``position`` (a cartridge
  that cannot set up positions begins from the empty board). While ``start`` is high,
  ``board`` shows ``position`` (from the next clock), so the console's display needs
  no copy of its own.
- ``position`` (in), ``board`` (out): 3x3 boards of two-colour places (``PLACE``):
  ``red`` is the machine's colour, ``green`` the person's. The console holds
  ``position`` steady while ``start`` is high and for ``SETUP`` clocks after it falls;
  a cartridge reads it only then, so it keeps no copy.
- ``switches`` (in, ``SWITCHES``), ``lamps`` (out, ``LAMPS``): every cartridge gives
  lamp 0 "your move", lamp 1 "game over", lamp 2 "the machine won" and takes switch 0 as
  "the person begins", so the console's LEDs and the host's client mean the same on
  every game; the others are the cartridge's own (its ``lamp_names``, ``switch_names``).
- ``rx`` (in), ``tx`` (out): byte streams from and to the host, for what the panel
  cannot show. ``tx`` sends lines: bytes ending in ``\\n``, each line without pause.

A cartridge class also names itself for the console: ``code`` (one capital letter, sent
in the host link's status line), ``title``, ``machine`` (what the host calls it),
``lamp_names``, ``switch_names`` and ``switch_init``.

A cartridge knows no clock. One that blinks something on the board sets ``blinks`` and
is built with ``blink``, the clocks of one blink (lit in its second half), which the
console works out from its board's clock with `blink_clocks`, so that every game
blinks at `BLINK_S` on every board.
"""

import math

from amaranth.hdl import Module, Signal, unsigned
from amaranth.lib import data, stream, wiring
from amaranth.lib.wiring import In, Out


__all__ = ["PLACE", "BOARD", "LAMPS", "SWITCHES", "SETTLE", "SETUP", "BLINK_S",
           "blink_clocks", "Blink", "Signature", "Cartridge"]

PLACE = data.StructLayout({"red": 1, "green": 1})
BOARD = data.ArrayLayout(PLACE, 9)      # 18 bits: place k is bits 2k (red), 2k+1 (green)
LAMPS = 4
SWITCHES = 4
SETTLE = 3
SETUP = 16                              # clocks after start falls: position still holds
BLINK_S = 0.35                          # one blink, lit and dark: seconds


def blink_clocks(clock_hz):
    """The clocks of one blink at `clock_hz`: the power of two nearest `BLINK_S`, so
    that a counter's top bit blinks (2 ** 22 at the boards' 12 MHz)."""
    return 1 << round(math.log2(BLINK_S * clock_hz))


class Blink(wiring.Component):
    """A blink of `blink` clocks (a power of two, `blink_clocks`): a free-running
    counter, lit in the second half of each blink (its top bit), for a cartridge's
    display.

    Members
    -------
    lit : Out(1)
        The blinking place is lit now.
    """

    lit: Out(1)

    def __init__(self, blink):
        self.blink = blink
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        count = Signal(range(self.blink))
        m.d.sync += count.eq(count + 1)
        m.d.comb += self.lit.eq(count[-1])
        return m


class Signature(wiring.Signature):
    """The cartridge's side of the console (see the module's text)."""

    def __init__(self):
        super().__init__({
            "key": In(9),
            "ready": Out(1),
            "busy": Out(1),
            "over": Out(1),
            "start": In(1),
            "position": In(BOARD),
            "board": Out(BOARD),
            "switches": In(SWITCHES),
            "lamps": Out(LAMPS),
            "rx": In(stream.Signature(unsigned(8))),
            "tx": Out(stream.Signature(unsigned(8))),
        })


class Cartridge(wiring.Component):
    """Base of every game core that plugs into the console.

    Subclasses set ``code``, ``title``, ``lamp_names``, ``switch_names`` and
    ``switch_init``, and elaborate the game. The console builds a cartridge with no
    arguments, or only ``blink`` if it ``blinks`` (see the module's text).
    """

    code = None
    title = None
    lamp_names = ()
    switch_names = ()
    switch_init = 0         # the switches' positions at power-up, switch 0 in bit 0
    machine = "the machine"     # what the host calls it
    blinks = False              # it takes `blink`, the clocks of one blink

    def __init__(self, *, blink=None):
        if self.blinks and not (blink and blink >= 2 and not blink & blink - 1):
            raise ValueError(f"{type(self).__name__} blinks: build it with blink, the "
                             f"clocks of one blink, a power of two (blink_clocks)")
        self.blink = blink
        super().__init__(Signature())
