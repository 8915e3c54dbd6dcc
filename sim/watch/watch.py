"""Watching the chip think: the compiled chip and its golden model, one edge at a time,
with the session's history, for the web page's view of the chip's insides.

A `Watch` holds the chip's input pins as a person sets them, clocks the compiled chip
(the one its `chip` factory makes: sim/watch/clock.py says what it offers) and
the golden model (firmware_ref/eth/cycle.py) together, and has after every edge a
`frame`: every register and control the view shows, read from the HDL chip by the
paper's names (below the block, as sim.chip.signals.GROUPS has them), and where the
golden model disagrees, the difference. A difference is recorded and
shown, never raised: the page must show it, not stop.

History: every frame can be shown again (sim/watch/history.py keeps the pins of
every edge and the frames of a few blocks, and clocks again what it let go), so `back`,
`forward` and `jump` only move the frame shown. Stepping from a frame in the past with
the pins as they were there replays the history; with other pins (a key pressed while
looking at the past) the session branches there: the later frames are dropped, and the
chip is brought to that frame, so it always holds the state of the last frame.

Bounds: a call clocks at most `LIMIT` edges, and a session holds at most `CYCLES`; a
session that is full clocks no more (`Full`) until New chip.
"""

import dataclasses
from collections.abc import Sequence

from firmware_ref.eth.cycle import NO_KEY, Inputs, State

from sim.chip.signals import GROUPS, INPUT_PINS
from sim.watch.clock import (COLUMN, GOLDEN, NAMES, UNKNOWN, WAITS, WIDE, compiled_chip,
                             pack, share, unpack)
from sim.watch.history import BLOCK, CYCLES, History, marks_of
from sim.watch.waves import write_waves

__all__ = ["Watch", "Full", "NAMES", "CONTROLLER_READS", "LIMIT", "CYCLES", "BLOCK",
           "WORST", "worst_search", "compiled_chip", "share", "write_waves"]

# The controller's inputs, which its next edge reads (appendix C's conditions).
CONTROLLER_READS = ("keyboard.keypressed", "board.validkey", "board.full", "board.wins",
                    "stack.ground", "board.lasti", "value.rgea", "value.rgbestr")
STRIP = 24                      # the cycles the page's strip of waves shows
# The pins' names in GROUPS that the frames hold under a block's name.
_STRIP_NAMES = {"i": "move.i", "sp": "stack.sp"}
LIMIT = 20_000                  # edges one call may clock: a search takes at most 15,007
WORST = 7                       # B3 from the empty board: that search, the chip's slowest
_UNRESET = ("the golden model stopped: the chip was clocked before a reset edge, so "
            "nobody knows its registers, and the values here are not checked; New chip "
            "starts both again")


class Full(ValueError):
    """The session holds CYCLES cycles: it clocks no more."""


class _Read(Sequence):
    """A sequence read when asked: `length()` items, item n `item(n)` (the history keeps
    arrays, not an object a frame)."""

    def __init__(self, length, item):
        self._length, self._item = length, item

    def __len__(self):
        return self._length()

    def __getitem__(self, n):
        if isinstance(n, slice):
            return [self[k] for k in range(*n.indices(len(self)))]
        if n < 0:
            n += len(self)
        if not 0 <= n < len(self):
            raise IndexError(n)
        return self._item(n)


class Watch:
    """The chip `chip(random=random)` makes (None: compiled_chip, sim/backends/
    compiled.py's) and its golden model from power-up, the pins held as a person sets
    them (the reset pin low at first: the chip needs a reset edge), and the frames."""

    def __init__(self, *, random=0, chip=None):
        self.random = random
        self.pins = Inputs(resetN=0)
        self._history = History(random, chip or compiled_chip)
        self.cursor = 0         # the frame shown
        self.branches = 0       # how often the history was cut: what was built on it goes

    def close(self):
        self._history.close()

    # -- what a person does ---------------------------------------------------------

    @property
    def head(self):
        """The last frame clocked: the chip's own cycle."""
        return self._history.head

    @property
    def frames(self):
        """Every frame, 0 to the head, each a dict made when asked."""
        return _Read(lambda: self.head + 1, self.frame_at)

    @property
    def applied(self):
        """The pins before edge n + 1, for every edge clocked (Inputs)."""
        history = self._history
        return _Read(lambda: history.head, lambda n: unpack(history.codes[n]))

    @property
    def marks(self):
        """Frames 0 to the head as sim/chip/tree.py reads them: the registers of MARKS."""
        history = self._history
        return _Read(lambda: history.head + 1, lambda n: marks_of(history.marks[n]))

    def states(self):
        """The chip's state at every frame, 0 to the head: bytes, one a frame."""
        return self._history.states()

    def kept_bytes(self):
        """The bytes its history keeps (sim/watch/history.py)."""
        return self._history.nbytes()

    @property
    def widths(self):
        """The bits of each of NAMES and INPUT_PINS."""
        return self._history.widths

    def set(self, **pins):
        """Drive input pins (INPUT_PINS' names); they take effect at the next edge."""
        unknown = set(pins) - set(INPUT_PINS)
        if unknown:
            raise ValueError(f"no input pin {', '.join(sorted(unknown))}")
        self.pins = dataclasses.replace(self.pins, **{k: int(v) for k, v in pins.items()})

    def press(self, place):
        """Hold the key of `place` (0..8) down, alone; None lets every key go."""
        self.set(keyboardN=NO_KEY if place is None else NO_KEY & ~(1 << place))

    def step(self, edges=1):
        """Clock `edges` edges (LIMIT at most) from the frame shown; the frame shown is
        then the last. Forward through the history while its pins are the ones held."""
        edges = min(edges, LIMIT)
        edges -= self._replayed(edges)
        if edges:
            self._clock(edges)
        return self.frame

    def run_until_waiting(self, limit=LIMIT):
        """Clock until the chip waits for a key (or has finished), at least one edge,
        at most `limit` (LIMIT at most). Returns the edges clocked. The golden model runs
        ahead of the compiled chip to find where that is, a slice at a time."""
        limit = min(limit, LIMIT)
        start = self.cursor
        if self.cursor < self.head and self._follows():
            states = self.states()
            waits = [at - self.cursor for at in (states.find(wait, self.cursor + 1)
                                                 for wait in WAITS) if at >= 0]
            ahead = min(limit, min(waits, default=self.head - self.cursor))
            self._replayed(ahead)
            if waits and ahead == min(waits) or ahead == limit:
                return ahead
        return self.cursor - start + self._clock(limit - (self.cursor - start), until=True)

    def back(self, edges=1):
        self.jump(self.cursor - edges)

    def forward(self, edges=1):
        self.jump(self.cursor + edges)

    def jump(self, cycle):
        """Show frame `cycle`: one clocked already, or clocked up to it now (LIMIT
        edges at most)."""
        cycle = max(0, int(cycle))
        if cycle > self.head:
            self.cursor = self.head
            self.step(min(cycle - self.head, LIMIT))
        else:
            self.cursor = cycle
        if self.cursor < self.head:
            self.pins = self.applied[self.cursor]   # so that step replays the history
        return self.frame

    @property
    def frame(self):
        return self.frame_at(self.cursor)

    # -- the clock ------------------------------------------------------------------

    def _follows(self):
        return pack(self.pins) == self._history.codes[self.cursor]

    def _replayed(self, edges):
        """Go forward through the history, at most `edges`, while the pins held are the
        ones it was clocked with; the edges gone."""
        if self.cursor >= self.head or not self._follows():
            return 0
        gone = min(edges, self.head - self.cursor)
        self.cursor += gone
        self.pins = self.applied[min(self.cursor, self.head - 1)]
        return gone

    def _clock(self, edges, until=False):
        """Clock at the frame shown, the history after it dropped (a branch)."""
        history = self._history
        if self.cursor < self.head:
            self.branches += 1
            history.cut(self.cursor)
        if history.head >= CYCLES:
            raise Full(f"the session holds {CYCLES:,} cycles, its most; New chip starts "
                       f"another")
        clocked = history.clock_edges(pack(self.pins), edges, until)
        self.cursor = history.head
        return clocked

    # -- the frames -----------------------------------------------------------------

    def frame_at(self, n):
        """Frame `n` as a dict: its cycle, state, values by name (the stack's registers
        as a list), differences from the golden model, why it is not checked, the pins
        of its edge, and what the outputs showed half a period before (None: as the
        last frame)."""
        history = self._history
        row = history.row(n)
        values = dict(zip(NAMES, row.values.tolist()))
        values["stack.stackregs"] = [row.stack >> 6 * k & 63 for k in range(8)]
        differences = {}
        if row.golden is not None:
            for name, expected in zip(GOLDEN, row.golden):
                if expected != UNKNOWN and values[name] != expected:
                    differences[name] = {"hdl": values[name], "golden": expected}
        stopped = history.stopped is not None and n >= history.stopped
        return {
            "cycle": n, "state": State(values["controller.state"]),
            "values": values, "differences": differences,
            "stopped": _UNRESET if stopped else None,
            "pins": self.applied[n - 1] if n else None,
            "before": None if row.before is None else dict(zip(NAMES, row.before.tolist())),
        }

    def changed(self, cycle):
        """The names whose values changed on the edge into frame `cycle`."""
        if cycle == 0:
            return []
        before, after = self.frame_at(cycle - 1)["values"], self.frame_at(cycle)["values"]
        return [name for name, value in after.items() if before[name] != value]

    def strip(self, cycles=STRIP):
        """The waves of the last `cycles` frames up to the one shown, as the GTKWave
        view groups them (sim.chip.signals.GROUPS, the pins first, the clock implied by
        the cycles): {"first": its first cycle, "groups": [[group, [name, ...]], ...],
        "values": {name: [value per cycle]}, "widths": {name: bits}}. The stack's
        registers are left out."""
        first = max(0, self.cursor - cycles + 1)
        rows = self._history.values(first, self.cursor)
        # The pins each edge was clocked with; at power-up, those held.
        pins = [self.pins] * (first == 0) + self.applied[max(first, 1) - 1:self.cursor]
        groups, values = [], {}
        for group, members in GROUPS.items():
            names = []
            for member in members:
                name = _STRIP_NAMES.get(member, member) if group == "pins" else \
                    f"{group}.{member}"
                if name in INPUT_PINS:          # the pins each edge was clocked with
                    names.append(name)
                    values[name] = [getattr(p, name) for p in pins]
                elif name in COLUMN and name not in values:
                    names.append(name)
                    values[name] = rows[COLUMN[name]::WIDE].tolist()
            if names:
                groups.append([group, names])
        widths = {name: self.widths[name] for name in values}
        return {"first": first, "groups": groups, "values": values, "widths": widths}

    def view(self):
        """The frame shown as the page's message takes it: values by name, what changed
        on the edge into it, the transition the controller took and what it read."""
        frame = self.frame
        before = self.frame_at(self.cursor - 1) if self.cursor else None
        return {
            "cycle": self.cursor, "head": self.head,
            "state": frame["state"].name.lower(),
            "transition": None if before is None else
                [before["state"].name.lower(), frame["state"].name.lower()],
            "read": None if before is None else
                {name: before["values"][name] for name in CONTROLLER_READS},
            "values": frame["values"], "changed": [] if before is None else
                [n for n, v in frame["values"].items() if before["values"][n] != v],
            "differences": frame["differences"], "stopped": frame["stopped"],
            "pins": dataclasses.asdict(self.pins),
            "strip": self.strip(),
        }


def worst_search(watch):
    """Reset `watch`'s chip, hold WORST for the user's first move and let go, then run
    until the chip waits again: its longest search clocked whole."""
    watch.step()
    watch.set(resetN=1)
    watch.press(WORST)
    watch.step(2)
    watch.press(None)
    watch.run_until_waiting()
