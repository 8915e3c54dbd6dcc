"""The chip a watch clocks (sim/watch/watch.py): the compiled chip and its golden model
at one cycle, clocked a run of edges with the same pins at a time, and what a frame holds.

A `Clock` clocks such a run in two calls, each over at most `SLICE` edges: the golden
model first (firmware_ref.eth.batch's `Recorder`, one packed integer an edge), then the
compiled chip, its registers read after every edge in the same call (ctypes lets go of
Python's lock for it, so the server's other pages go on meanwhile). The two are compared
when a frame is shown. A clock is made at power-up, or at a `Checkpoint`: the compiled
chip clocked there again from power-up in one call, and the golden model rebuilt from
its registers (exactly, as a scan path would leave it).

The compiled chip is made by the factory a watch is given, `chip(random=...)`: one lane
from power-up, its random counter at `random`, with only ``set(lane, **pins)``,
``get(lane, name)``, ``step(cycles=1)`` and ``clocked(inputs, outputs)`` (a flat
array('I') of a row of INPUT_PINS an edge in, a flat array('I') of a row of `outputs`
after each edge out: sim.backends.compiled's `Lanes`). Under `make serve` that is
sim/backends/compiled.py's `chip` (`compiled_chip`, imported only when called); in a
browser, the same compiled_chip.cc compiled to WebAssembly. Everything here is the
standard library's (`array`, ints): no numpy, no ctypes.

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
from array import array

from firmware_ref.eth.batch import PROBE_COLUMNS, Recorder
from firmware_ref.eth.batch import value as model_value
from firmware_ref.eth.cycle import Inputs, State, UnresetChip

from sim.backends import BackendMissing
from sim.chip.signals import INPUT_PINS, WAVES

__all__ = ["NAMES", "COLUMN", "SIGNED", "GOLDEN", "REGISTERS", "UNKNOWN", "SLICE", "WAITS",
           "Clock", "Checkpoint", "Chunk", "compiled_chip", "widths", "golden_row", "pack",
           "unpack", "pin", "share"]

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
# A golden value nobody knows ('u'): the least int32, which no register holds.
UNKNOWN = -(1 << 31)
# The golden model's registers besides its probe, read after every edge: with its
# packed row (firmware_ref.eth.batch), all GOLDEN holds of it.
REGISTERS = ("p", "m", "random", "a", "r", "bestr")
# Frames' values are a flat array('i'), a row of NAMES a frame.
WIDE = len(NAMES)

SLICE = 1024            # edges the compiled chip clocks in one call: some 7 ms
_REPLAY = 1 << 16       # edges a clock made at a checkpoint takes in one call (1 MB)
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


def pin(code, name):
    """Input pin `name`'s value in `code`."""
    return code >> _SHIFTS[INPUT_PINS.index(name)] & (1 << WAVES[name]) - 1


@functools.cache
def _row(code):
    """The pins of `code` as one edge's row of the chip's `clocked` (array('I'))."""
    return array("I", [pin(code, name) for name in INPUT_PINS])


def _inputs(codes):
    """The rows of each of `codes` (the pins of an edge each), as `clocked` takes them:
    a run of one code is one row repeated."""
    rows = array("I")
    for code, run in itertools.groupby(codes):
        rows += _row(code) * sum(1 for _ in run)
    return rows


def compiled_chip(*, random=0):
    """A watch's chip unless it is given another: one lane of sim/backends/compiled.py's,
    imported here (it needs ctypes and numpy, which a browser's watch has not: there it
    is BackendMissing, said in one line)."""
    try:
        from sim.backends import compiled
    except ImportError as missing:
        raise BackendMissing(f"the compiled chip needs {missing.name}, which this Python "
                             f"has not") from None
    return compiled.chip(1, random=random)


@functools.cache
def widths():
    """The bits of each of NAMES and INPUT_PINS, as hdl/eth/chip.py declares them (the
    chip a watch is given says only values)."""
    from amaranth.hdl import Fragment, Value

    from hdl.eth.chip import Chip
    chip = Chip()
    Fragment.get(chip, None)    # elaborated (some 35 ms), so Amaranth does not warn it unused
    return {name: Value.cast(functools.reduce(getattr, name.split("."), chip)).shape().width
            for name in (*NAMES, *INPUT_PINS)}


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


def _signed(rows):
    """The HDL's registers (`clocked`'s or `get`'s array('I'), a row of NAMES an edge)
    as the frames show them (array('i')): r and bestr in two's complement."""
    values = array("i")
    values.frombytes(memoryview(rows).cast("B"))   # no register reaches bit 31
    for name, bits in SIGNED.items():
        sign, whole = 1 << bits - 1, 1 << bits
        column = COLUMN[name]
        values[column::WIDE] = array("i", [value - whole if value & sign else value
                                           for value in values[column::WIDE]])
    return values


# -- the golden model ------------------------------------------------------------------

_READ = operator.attrgetter(*REGISTERS)
# Where each of GOLDEN is: a column of the packed row (a str), or of REGISTERS (an int).
_SOURCES = [source if source in PROBE_COLUMNS else REGISTERS.index(source)
            for source in GOLDEN.values()]


def _registers(model):
    values = _READ(model)
    if None in values:
        return tuple(UNKNOWN if value is None else value for value in values)
    return values


def golden_row(packed, registers):
    """One frame's golden values, by GOLDEN (UNKNOWN where the model does not know),
    from the model's packed row and its REGISTERS then: decoded only when a frame is
    shown, not as it is clocked."""
    return [registers[source] if isinstance(source, int) else
            model_value(packed, source, UNKNOWN) for source in _SOURCES]


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
    """Frames a clock clocked with one code: their values (array('i'), a row of NAMES
    a frame), the stack (array('q'), one a frame), the golden model's (its packed rows,
    array('q'), and its registers, array('i') of a row of REGISTERS a frame) or None (it
    stopped), and what the outputs showed before the first edge (a row of NAMES; None:
    the pins had not changed)."""
    code: int
    values: array
    stack: array
    golden: object
    before: object

    @property
    def edges(self):
        return len(self.stack)


class Clock:
    """The chip `chip(random=random)` makes and its golden model at `cycle`: at
    power-up, or at `checkpoint` with the chip clocked there through `codes` (the pins
    of each edge)."""

    def __init__(self, chip, random, checkpoint=None, codes=None):
        self.chips = chip(random=random)
        if checkpoint is None:
            self.model = Recorder(random=random)
            self.cycle, self.stack, self.code = 0, 0, None
            self.power_up = _signed(self._read())
            self.sp = self.power_up[_SP]
            return
        for first in range(0, checkpoint.cycle, _REPLAY):    # 1 MB of inputs a call
            part = codes[first:min(checkpoint.cycle, first + _REPLAY)]
            self.chips.clocked(_inputs(part), ())
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
        return array("I", [self.chips.get(0, name) for name in NAMES])

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
        else:
            rows = self.chips.clocked(_row(code) * count, NAMES)
        share()
        values = _signed(rows)
        stack = self._stacks(values)
        self.cycle += len(stack)
        self.code = code
        return Chunk(code, values, stack, golden, before)

    def _golden(self, pins, count, until):
        """The golden model's packed rows and registers at each of `count` edges (fewer
        with `until`); None and no edge if it stopped (the chip was clocked before a
        reset edge)."""
        model = self.model
        model.inputs = pins
        registers = []
        try:
            for _ in range(count):
                model.tick()
                registers += _registers(model)      # ints: no object a frame for the GC
                if until and model.state in WAITS:
                    break
                share()
        except UnresetChip:
            self.model = None
            return None, count
        share()
        rows = model.rows[:]
        del model.rows[:]
        return (rows, array("i", registers)), len(rows)

    def _until(self, code, count):
        """Edge by edge, the chip's own state read after each: the golden model cannot
        say when it waits."""
        rows = array("I")
        one = _row(code)
        for _ in range(count):
            rows += self.chips.clocked(one, NAMES)
            if rows[_STATE - WIDE] in WAITS:
                break
            share()
        return rows

    def _stacks(self, values):
        """The stack's registers after each frame (array('q')), entry k at bits 6k,
        rebuilt from its top entry after each push."""
        sp, top = values[_SP::WIDE], values[_TOP::WIDE]
        out = array("q")
        stack, last, previous = self.stack, 0, self.sp
        for edge, now in enumerate(sp):
            if now == previous + 1:
                out += array("q", [stack]) * (edge - last)
                shift = _STACK_ENTRY * (now - 1)
                stack = stack & ~((1 << _STACK_ENTRY) - 1 << shift) | top[edge] << shift
                last = edge
            previous = now
        out += array("q", [stack]) * (len(sp) - last)
        self.stack, self.sp = stack, previous
        return out

    def close(self):
        self.chips = self.model = None
