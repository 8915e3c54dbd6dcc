"""A watched chip's session as waves (sim/backends/watch.py): a VCD and its GTKWave view,
written a block of frames at a time as the history keeps or clocks them again, so a
session's waves never stand whole in memory."""

from fractions import Fraction

import numpy as np

from sim.backends.watch_clock import COLUMN, NAMES, pack, pin, share
from sim.backends.watch_history import BLOCK
from sim.chip.signals import INPUT_PINS, PERIOD_NS, WAVES

__all__ = ["write_waves"]

# The waves' names (sim.chip.signals.WAVES, and the rest of GROUPS the frames hold) for
# each frame name; i and sp are pins as well as registers.
_WAVE_NAMES = {name: (name,) for name in NAMES if name != "stack.top"}
_WAVE_NAMES |= {"move.i": ("i", "move.i"), "stack.sp": ("sp", "stack.sp"),
                "stack.stackregs": ("stack.stackregs",)}
_STACK = "stack.stackregs"
_NS = Fraction(1, 10**9)        # seconds in the file's time unit (its timescale, 1 ns)
# The signals in the order of the matrix below: the clock, the pins, then the frames'.
_PINS = ("cp", *INPUT_PINS, "scan", "scanin")
_SIGNALS = (*_PINS, *(n for names in _WAVE_NAMES.values() for n in names))
_SOURCES = [COLUMN[source] for source, names in _WAVE_NAMES.items() if source != _STACK
            for _ in names]
_FRAMES = len(_PINS)                        # the first frame signal's column
_STACK_AT = _SIGNALS.index(_STACK)
_FRAMES_AT_ONCE = 64            # frames whose changes are found in one go


def _matrix(at, values, stack, before, codes, last):
    """The signals' values at the falling and rising edge of each frame of a slice from
    row `at` of its block, (2 * frames, len(_SIGNALS)) int64; `last` is their values
    before it. A register keeps still before an edge, as do the frame's
    values where the pins did not change."""
    frames = len(values)
    out = np.empty((2 * frames, len(_SIGNALS)), np.int64)
    rising = out[1::2]
    rising[:, 0] = 1
    pins = np.asarray(codes, np.int64)
    for k, name in enumerate(INPUT_PINS, start=1):
        rising[:, k] = pin(pins, name)
    rising[:, _FRAMES - 2:_FRAMES] = 0
    frame_columns = [k for k in range(_FRAMES, len(_SIGNALS)) if k != _STACK_AT]
    rising[:, frame_columns] = values[:, _SOURCES]
    rising[:, _STACK_AT] = stack
    falling = out[0::2]
    falling[1:] = rising[:-1]
    falling[0] = last
    falling[:, :_FRAMES] = rising[:, :_FRAMES]
    falling[:, 0] = 0
    for row, shown in before.items():
        if at <= row < at + frames:
            falling[row - at, frame_columns] = shown[_SOURCES]
    return out


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
    half = PERIOD_NS // 2
    widths = dict(WAVES)
    for name in NAMES:
        widths.setdefault(name, watch.widths[name])
    masks = np.array([(1 << widths[name]) - 1 for name in _SIGNALS], np.int64)
    with cli.replacing(vcd) as file:
        writer = VCDWriter(file, timescale="1 ns", date="", check_values=False,
                           comment="the compiled chip (hdl/eth/chip.py) clocked on make "
                                   "serve's page; written by sim/backends/watch.py")
        variables = {}
        for name in _SIGNALS[_FRAMES:]:
            scope, _, leaf = f"{TOP}.{name}".rpartition(".")
            variables[name] = writer.register_var(scope, leaf, "wire", size=widths[name])
        for name in _PINS:
            variables[name] = writer.register_var(TOP, name, "wire", size=widths[name])
        handles = [variables[name] for name in _SIGNALS]
        zero = history.row(0)
        last = np.zeros(len(_SIGNALS), np.int64)
        pins = history.codes.view()[0] if history.head else pack(watch.pins)
        last[1:_FRAMES - 2] = [pin(int(pins), name) for name in INPUT_PINS]
        last[[k for k in range(_FRAMES, len(_SIGNALS)) if k != _STACK_AT]] = \
            zero.values[_SOURCES]
        last &= masks
        for k, value in enumerate(last.tolist()):
            writer.change(handles[k], 0, value)
        for index in range((history.head + BLOCK - 1) // BLOCK):
            block = history.block(index, keep=False)
            for at in range(0, block.length, _FRAMES_AT_ONCE):
                end = min(block.length, at + _FRAMES_AT_ONCE)
                first = block.first + at
                matrix = _matrix(first - block.first, block.values[at:end],
                                 block.stack[at:end], block.before,
                                 history.codes.view()[first - 1:first - 1 + end - at], last)
                matrix &= masks
                rows, columns = np.nonzero(matrix != np.vstack((last, matrix[:-1])))
                times = ((rows + 2 * first - 1) * half).tolist()
                for n, (time, k, value) in enumerate(zip(times, columns.tolist(),
                                                         matrix[rows, columns].tolist())):
                    writer.change(handles[k], time, value)
                    if n % 64 == 0:
                        share()
                last = matrix[-1]
                share()
        end = PERIOD_NS * history.head
        if last[0]:
            writer.change(handles[0], end + half, 0)
        writer.close(end + PERIOD_NS)
    if gtkw is not None:
        views.write_declared(vcd, {name: widths[name] for name in _SIGNALS}, scope=TOP,
                             unit=_NS, save_path=gtkw)
