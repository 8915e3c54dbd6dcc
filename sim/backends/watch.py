"""Watching the chip think: the compiled chip and its golden model, one edge at a time,
with the session's history, for the web page's view of the chip's insides.

A `Watch` holds the chip's input pins as a person sets them, clocks the compiled chip
(sim/backends/compiled.py) and the golden model (firmware_ref/eth/cycle.py) together, and
keeps after every edge a `frame`: every register and control the view shows, read from
the HDL chip by the paper's names (below the block, as sim.chip.signals.GROUPS has them),
and where the golden model disagrees, the difference. A difference is recorded and
shown, never raised: the page must show it, not stop.

History: every frame and the pins before every edge are kept, so `back`, `forward` and
`jump` only move the frame shown. Stepping from a frame in the past with the pins as
they were there replays the history; with other pins (a key pressed while looking at
the past) the session branches there: the later frames are dropped, and a fresh chip
and model are clocked through the recorded pins up to that frame, so the chip always
holds the state of the last frame.

The stack's 48 bits are wider than one read of the compiled chip can give, so the view
rebuilds the registers from the stack's top entry (``stack.top``, six bits) after each
push: a register is written by a push only.
"""

import dataclasses

import numpy as np

from firmware_ref.eth.cycle import NO_KEY, CycleModel, Inputs, State, UnresetChip

from sim.backends import compiled
from sim.chip.signals import GROUPS, INPUT_PINS

__all__ = ["Watch", "NAMES", "CONTROLLER_READS", "LIMIT", "write_waves"]

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
# The controller's inputs, which its next edge reads (appendix C's conditions).
CONTROLLER_READS = ("keyboard.keypressed", "board.validkey", "board.full", "board.wins",
                    "stack.ground", "board.lasti", "value.rgea", "value.rgbestr")
STRIP = 24                      # the cycles the page's strip of waves shows
# The pins' names in GROUPS that the frames hold under a block's name.
_STRIP_NAMES = {"i": "move.i", "sp": "stack.sp"}
LIMIT = 100_000                 # edges one run may clock: a search takes at most 15,007
_UNRESET = ("the golden model stopped: the chip was clocked before a reset edge, so "
            "nobody knows its registers, and the values here are not checked; New chip "
            "starts both again")
_SIGNED = {"value.r": 2, "value.bestr": 1}


def _signed(name, value):
    bits = _SIGNED.get(name)
    if bits and value >> (bits - 1) & 1:
        return value - (1 << bits)
    return value


def _golden(model):
    """What the golden model knows, under the frame's names (None: unknown, 'u')."""
    probe, regs = model.probe, model.registers()
    return {
        "controller.state": int(probe.state), "controller.choose":
            None if probe.choose is None else int(probe.choose),
        "controller.toggleN": probe.toggleN, "controller.usei": probe.usei,
        "controller.nexti": probe.nexti, "board.board": regs.board, "board.p": regs.p,
        "board.wins": probe.wins, "move.i": regs.i, "move.m": regs.m,
        "move.random": regs.random, "value.r": regs.r, "value.bestr": regs.bestr,
        "value.a": regs.a, "stack.sp": regs.sp, "led": probe.led,
        "copyboard": probe.copyboard, "prompt": probe.prompt, "fin": probe.fin,
        "win": probe.win,
    }


class Watch:
    """The chip and its golden model from power-up, the pins held as a person sets
    them (the reset pin low at first: the chip needs a reset edge), and the frames."""

    def __init__(self, *, random=0, chips=None):
        self.random = random
        self.pins = Inputs(resetN=0)
        self._start(chips)
        self.frames = [self._frame(None, [self._chips.get(0, n) for n in NAMES], None)]
        self.applied = []       # the pins before edge n + 1, for every edge clocked
        self.cursor = 0         # the frame shown
        self.branches = 0       # how often the history was cut: what was built on it goes

    def _start(self, chips=None):
        self._chips = chips or compiled.chip(1, random=self.random)
        self._model = CycleModel(random=self.random)
        self._stack = [0] * 8
        self._stopped = None    # why the golden model cannot go on, if it cannot

    def close(self):
        self._chips = None

    # -- what a person does ---------------------------------------------------------

    @property
    def head(self):
        """The last frame clocked: the chip's own cycle."""
        return len(self.frames) - 1

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
        """Clock `edges` edges from the frame shown; the frame shown is then the last."""
        for _ in range(edges):
            if self.cursor < self.head and self.applied[self.cursor] == self.pins:
                self.cursor += 1        # forward again through the history, and with
                if self.cursor < self.head:     # the pins it had at the next edge
                    self.pins = self.applied[self.cursor]
                continue
            if self.cursor < self.head:
                self._branch()
            self._clock(1)
        return self.frames[self.cursor]

    def run_until_waiting(self, limit=LIMIT):
        """Clock until the chip waits for a key (or has finished), at least one edge.
        Returns the edges clocked. The golden model runs ahead to find how many edges
        that is, and the compiled chip then clocks them in one call: a worst move's
        15,007 edges are one call, not 15,007 (each frame is still compared)."""
        if self.cursor < self.head or self._stopped is not None:
            clocked = 0
            while clocked < limit:
                self.step()
                clocked += 1
                if self.frame["state"] in (State.WAITING, State.FINISHED):
                    break
            return clocked
        golden = []
        self._model.set(self.pins)      # the same pins at every edge of the run
        while len(golden) < limit:
            try:
                self._model.tick()
            except UnresetChip:
                self._stopped = _UNRESET
                break
            golden.append(_golden(self._model))
            if self._model.state in (State.WAITING, State.FINISHED):
                break
        if not golden:
            self.step()
            return 1
        before = self._apply(self.pins)
        rows = self._chips.run(np.array([[[getattr(self.pins, name) for name in INPUT_PINS]]
                                         * len(golden)], np.uint32), outputs=NAMES)[0]
        for row, want in zip(rows.tolist(), golden):
            self.applied.append(self.pins)
            self.frames.append(self._frame(self.pins, row, want, before))
            before = None
        self.cursor = self.head
        return len(golden)

    def back(self, edges=1):
        self.jump(self.cursor - edges)

    def forward(self, edges=1):
        self.jump(self.cursor + edges)

    def jump(self, cycle):
        """Show frame `cycle`: one clocked already, or clocked up to it now."""
        cycle = max(0, int(cycle))
        if cycle > self.head:
            self.cursor = self.head
            self.step(min(cycle - self.head, LIMIT))
        else:
            self.cursor = cycle
        if self.cursor < self.head:
            self.pins = self.applied[self.cursor]   # so that step replays the history
        return self.frames[self.cursor]

    @property
    def frame(self):
        return self.frames[self.cursor]

    # -- the clock ------------------------------------------------------------------

    def _branch(self):
        """Drop the frames after the one shown and bring a fresh chip and model to it."""
        applied = self.applied[:self.cursor]
        self.branches += 1
        del self.frames[self.cursor + 1:]
        self._start()
        self.applied = []
        self.frames = self.frames[:1]
        for pins in applied:
            self._edge(pins)

    def _clock(self, edges):
        for _ in range(edges):
            self._edge(self.pins)
        self.cursor = self.head

    def _edge(self, pins):
        chips = self._chips
        before = self._apply(pins)
        chips.step()
        self.applied.append(pins)
        want = None
        if self._stopped is None:
            self._model.set(pins)
            try:
                self._model.tick()
                want = _golden(self._model)
            except UnresetChip:
                self._stopped = _UNRESET
        self.frames.append(self._frame(pins, [chips.get(0, name) for name in NAMES], want,
                                       before))

    def _apply(self, pins):
        """Drive `pins` into the chip for the next edge. Returns what its combinational
        outputs show then, half a period before the edge, if the pins changed (the
        waves show it; with the same pins it is the last frame)."""
        chips = self._chips
        chips.set(0, **{name: getattr(pins, name) for name in INPUT_PINS})
        if self.applied and self.applied[-1] == pins:
            return None
        values = dict(zip(NAMES, (chips.get(0, name) for name in NAMES)))
        for name in _SIGNED:
            values[name] = _signed(name, values[name])
        return values

    def _frame(self, pins, row, want, before=None):
        """The frame after an edge with `pins` (None: power-up): the HDL's values `row`
        (NAMES' order) and the golden model's `want` (None: not known)."""
        values = dict(zip(NAMES, row))
        for name in _SIGNED:
            values[name] = _signed(name, values[name])
        previous = self.frames[-1] if getattr(self, "frames", None) else None
        # The stack's registers, from its top entry after a push (see the docstring).
        sp = values["stack.sp"]
        if previous is not None and sp == previous["values"]["stack.sp"] + 1:
            self._stack[sp - 1] = values["stack.top"]
        # A list shared by the frames until a push changes it: 15,007 frames of a search
        # copy it some 6,000 times, not 15,007.
        if previous is None or previous["values"]["stack.stackregs"] != self._stack:
            values["stack.stackregs"] = list(self._stack)
        else:
            values["stack.stackregs"] = previous["values"]["stack.stackregs"]
        differences = {}
        for name, expected in (want or {}).items():
            if expected is not None and values[name] != expected:
                differences[name] = {"hdl": values[name], "golden": expected}
        return {
            "cycle": len(self.frames) if getattr(self, "frames", None) else 0,
            "state": State(values["controller.state"]),
            "values": values, "differences": differences,
            "stopped": self._stopped,
            "pins": pins,
            "before": before,
        }

    def changed(self, cycle):
        """The names whose values changed on the edge into frame `cycle` (worked out
        when asked: a run of 15,007 edges need not compare every frame)."""
        if cycle == 0:
            return []
        before, after = self.frames[cycle - 1]["values"], self.frames[cycle]["values"]
        return [name for name, value in after.items() if before[name] != value]

    def strip(self, cycles=STRIP):
        """The waves of the last `cycles` frames up to the one shown, as the GTKWave
        view groups them (sim.chip.signals.GROUPS, the pins first, the clock implied by
        the cycles): {"first": its first cycle, "groups": [[group, [name, ...]], ...],
        "values": {name: [value per cycle]}, "widths": {name: bits}}. The stack's
        registers are left out."""
        first = max(0, self.cursor - cycles + 1)
        frames = self.frames[first:self.cursor + 1]
        groups, values = [], {}
        for group, members in GROUPS.items():
            names = []
            for member in members:
                name = _STRIP_NAMES.get(member, member) if group == "pins" else \
                    f"{group}.{member}"
                if name in INPUT_PINS:          # the pins each edge was clocked with
                    names.append(name)
                    values[name] = [getattr(frame["pins"] or self.pins, name)
                                    for frame in frames]
                elif name in frames[0]["values"] and name != "stack.stackregs" and \
                        name not in values:
                    names.append(name)
                    values[name] = [frame["values"][name] for frame in frames]
            if names:
                groups.append([group, names])
        widths = {name: self._chips.width(name) for name in values}
        return {"first": first, "groups": groups, "values": values, "widths": widths}

    def view(self):
        """The frame shown as the page's message takes it: values by name, what changed
        on the edge into it, the transition the controller took and what it read."""
        frame = self.frames[self.cursor]
        before = self.frames[self.cursor - 1] if self.cursor else None
        return {
            "cycle": self.cursor, "head": self.head,
            "state": frame["state"].name.lower(),
            "transition": None if before is None else
                [before["state"].name.lower(), frame["state"].name.lower()],
            "read": None if before is None else
                {name: before["values"][name] for name in CONTROLLER_READS},
            "values": frame["values"], "changed": self.changed(self.cursor),
            "differences": frame["differences"], "stopped": frame["stopped"],
            "pins": dataclasses.asdict(self.pins),
            "strip": self.strip(),
        }



# -- the session's waves ------------------------------------------------------------------

# The waves' names (sim.chip.signals.WAVES, and the rest of GROUPS the frames hold) for
# each frame name; i and sp are pins as well as registers.
_WAVE_NAMES = {name: (name,) for name in NAMES if name != "stack.top"}
_WAVE_NAMES |= {"move.i": ("i", "move.i"), "stack.sp": ("sp", "stack.sp"),
                "stack.stackregs": ("stack.stackregs",)}


def write_waves(watch, vcd, gtkw=None):
    """The session so far (every frame clocked) as a VCD at `vcd`, timed as E.1 and
    named as the exported netlist (``ttt_chip.controller.state``), as the golden
    model's and the Amaranth chip's waves are, so that ``ttt compare`` pairs them; with
    `gtkw` its GTKWave view (sim.chip.view). Each edge n rises at 200n ns; its pins
    and what they show come half a period before it. Both files are written whole or
    not at all."""
    from vcd import VCDWriter

    from firmware_ref import cli
    from hdl.eth.export import TOP

    from sim.chip import view as views
    from sim.chip.signals import PERIOD_NS, WAVES

    half = PERIOD_NS // 2
    widths = dict(WAVES)
    for name in NAMES:
        widths.setdefault(name, watch._chips.width(name))
    with cli.replacing(vcd) as file:
        writer = VCDWriter(file, timescale="1 ns", date="",
                           comment="the compiled chip (hdl/eth/chip.py) clocked on make "
                                   "serve's page; written by sim/backends/watch.py")
        variables, last = {}, {}
        for names in _WAVE_NAMES.values():
            for name in names:
                scope, _, leaf = f"{TOP}.{name}".rpartition(".")
                variables[name] = writer.register_var(scope, leaf, "wire",
                                                      size=widths[name])
        for pin in ("cp", *INPUT_PINS, "scan", "scanin"):
            variables[pin] = writer.register_var(TOP, pin, "wire", size=widths[pin])

        def change(time, name, value):
            if isinstance(value, list):     # the stack: entry 0 at the low end
                value = sum(entry << 6 * k for k, entry in enumerate(value))
            value &= (1 << widths[name]) - 1
            if last.get(name) != value:
                last[name] = value
                writer.change(variables[name], time, value)

        def show(time, values):
            # What the pins show before an edge holds no stack: registers keep still.
            for source, names in _WAVE_NAMES.items():
                if source in values:
                    for name in names:
                        change(time, name, values[source])

        first = watch.frames[0]["values"]
        for name, value in (("cp", 0), ("scan", 0), ("scanin", 0)):
            change(0, name, value)
        for pin, value in dataclasses.asdict(watch.applied[0] if watch.applied
                                             else watch.pins).items():
            change(0, pin, value)
        show(0, first)
        for n in range(1, watch.head + 1):
            frame, pins = watch.frames[n], watch.applied[n - 1]
            falling = PERIOD_NS * n - half
            if n > 1:
                change(falling, "cp", 0)
            for pin, value in dataclasses.asdict(pins).items():
                change(falling, pin, value)
            if frame["before"] is not None:
                show(falling, frame["before"])
            change(PERIOD_NS * n, "cp", 1)
            show(PERIOD_NS * n, frame["values"])
        end = PERIOD_NS * watch.head
        change(end + half, "cp", 0)
        writer.close(end + PERIOD_NS)
    if gtkw is not None:
        views.write(vcd, scope=TOP, save_path=gtkw)
