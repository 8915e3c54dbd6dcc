"""A watched chip's session as waves (sim/watch/watch.py): a VCD and its GTKWave view,
written a block of frames at a time as the history keeps or clocks them again, so a
session's waves never stand whole in memory.

A frame's values change only at its rising edge, and at its falling edge only where the
pins changed (what the outputs showed then): so each is compared once with the frame
before it, its row of NAMES as the history keeps it, and only what changed is written.
"""

import functools
import itertools
import operator
from array import array
from fractions import Fraction

from sim.chip.signals import INPUT_PINS, PERIOD_NS, WAVES
from sim.watch.clock import COLUMN, NAMES, SIGNED, WIDE, pack, pin, share
from sim.watch.history import BLOCK

__all__ = ["write_waves"]

# The waves' names (sim.chip.signals.WAVES, and the rest of GROUPS the frames hold) for
# each frame name, in the order of NAMES; i and sp are pins as well as registers. The
# stack's registers, which a frame keeps apart from its values, come last.
_STACK = "stack.stackregs"
_WAVE_NAMES = {name: (name,) for name in NAMES if name != "stack.top"}
_WAVE_NAMES |= {"move.i": ("i", "move.i"), "stack.sp": ("sp", "stack.sp")}
_NS = Fraction(1, 10**9)        # seconds in the file's time unit (its timescale, 1 ns)
# The signals: the clock, the pins, then the frames' (in the order of their columns).
_PINS = ("cp", *INPUT_PINS, "scan", "scanin")
_SIGNALS = (*_PINS, *(n for names in _WAVE_NAMES.values() for n in names), _STACK)
# Each column of a row of NAMES: the indices of its signals (stack.top's: none).
_SIGNALS_OF = [[_SIGNALS.index(wave) for wave in _WAVE_NAMES.get(name, ())]
               for name in NAMES]
_COLUMNS = range(WIDE)
_FRAMES_AT_ONCE = 64            # frames read from a block in one go


@functools.cache
def _pins(code):
    """The pins' values of `code`, in the order of _PINS after the clock (scan and
    scanin held low)."""
    return (*(pin(code, name) for name in INPUT_PINS), 0, 0)


def _masked(values):
    """`values` (a row of NAMES a frame) with the signed registers at their widths, as
    a VCD holds them."""
    values = values[:]
    for name, bits in SIGNED.items():
        column = COLUMN[name]
        values[column::WIDE] = array(values.typecode, [
            value & (1 << bits) - 1 for value in values[column::WIDE]])
    return values


class _Changes:
    """The signals as last written, and what writes the ones that change: at a
    frame's falling edge the clock and the pins (and the frame's values, where the
    outputs showed others before the edge), at its rising edge the clock, its values
    and the stack."""

    def __init__(self, writer, handles, code, row):
        self.change, self.handles = writer.change, handles
        # Each column of a row of NAMES: its signals' handles.
        self.column_handles = [[handles[k] for k in ks] for ks in _SIGNALS_OF]
        self.cp, self.pins, self.row, self.stack = 0, _pins(code), row, 0

    def falling(self, code, time):
        if self.cp:
            self.change(self.handles[0], time, 0)
            self.cp = 0
        pins = _pins(code)
        if pins != self.pins:
            for k in itertools.compress(range(len(pins)), map(operator.ne, pins, self.pins)):
                self.change(self.handles[1 + k], time, pins[k])
            self.pins = pins

    def rising(self, time):
        self.change(self.handles[0], time, 1)
        self.cp = 1

    def write_row(self, row, time, columns=_COLUMNS):
        """A frame's values (a masked row of NAMES), each of its signals; only
        `columns` can have changed."""
        change, handles, last = self.change, self.column_handles, self.row
        for column in columns:
            value = row[column]
            if value != last[column]:
                for handle in handles[column]:
                    change(handle, time, value)
        self.row = row

    def write_stack(self, stack, time):
        if stack != self.stack:
            self.change(self.handles[-1], time, stack)
            self.stack = stack


def write_waves(watch, vcd, gtkw=None):
    """The session so far (every frame clocked) as a VCD at `vcd`, timed as E.1 and
    named as the exported netlist (``ttt_chip.controller.state``), as the golden
    model's and the Amaranth chip's waves are, so that ``ttt compare`` pairs them; with
    `gtkw` its GTKWave view (sim.chip.view). Each edge n rises at 200n ns; its pins
    and what they show come half a period before it. Both files are written whole or
    not at all, a slice of frames at a time."""
    from vcd import VCDWriter

    from firmware_ref import cli
    from hdl.eth.export import TOP

    from sim.chip import view as views

    history = watch._history
    widths = dict(WAVES)
    for name in NAMES:
        widths.setdefault(name, watch.widths[name])
    with cli.replacing(vcd) as file:
        writer = VCDWriter(file, timescale="1 ns", date="", check_values=False,
                           comment="the compiled chip (hdl/eth/chip.py) clocked on make "
                                   "serve's page; written by sim/watch/watch.py")
        variables = {}
        for name in _SIGNALS[len(_PINS):]:
            scope, _, leaf = f"{TOP}.{name}".rpartition(".")
            variables[name] = writer.register_var(scope, leaf, "wire", size=widths[name])
        for name in _PINS:
            variables[name] = writer.register_var(TOP, name, "wire", size=widths[name])
        handles = [variables[name] for name in _SIGNALS]
        # Before the first edge: its pins, and the registers at power-up.
        code = history.codes[0] if history.head else pack(watch.pins)
        row = _masked(history.row(0).values)
        first = (0, *_pins(code), *(row[c] for c in _COLUMNS for _ in _SIGNALS_OF[c]), 0)
        for handle, value in zip(handles, first):
            writer.change(handle, 0, value)
        changes = _Changes(writer, handles, code, row)
        for index in range((history.head + BLOCK - 1) // BLOCK):
            block = history.block(index, keep=False)
            for at in range(0, block.length, _FRAMES_AT_ONCE):
                _slice(changes, history.codes, block, at)
                share()
        end = PERIOD_NS * history.head
        if changes.cp:
            writer.change(handles[0], end + PERIOD_NS // 2, 0)
        writer.close(end + PERIOD_NS)
    if gtkw is not None:
        views.write_declared(vcd, {name: widths[name] for name in _SIGNALS}, scope=TOP,
                             unit=_NS, save_path=gtkw)


def _slice(changes, codes, block, at):
    """Write the frames of `block` from its row `at` (_FRAMES_AT_ONCE at most): each
    edge n's pins, and what they show where they changed, half a period before it (its
    falling edge), and its registers at it (200n ns). A register keeps still before an
    edge, as do the frame's values where the pins did not change."""
    half = PERIOD_NS // 2
    end = min(block.length, at + _FRAMES_AT_ONCE)
    values = _masked(block.values[at * WIDE:end * WIDE])
    columns = _COLUMNS
    if not any(at <= row < end for row in block.before):
        # Only the columns that change in the slice are compared frame by frame.
        last, frames = changes.row, end - at
        columns = [c for c in _COLUMNS if values[c::WIDE].count(last[c]) != frames]
    for row, code in enumerate(codes[block.first + at - 1:block.first + end - 1]):
        falling = (2 * (block.first + at + row) - 1) * half
        changes.falling(code, falling)
        shown = block.before.get(at + row)
        if shown is not None:
            changes.write_row(_masked(shown), falling)
        changes.rising(falling + half)
        changes.write_row(values[row * WIDE:(row + 1) * WIDE], falling + half, columns)
        changes.write_stack(block.stack[at + row], falling + half)
