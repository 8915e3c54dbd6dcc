"""The chip a watch clocks (sim/backends/watch.py): the compiled chip and its golden model
at one cycle, clocked a run of edges with the same pins at a time, and what a frame holds.

A `Clock` clocks such a run in two calls, each over at most `SLICE` edges: the golden
model first (firmware_ref.eth.batch's `Recorder`, one packed integer an edge), then the
compiled chip, its registers read after every edge in the same call (ctypes lets go of
Python's lock for it, so the server's other pages go on meanwhile). The two are compared
as arrays when a frame is shown. A clock is made at power-up, or at a `Checkpoint`: the
compiled chip clocked there again from power-up in one call, and the golden model rebuilt
from its registers (exactly, as a scan path would leave it).

The stack's 48 bits are wider than one read of the compiled chip can give, so the
registers are rebuilt from the stack's top entry (``stack.top``, six bits) after each
push: a register is written by a push only.

`share` is how a page's long work here gives the server's other threads their turn.
"""

import dataclasses
import functools
import itertools
import operator
import threading
import time

import numpy as np

from firmware_ref.eth.batch import PROBE_COLUMNS, Recorder
from firmware_ref.eth.batch import UNKNOWN as MODEL_UNKNOWN
from firmware_ref.eth.batch import columns as model_columns
from firmware_ref.eth.cycle import Inputs, State, UnresetChip

from sim.backends import compiled
from sim.chip.signals import INPUT_PINS, WAVES

__all__ = ["NAMES", "COLUMN", "SIGNED", "GOLDEN", "UNKNOWN", "SLICE", "WAITS", "Clock",
           "Checkpoint", "Chunk", "pack", "unpack", "pin", "share"]

# What a frame holds, by name below its block, as the HDL chip names it.
NAMES = (
    "controller.state", "controller.choose", "controller.toggleN", "controller.usei",
    "controller.nexti", "controller.init", "controller.call", "controller.pop",
    "controller.assignmove", "controller.remember", "controller.retbest",
    "controller.negr", "controller.sno", "controller.clearr",
    "board.board", "board.p", "board.wins", "board.full", "board.lasti",
    "board.nextfree", "board.validkey",
    "move.i", "move.m", "move.random", "move.index",
    "value.r", "value.bestr", "value.a", "value.rgea", "value.rgbestr",
    "stack.sp", "stack.ground", "stack.top",
    "keyboard.keyboard", "keyboard.keypressed", "keyboard.key",
    "led", "copyboard", "prompt", "fin", "win",
)
COLUMN = {name: k for k, name in enumerate(NAMES)}
SIGNED = {"value.r": 2, "value.bestr": 1}        # two's complement, by their widths
# What the golden model knows, by the frame's name: a column of its probe
# (firmware_ref.eth.batch.PROBE_COLUMNS) or one of its registers.
GOLDEN = {
    "controller.state": "state", "controller.choose": "choose",
    "controller.toggleN": "toggleN", "controller.usei": "usei",
    "controller.nexti": "nexti", "board.board": "led", "board.p": "p",
    "board.wins": "wins", "move.i": "i", "move.m": "m", "move.random": "random",
    "value.r": "r", "value.bestr": "bestr", "value.a": "a", "stack.sp": "sp",
    "led": "led", "copyboard": "copyboard", "prompt": "prompt", "fin": "fin", "win": "win",
}
UNKNOWN = np.iinfo(np.int32).min    # a golden value nobody knows ('u')

SLICE = 1024            # edges the compiled chip clocks in one call: some 7 ms
_REPLAY = 1 << 16       # edges a clock made at a checkpoint takes in one call (1 MB)
_FEW = 8                # edges whose golden values are read from the model's probe
SHARE_EVERY_S = 0.001   # the most Python a page's long work runs between two pauses
SHARE_S = 0.00002       # the pause: a thread waiting for Python's lock takes it then
_STACK_ENTRY = 6        # bits of a stack entry (i, a, bestr)
_STATE, _SP, _TOP = COLUMN["controller.state"], COLUMN["stack.sp"], COLUMN["stack.top"]
WAITS = (State.WAITING, State.FINISHED)     # where a run until the chip waits ends


# The input pins packed in one 16-bit code, in INPUT_PINS' order at their widths.
_SHIFTS = tuple(itertools.accumulate((WAVES[p] for p in INPUT_PINS[:-1]), initial=0))


def pack(pins):
    """The code of `pins` (an Inputs)."""
    return sum(getattr(pins, name) << shift for name, shift in zip(INPUT_PINS, _SHIFTS))


@functools.cache
def unpack(code):
    """The Inputs of `code` (one object a code: the golden model caches by identity)."""
    return Inputs(**{name: int(code) >> shift & (1 << WAVES[name]) - 1
                     for name, shift in zip(INPUT_PINS, _SHIFTS)})


def pin(codes, name):
    """Input pin `name`'s value in each of `codes` (or in one code)."""
    return codes >> _SHIFTS[INPUT_PINS.index(name)] & (1 << WAVES[name]) - 1


def _inputs(codes):
    """(1, edges, len(INPUT_PINS)) uint32, as the compiled chip's batch takes them."""
    codes = np.asarray(codes, np.uint32)
    return np.stack([pin(codes, name) for name in INPUT_PINS], axis=1)[None]


_shared = threading.local()     # when this thread last paused


def share():
    """Let the server's other threads have Python's lock. A page's long work (clocking
    the golden model, writing waves, growing a search's tree) calls this often, and
    pauses once SHARE_EVERY_S have gone since its last pause: a thread waiting for the
    lock (another page's, its board in a box's, the event loop) is woken as the lock
    is let go and takes it during the pause. Without it, such a thread waits for the
    interpreter's switch interval (5 ms) each time it needs the lock, and another
    page's key needs it dozens of times."""
    now = time.perf_counter()
    if now - getattr(_shared, "last", 0.0) >= SHARE_EVERY_S:
        time.sleep(SHARE_S)
        _shared.last = time.perf_counter()


def _signed(values):
    """The HDL's registers as the frame shows them: r and bestr in two's complement."""
    values = values.astype(np.int32)
    for name, bits in SIGNED.items():
        column = values[..., COLUMN[name]]
        column -= (column >> bits - 1 & 1) << bits
    return values


# -- the golden model ------------------------------------------------------------------

_PROBE = {name: k for k, name in enumerate(PROBE_COLUMNS)}
# Its registers besides the probe, read after every edge.
_REGISTERS = ("p", "m", "random", "a", "r", "bestr")
_READ = operator.attrgetter(*_REGISTERS)


def _registers(model):
    values = _READ(model)
    if None in values:
        return tuple(UNKNOWN if value is None else value for value in values)
    return values


def _probed(model):
    """The golden model's values as one row of GOLDEN, read from its probe."""
    probe = model.probe
    values = (getattr(probe if source in _PROBE else model, source)
              for source in GOLDEN.values())
    return [UNKNOWN if value is None else int(value) for value in values]


def _golden(rows, registers):
    """The golden model's values, (edges, len(GOLDEN)) int32 (UNKNOWN where the model
    does not know), from a Recorder's rows and its registers beside them."""
    _, probes = model_columns(np.array(rows, np.int64))
    registers = np.array(registers, np.int32).reshape(-1, len(_REGISTERS))
    out = np.empty((len(probes), len(GOLDEN)), np.int32)
    for k, source in enumerate(GOLDEN.values()):
        if source in _PROBE:
            column = probes[:, _PROBE[source]]
            out[:, k] = np.where(column == MODEL_UNKNOWN, UNKNOWN, column)
        else:
            out[:, k] = registers[:, _REGISTERS.index(source)]
    return out


@dataclasses.dataclass(frozen=True)
class Checkpoint:
    """What a clock at `cycle` holds besides its compiled chip (clocked again from
    power-up): the golden model's registers and pins (None: it stopped), the stack as
    rebuilt, its pointer, and the code of the last edge's pins (None: power-up)."""
    cycle: int
    registers: object
    pins: object
    stack: int
    sp: int
    code: int | None


@dataclasses.dataclass
class Chunk:
    """Frames a clock clocked with one code: their values (edges, len(NAMES)) int32,
    the stack (edges,) int64, the golden model's (edges, len(GOLDEN)) or None (it
    stopped), and what the outputs showed before the first edge (None: the pins had not
    changed)."""
    code: int
    values: np.ndarray
    stack: np.ndarray
    golden: object
    before: object


class Clock:
    """The compiled chip and its golden model at `cycle`: at power-up, or at
    `checkpoint` with the chip clocked there through `codes` (the pins of each edge)."""

    def __init__(self, random, checkpoint=None, codes=None):
        self.chips = compiled.chip(1, random=random)
        if checkpoint is None:
            self.model = Recorder(random=random)
            self.cycle, self.stack, self.code = 0, 0, None
            self.power_up = _signed(self._read())
            self.sp = int(self.power_up[_SP])
            return
        for first in range(0, checkpoint.cycle, _REPLAY):    # 1 MB of inputs a call
            part = codes[first:min(checkpoint.cycle, first + _REPLAY)]
            self.chips.run(_inputs(part), outputs=())
        self.model = None if checkpoint.registers is None else \
            Recorder.from_registers(checkpoint.registers, checkpoint.pins)
        self.cycle, self.stack = checkpoint.cycle, checkpoint.stack
        self.sp, self.code = checkpoint.sp, checkpoint.code

    def checkpoint(self):
        model = self.model
        return Checkpoint(self.cycle, None if model is None else model.registers(),
                          None if model is None else model.inputs, self.stack, self.sp,
                          self.code)

    def _read(self):
        return np.array([self.chips.get(0, name) for name in NAMES], np.uint32)

    def run(self, code, count, until=False):
        """Clock at most `count` edges (SLICE at most) with the pins of `code`; with
        `until`, stop after the first that leaves the chip waiting for a key (or
        finished). The Chunk of frames clocked."""
        pins = unpack(code)
        before = None
        if code != self.code:
            self.chips.set(0, **{name: getattr(pins, name) for name in INPUT_PINS})
            before = _signed(self._read())  # half a period before the edge: the waves
        golden = None
        if self.model is not None:
            golden, count = self._golden(pins, count, until)
        if golden is None and until:
            rows = self._until(code, count)
        elif count == 1:
            self.chips.step()
            rows = self._read()[None]
        else:
            rows = self.chips.run(_inputs(np.full(count, code)), outputs=NAMES)[0]
        share()
        values = _signed(rows)
        stack = self._stacks(values)
        self.cycle += len(values)
        self.code = code
        return Chunk(code, values, stack, golden, before)

    def _golden(self, pins, count, until):
        """The golden model's values at each of `count` edges (fewer with `until`); None
        and no edge if it stopped (the chip was clocked before a reset edge)."""
        model = self.model
        model.inputs = pins
        # A few edges are read from the model's probe: decoding its rows costs more.
        read = _probed if count <= _FEW else _registers
        registers = []
        try:
            for _ in range(count):
                model.tick()
                registers += read(model)       # ints: no object a frame for the GC
                if until and model.state in WAITS:
                    break
                share()
        except UnresetChip:
            self.model = None
            return None, count
        share()
        golden = np.array(registers, np.int32).reshape(-1, len(GOLDEN)) \
            if read is _probed else _golden(model.rows, registers)
        del model.rows[:]
        return golden, len(golden)

    def _until(self, code, count):
        """Edge by edge, the chip's own state read after each: the golden model cannot
        say when it waits."""
        rows = []
        one = _inputs([code])
        for _ in range(count):
            rows.append(self.chips.run(one, outputs=NAMES)[0, 0])
            if rows[-1][_STATE] in WAITS:
                break
            share()
        return np.array(rows, np.uint32)

    def _stacks(self, values):
        """The stack's registers after each frame, entry k at bits 6k, rebuilt from its
        top entry after each push."""
        sp, top = values[:, _SP], values[:, _TOP]
        pushed = np.flatnonzero(sp == np.concatenate(([self.sp], sp[:-1])) + 1)
        out = np.empty(len(values), np.int64)
        stack, last = self.stack, 0
        for edge in pushed.tolist():
            out[last:edge] = stack
            shift = _STACK_ENTRY * (int(sp[edge]) - 1)
            stack = stack & ~((1 << _STACK_ENTRY) - 1 << shift) | int(top[edge]) << shift
            last = edge
        out[last:] = stack
        self.stack, self.sp = stack, int(sp[-1]) if len(sp) else self.sp
        return out

    def close(self):
        self.chips = self.model = None
