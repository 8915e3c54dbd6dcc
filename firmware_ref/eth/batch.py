"""The golden model in batch: every cycle of a session kept as one integer.

A `Recorder` is a `CycleModel` that writes down, after each edge, the inputs it saw and
its probe (the pins and E.2's internal nodes), packed into one 64-bit integer per cycle
in an ``array('q')``. Building no `Probe` objects makes it several times faster than
reading `CycleModel.probe` each cycle, so long sessions, and many of them (one per
process), can be recorded and then compared as arrays, for instance against a compiled
simulation of the chip (sim/backends/compiled.py). `columns` unpacks the rows with numpy
(imported when called: recording needs none), `value` one of a row without it.

    chip = Recorder()
    start(chip, userbegins=True)       # any protocol of firmware_ref.eth.cycle
    inputs, probes = columns(chip.rows)  # int32 arrays: INPUT_COLUMNS, PROBE_COLUMNS
"""

from array import array
from dataclasses import fields

from .cycle import CycleModel, Probe

__all__ = ["INPUT_COLUMNS", "PROBE_COLUMNS", "UNKNOWN", "Recorder", "record_session",
           "columns", "value"]

INPUT_COLUMNS = ("keyboardN", "userbegins", "piN", "resetN")
PROBE_COLUMNS = tuple(f.name for f in fields(Probe))
UNKNOWN = -1

# The packed row: (column, lowest bit, width). A column that can be unknown has a
# flag bit above its value.
_LAYOUT = (
    ("state", 0, 3), ("wins", 3, 1), ("choose", 4, 3), ("toggleN", 7, 2),
    ("usei", 9, 1), ("nexti", 10, 1), ("fin", 11, 1), ("win", 12, 1),
    ("prompt", 13, 1), ("copyboard", 14, 1), ("sp", 15, 3), ("i", 18, 5),
    ("led", 23, 18),
    ("keyboardN", 41, 9), ("userbegins", 50, 1), ("piN", 51, 1), ("resetN", 52, 1),
)
_AT = {name: lsb for name, lsb, _ in _LAYOUT}
_MAYBE = {"choose": 2, "toggleN": 1, "i": 4}        # width of the value under the flag
_WIDTH = {name: _MAYBE.get(name, width) for name, _, width in _LAYOUT}  # of the value


def _field(name, value):
    if value is None:
        return 1 << _AT[name] + _MAYBE[name]
    return int(value) << _AT[name]


def _controls(plan):
    """A plan's columns, packed."""
    return (_field("choose", plan.choose) |
            _field("toggleN", None if plan.toggle is None else not plan.toggle) |
            _field("usei", plan.usei) | _field("nexti", plan.nexti) |
            _field("fin", plan.fin) | _field("win", plan.win) |
            _field("prompt", plan.prompt) | _field("copyboard", plan.copyboard))


def _inputs(inputs):
    return (_field("keyboardN", inputs.keyboardN) | _field("userbegins", inputs.userbegins) |
            _field("piN", inputs.piN) | _field("resetN", inputs.resetN))


_NO_I = _field("i", None)
_SP, _I, _LED, _WINS = _AT["sp"], _AT["i"], _AT["led"], _AT["wins"]


class Recorder(CycleModel):
    """A CycleModel that records every cycle (see the module's docstring)."""

    def _load(self, regs, inputs):
        super()._load(regs, inputs)
        self.rows = array("q")
        # Caches by identity: plans are module constants, and an Inputs lives as long
        # as the pins stay the same. The model never changes either.
        self._plans, self._pins = {}, {}
        self._wins_of = {}          # board << 1 | p -> the wins bit; games revisit boards

    def tick(self):
        super().tick()
        inputs, plan = self.inputs, self._plan
        if callable(plan):
            plan = plan(inputs)
        controls = self._plans.get(id(plan))
        if controls is None:
            controls = self._plans[id(plan)] = _controls(plan)
        pins = self._pins.get(id(inputs))
        if pins is None:
            self._pins.clear()      # keep the Inputs alive while its id is a key
            pins = self._pins[id(inputs)] = _inputs(inputs), inputs
        board, i = self.board, self.i
        wins = self._wins_of.get(board << 1 | self.p)
        if wins is None:
            wins = self._wins_of[board << 1 | self.p] = int(self._wins(self.p)) << _WINS
        self.rows.append(self._state | wins | controls | self.sp << _SP |
                         (_NO_I if i is None else i << _I) | board << _LED | pins[0])


def record_session(session, *, random=0):
    """Run `session` (an Inputs per edge) from power-up; return the Recorder."""
    chip = Recorder(random=random)
    for inputs in session:
        chip.inputs = inputs
        chip.tick()
    return chip


def columns(rows):
    """The packed rows as two int32 arrays, (cycles, 4) inputs by INPUT_COLUMNS and
    (cycles, 13) probes by PROBE_COLUMNS, UNKNOWN where the model does not know."""
    import numpy as np      # here: the golden model runs where numpy is not (a browser)

    rows = np.frombuffer(rows, dtype=np.int64) if not isinstance(rows, np.ndarray) else rows

    def column(name):
        lsb, width = _AT[name], _WIDTH[name]
        values = (rows >> lsb & (1 << width) - 1).astype(np.int32)
        if name in _MAYBE:
            values[(rows >> lsb + width & 1).astype(bool)] = UNKNOWN
        return values
    return (np.stack([column(n) for n in INPUT_COLUMNS], axis=1),
            np.stack([column(n) for n in PROBE_COLUMNS], axis=1))


def value(row, name, unknown=UNKNOWN):
    """Column `name` (of INPUT_COLUMNS or PROBE_COLUMNS) of one packed row, `unknown`
    where the model does not know: `columns` of one row, without numpy."""
    lsb, width = _AT[name], _WIDTH[name]
    if name in _MAYBE and row >> lsb + width & 1:
        return unknown
    return row >> lsb & (1 << width) - 1
