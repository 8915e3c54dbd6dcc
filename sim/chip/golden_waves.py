"""The golden model's waves: a VCD of the chip's signals, named as the netlist names them.

`GoldenWaves` wraps a `CycleModel` in the interface protocols use (`set`, `tick`,
`probe`, `state`, `board`; so `firmware_ref.eth.pins.clocked` runs them) and writes
every pin, the internal nodes E.2 prints and every register to a VCD while it runs.
The hierarchy is the exported netlist's (hdl.eth.export): pins under ``ttt_chip``, the
rest under the block that holds it (``ttt_chip.controller.state``, ``ttt_chip.value.r``,
...), so the file opens beside the netlist's waves and `sim.waves.compare` pairs the signals
by name.

Timing is E.1's: a rising edge of ``cp`` every 200 ns from 200 ns on, the inputs
applied at the falling edge before it. A value the model does not know (E.2's 'u') is
written as x, bit by bit for the stack.
"""

from vcd import VCDWriter

from firmware_ref import cli
from firmware_ref.eth.cycle import CycleModel
from hdl.eth import scan
from hdl.eth.export import TOP

from sim.chip.signals import INPUT_PINS, PERIOD_NS, PROBE_PATHS, WAVES

__all__ = ["GoldenWaves", "write_session"]

HALF_PERIOD = PERIOD_NS // 2


def _bits(value, width):
    """`value` as the VCD writes it: an integer (two's complement), or x if unknown."""
    if value is None:
        return "x" * width if width > 1 else "x"
    return value & ((1 << width) - 1)


def _stack(entries):
    """The 48-bit stackregs: entry k in bits 6k..6k+5, as hdl.eth.scan packs it."""
    fields = ["x" * 6 if entry is None else format(scan.pack_entry(*entry), "06b")
              for entry in entries]
    return "".join(reversed(fields))     # entry 0 is the low end: it goes on the right


class GoldenWaves:
    """A golden `model` that writes its waves to `file` (a text file) as it runs."""

    def __init__(self, file, model=None):
        self.model = model or CycleModel()
        self._writer = VCDWriter(file, timescale="1 ns", date="",
                                 comment="golden model (firmware_ref/eth/cycle.py), "
                                         "written by sim/chip/golden_waves.py")
        self._vars = {}
        for path, width in WAVES.items():
            scope, _, name = f"{TOP}.{path}".rpartition(".")
            self._vars[path] = self._writer.register_var(scope, name, "wire", size=width)
        self._last = {}
        self._edge = 0          # time of the last rising edge, in ns
        self._cp = 0
        self._dump(0)

    # -- what protocols use --------------------------------------------------------

    def set(self, inputs=None, **pins):
        self.model.set(inputs, **pins)
        self._falling()
        self._dump(self._edge + HALF_PERIOD)

    def tick(self):
        self._falling()
        self._edge += 2 * HALF_PERIOD
        self._cp = 1
        self.model.tick()
        self._dump(self._edge)

    @property
    def probe(self):
        return self.model.probe

    @property
    def state(self):
        return self.model.state

    @property
    def board(self):
        return self.model.board

    def close(self):
        self._falling()
        self._writer.close(self._edge + 2 * HALF_PERIOD)

    # -- the file -------------------------------------------------------------------------

    def _falling(self):
        if self._cp:
            self._cp = 0
            self._change("cp", self._edge + HALF_PERIOD, 0)

    def _dump(self, time):
        for path, value in self._values().items():
            self._change(path, time, value)

    def _change(self, path, time, value):
        value = _bits(value, WAVES[path]) if not isinstance(value, str) else value
        if self._last.get(path) != value:
            self._last[path] = value
            self._writer.change(self._vars[path], time, value)

    def _values(self):
        inputs, probe, regs = self.model.inputs, self.model.probe, self.model.registers()
        values = {"cp": self._cp, "scan": 0, "scanin": 0}
        values |= {pin: getattr(inputs, pin) for pin in INPUT_PINS}
        values |= {path: getattr(probe, name) for name, path in PROBE_PATHS.items()}
        values["controller.state"] = int(probe.state)
        values["controller.choose"] = None if probe.choose is None else int(probe.choose)
        values |= {"board.board": regs.board, "board.p": regs.p, "move.m": regs.m,
                   "move.random": regs.random, "value.r": regs.r, "value.bestr": regs.bestr,
                   "value.a": regs.a, "stack.sp": regs.sp,
                   "stack.stackregs": _stack(regs.stack), "keyboard.keyboard": regs.key}
        return values


def write_session(path, session, *, random=0):
    """Run `session` (Inputs per edge, as e2.SESSION) on a fresh golden model whose
    counter powers up as `random`, writing its waves to `path`, whole or not at all."""
    with cli.replacing(path) as file:
        waves = GoldenWaves(file, CycleModel(random=random))
        for inputs in session:
            waves.set(inputs)
            waves.tick()
        waves.close()
