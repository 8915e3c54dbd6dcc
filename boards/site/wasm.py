"""The desks and the chip compiled to WebAssembly, as the page's Worker holds them
(boards/web/static/worker.js, `js.ttt`), with the interfaces the console gives their
native builds: a desk as boards.box.box's `CompiledDesk` (for boards.box.stream), the
chip as the one-lane chip the insides clock (sim.watch.watch).

Runs only in Pyodide: `js` and `pyodide` are its modules.
"""

from array import array

import js
from pyodide.ffi import to_js

from boards.gateware.rates import BOX_BAUD, CLOCK_HZ
from sim.chip.signals import INPUT_PINS, RANDOM

__all__ = ["Desk", "Chip", "chip"]


class Desk:
    """Game `game`'s desk, its host's UART at the board in a box's rate."""

    def __init__(self, game):
        self._desk = js.ttt.desk(game, CLOCK_HZ / BOX_BAUD)

    def send(self, data):
        self._desk.send(to_js(bytes(data)))

    def run(self, cycles):
        return self._desk.run(cycles).to_bytes()

    @property
    def busy(self):
        return bool(self._desk.busy())

    @property
    def broken(self):
        return self._desk.broken()

    def close(self):
        if self._desk is not None:
            self._desk.close()
            self._desk = None


class Chip:
    """One compiled chip from power-up, its signals named as sim.backends.compiled's."""

    def __init__(self):
        self._chip = js.ttt.chip()
        self._index = {}

    def index(self, name):
        if name not in self._index:
            found = self._chip.signal(name.replace(".", " "))
            if found < 0:
                raise KeyError(f"the compiled chip has no signal {name!r}")
            self._index[name] = found
        return self._index[name]

    def set(self, lane, **pins):
        for name, value in pins.items():
            self._chip.set(self.index(name), int(value))

    def get(self, lane, name):
        return self._chip.get(self.index(name))

    def step(self, cycles=1):
        self._chip.step(cycles)

    def clocked(self, inputs, outputs):
        ins = to_js([self.index(name) for name in INPUT_PINS])
        outs = to_js([self.index(name) for name in outputs])
        got = array("I")
        got.frombytes(self._chip.clocked(to_js(array("I", inputs).tobytes()), ins,
                                         outs).to_bytes())
        return got

    def close(self):
        if self._chip is not None:
            self._chip.close()
            self._chip = None


def chip(random=0):
    """A compiled chip from power-up, its random counter at `random` (as
    sim.backends.compiled.chip makes one)."""
    made = Chip()
    if random:
        made.set(0, **{RANDOM: random})
    return made
