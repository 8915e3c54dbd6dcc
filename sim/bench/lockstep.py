"""Lockstep: the chip on any simulator and the golden model side by side, compared at
every clock.

A `Bench` is the chip as one lane of a simulator of the protocol (sim.backends:
Amaranth's by default, the compiled chip, the exported netlist under cocotb), driven at
its pins only, with the golden `CycleModel` fed the same inputs. It compares every
output pin and the internal nodes the E.2 trace prints just before every rising edge,
the new inputs settled, and just after it; at the first difference it raises `Mismatch`
with the cycle, the signal, both values and the last cycles of both.

A Bench offers what a protocol of firmware_ref.eth.cycle needs (`set`, `state`, `board`,
`probe`), so the same protocols run on it: ``await run(bench, pressing(bench, 4))``,
and sim.chip.games.walking_games plays every game on it. What the protocols read is the
golden model's, which the chip must equal; so a bench records the inputs as the
protocol plays and runs the lane when the chip itself is read (`probe`, the scan path,
`shown`) and when the testbench ends, from power-up each time (a load through the scan
path sets every flip-flop, so a run starts there after one).
"""

import dataclasses
import tempfile
from pathlib import Path

import numpy as np

from firmware_ref.eth.batch import PROBE_COLUMNS, UNKNOWN
from firmware_ref.eth.cycle import NO_KEY, Choose, CycleModel, Registers, State
from hdl.eth import export, scan

from sim import Mismatch
from sim.backends import core as sim_core
from sim.backends import make
from sim.catalogue import CHIP
from sim.chip import e2, view
from sim.chip.signals import SCAN_OUT, TIED_LOW
from sim.waves import files as waves

__all__ = ["Bench", "chip_simulator", "run", "simulate", "replaying_e2",
           "netlist_name", "concrete", "scan_values", "from_scan"]

SCAN, SCAN_IN = TIED_LOW        # the scan path's inputs, driven here


def _show(probe):
    def v(x):
        return "u" if x is None else str(int(x))
    state = getattr(probe.state, "name", str(probe.state)).lower()
    return (f"{state:>13} w{v(probe.wins)} ch{v(probe.choose)} "
            f"tN{v(probe.toggleN)} ui{v(probe.usei)} ni{v(probe.nexti)} sp{v(probe.sp)} "
            f"i{v(probe.i)} fin{v(probe.fin)} win{v(probe.win)} pr{v(probe.prompt)} "
            f"led {probe.led:018b} cb{v(probe.copyboard)}")


def _row(probe):
    """A Probe as the integers a simulator shows, UNKNOWN where the model knows none."""
    return tuple(UNKNOWN if value is None else int(value)
                 for value in (getattr(probe, name) for name in PROBE_COLUMNS))


def _probe(row):
    """A Probe from a `_row` or a simulator's outputs (PROBE_COLUMNS first)."""
    return e2.probe_from({name: None if value == UNKNOWN else int(value)
                          for name, value in zip(PROBE_COLUMNS, row)})


def chip_simulator(name="amaranth", *, core=None, edit=None, log=None):
    """The simulator `name` (sim.backends.SIMULATORS) made for the chip at its pins and
    its scan path, as a Bench runs it; of a mutant with `core` or `edit`
    (sim.backends.core.Source.mutant). One that cannot raises BackendMissing."""
    pins = sim_core.pins(CHIP, scan=True).mutant(core=core, edit=edit)
    return make(name, CHIP, pins=pins, log=log)


class Bench:
    """The chip as one lane of `simulator` (`chip_simulator`), its random counter at
    power-up `random`, and the golden `model` beside it, fed the same inputs; the last
    `history` cycles of both go into a Mismatch."""

    def __init__(self, simulator, model, *, random=0, history=6):
        if not simulator.forces_power_up and random:
            raise ValueError(f"the {simulator.name} backend starts the chip's random "
                             f"counter as its netlist does, at 0, not {random}")
        self.simulator, self.model, self.random = simulator, model, random
        self.history = history
        self.cycle = 0
        self._inputs = simulator.pins.inputs
        self._probes = len(PROBE_COLUMNS)
        self._scanout = simulator.outputs.index(SCAN_OUT)
        # For every edge since power-up: the model's inputs before it with the pins'
        # row (`_pending`), and what the model shows before and after it as rows (None
        # while the scan path shifts).
        self._pins, self._expected = [], []
        self._start = 0         # the edge a run starts at: 0, or the last load's
        self._checked = 0       # the edges compared

    # -- what protocols use, as on CycleModel -----------------------------------------

    def set(self, inputs=None, **pins):
        self.model.set(inputs, **pins)

    @property
    def state(self):
        return self.model.state         # equal to the chip's: compared at every edge

    @property
    def board(self):
        return self.model.board

    def registers(self):
        return self.model.registers()   # the chip's: they saw the same edges

    @property
    def probe(self):
        """The chip's pins and internal nodes now, as a Probe."""
        return _probe(self._now())

    async def tick(self):
        before = _row(self.model.probe)
        self._pins.append(self._pending())
        self.model.tick()
        self._expected.append((before, _row(self.model.probe)))
        self.cycle += 1

    def shown(self, first=0):
        """What the chip showed at each edge from edge `first` (the bench's `cycle`
        before it; no earlier than the last load), compared: (inputs, before, after),
        the model's inputs and the chip's Probes."""
        after, before = self._run(self._pins[self._start:])
        self._compare(after, before)
        return [(inputs, _probe(before[k]), _probe(after[k]))
                for k, (inputs, _) in enumerate(self._pins[self._start:])
                if self._start + k >= first]

    def finish(self, *, waves=None):
        """Run the lane to the last edge and compare it, its waves to `waves` (a path)."""
        after, before = self._run(self._pins[self._start:], waves=waves)
        self._compare(after, before)

    def _pending(self, **scan_pins):
        inputs = self.model.inputs
        pins = {SCAN: 0, SCAN_IN: 0, **dataclasses.asdict(inputs), **scan_pins}
        return inputs, tuple(pins[name] for name in self._inputs)

    def _now(self):
        """The chip's outputs now: before an edge with the inputs as they are."""
        after, before = self._run(self._pins[self._start:] + [self._pending()])
        self._compare(after[:-1], before[:-1])
        return before[-1, :self._probes]

    # -- the scan path ------------------------------------------------------------------

    async def load(self, registers):
        """Shift `registers` into the chip through the scan pins and restart the model
        from them. Returns the registers the chip held before."""
        registers = concrete(registers)
        before = self._shift(scan.encode(scan_values(registers)))
        # Compared from the next edge on, which sees the pins as they are now.
        self.model = CycleModel.from_registers(registers, self.model.inputs)
        return from_scan(scan.decode(before))

    async def unload(self):
        """Read every register through the scan pins, shifting scanout back into
        scanin, so the chip holds the same state afterwards."""
        return from_scan(scan.decode(self._shift([None] * scan.SCAN_LENGTH)))

    def _shift(self, bits):
        """Clock `bits` in with scan high (None: what scanout shows, back into scanin);
        the bits scanout showed. Position t of the chain shows at scanout before edge t
        (hdl.eth.scan), whatever comes in meanwhile, so one run finds them all."""
        if len(bits) > scan.SCAN_LENGTH:
            raise ValueError(f"the scan path holds {scan.SCAN_LENGTH} bits, not {len(bits)}")
        rows = [self._pending(**{SCAN: 1, SCAN_IN: bit or 0}) for bit in bits]
        after, before = self._run(self._pins[self._start:] + rows)
        done = len(self._pins) - self._start
        self._compare(after[:done], before[:done])
        out = [int(v) for v in before[done:, self._scanout]]
        loading = None not in bits
        if loading:
            self._start = len(self._pins)     # every flip-flop is set: runs start here
            self._checked = self._start
        self._pins += [self._pending(**{SCAN: 1, SCAN_IN: out[k] if bit is None else bit})
                       for k, bit in enumerate(bits)]
        self._expected += [None] * len(bits)
        self.cycle += len(bits)
        return out

    # -- running the lane and comparing -------------------------------------------------

    def _run(self, pins, waves=None):
        """(after, before) of one lane of `pins` (inputs, row) from power-up."""
        inputs = np.array([[row for _, row in pins]], np.uint32).reshape(
            1, len(pins), len(self._inputs))
        options = {} if waves is None else {"waves": waves}
        after, before = self.simulator.run(inputs, [len(pins)], [self.random],
                                           before=True, **options)
        return after[0], before[0]

    def _compare(self, after, before):
        """Compare the edges from the first not yet compared to the run's last."""
        first, end = self._checked, self._start + len(after)
        for edge in range(first, end):
            expected = self._expected[edge]
            if expected is None:
                continue
            k = edge - self._start
            for row, got, early in ((expected[0], before[k], True),
                                    (expected[1], after[k], False)):
                for name, want, value in zip(PROBE_COLUMNS, row, got):
                    if want != UNKNOWN and value != want:
                        self._checked = end
                        raise Mismatch(self._report(edge + 1, name, want, int(value),
                                                    before=early, shown=after))
        self._checked = max(self._checked, end)

    def _report(self, edge, name, want, got, *, before, shown):
        """The Mismatch's text: the signal at `edge` (from 1), before or after it, and
        the last cycles of model and chip, `shown` the run's outputs after each edge."""
        def value(x):
            if name == "led":
                return f"{x:018b}"
            kind = {"state": State, "choose": Choose}.get(name)
            return kind(x).name if kind and x in set(kind) else str(x)
        where = f"just before edge {edge}" if before else f"cycle {edge}"
        inputs = self._pins[edge - 1][0] if edge <= len(self._pins) else self.model.inputs
        lines = [f"{where}: {name} is {value(got)} in the HDL, {value(want)} in the "
                 f"golden model", f"inputs: {inputs}",
                 "last cycles (golden model above, HDL below):"]
        last = edge - 1 if before else edge
        for k in range(max(self._start, last - self.history), last):
            if self._expected[k] is not None:
                lines += [f"  {k + 1:>7} model {_show(_probe(self._expected[k][1]))}",
                          f"  {'':>7} HDL   {_show(_probe(shown[k - self._start]))}"]
        return "\n".join(lines)


async def run(bench, protocol):
    """Run a protocol (firmware_ref.eth.pins.starting, ...) on `bench`; return its result."""
    while True:
        try:
            next(protocol)
        except StopIteration as done:
            return done.value
        await bench.tick()


async def replaying_e2(bench, session=e2.SESSION):
    """E.2's session on `bench`, and its rows as e2.replaying gives them, from what the
    chip showed at each edge (one run for them all)."""
    first = bench.cycle
    for inputs in session:
        bench.set(inputs)
        await bench.tick()
    shown = bench.shown(first)
    return [row for n, (inputs, before, after) in enumerate(shown, start=1)
            for row in (e2.row(n, inputs, before, after=False),
                        e2.row(n, inputs, after, after=True))]


def netlist_name(path):
    """The exported netlist's name (hdl.eth.export) for a variable of Amaranth's VCD, or
    None for one the netlist does not have.

    Amaranth's writer puts the design under ``bench.top``; the netlist calls it
    ``ttt_chip``. It names the clock ``clk`` in every block, the netlist ``cp``. Its
    ``rst`` is the simulator's (the chip has no reset port: docs/netlist.md). A name
    with ``$n`` is another block's signal seen from its parent, under a number of
    Amaranth's choosing; the signal itself is in the file under its own name."""
    if path[:2] != ("bench", "top") or len(path) < 3:
        return None
    *blocks, name = path[2:]
    if "$" in name or name == "rst":
        return None
    return (export.TOP, *blocks, export.CLOCK if name == "clk" else name)


def simulate(testbench, *, random=0, simulator=None, vcd=None, gtkw=None):
    """Run ``await testbench(bench)`` on a Bench of `simulator` (`chip_simulator`;
    Amaranth's by default) and a golden model whose random counters power up at
    `random`; return what it returns. With `vcd`, the waves of the run go to that file
    (Amaranth's under the exported netlist's names, `netlist_name`; a netlist's are its
    own), with `gtkw` a GTKWave view of them (sim.waves.gtkw): written whole or not at
    all, up to a disagreement where there is one."""
    bench = Bench(simulator or chip_simulator(), CycleModel(random=random), random=random)
    coroutine = testbench(bench)
    try:
        coroutine.send(None)
    except StopIteration as done:
        result = done.value
    except Mismatch:
        try:        # the waves up to the disagreement are what a person needs
            _finish(bench, vcd, gtkw)
        except Mismatch:
            pass
        raise
    else:
        coroutine.close()
        raise RuntimeError("the testbench waited for something a Bench never does")
    _finish(bench, vcd, gtkw)
    return result


def _finish(bench, vcd, gtkw):
    """Run `bench` to its last edge and compare it, writing its waves where asked."""
    if vcd is None:
        return bench.finish()
    if bench.simulator.name != "amaranth":
        try:
            return bench.finish(waves=vcd)
        finally:
            if gtkw is not None and Path(vcd).exists():
                view.write(vcd, scope=export.TOP, save_path=gtkw)
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch, "amaranth.vcd")
        try:
            bench.finish(waves=raw)
        except Mismatch:
            _rename_waves(raw, vcd, gtkw)
            raise
        _rename_waves(raw, vcd, gtkw)


def _rename_waves(raw, vcd, gtkw):
    """Amaranth's waves in `raw`, written whole to `vcd` under the netlist's names, and
    with `gtkw` a GTKWave view of them."""
    amaranth = waves.read(raw)
    renamed = []
    for var in amaranth.vars:
        path = netlist_name(var.path)
        if path is not None:
            renamed.append(dataclasses.replace(var, path=path))
    waves.write(vcd, renamed, amaranth.unit, end=amaranth.end,
                comment="the Amaranth chip (hdl/eth/chip.py) in Amaranth's simulator, "
                        "named as the exported netlist; written by sim/bench/lockstep.py")
    if gtkw is not None:
        view.write(vcd, scope=export.TOP, save_path=gtkw)


# -- registers between the golden model and the scan path ------------------------------

def concrete(registers):
    """`registers` with a value for each one the model leaves unknown: the HDL's
    power-up values, since a scan path loads every flip-flop."""
    return dataclasses.replace(
        registers,
        i=0 if registers.i is None else registers.i,
        r=0 if registers.r is None else registers.r,
        bestr=0 if registers.bestr is None else registers.bestr,
        key=NO_KEY if registers.key is None else registers.key,
        stack=tuple((0, 0, 0) if e is None else e for e in registers.stack))


def scan_values(registers):
    """The golden model's registers under their names on the scan path (hdl.eth.scan)."""
    r = registers
    return {"board": r.board, "p": r.p, "i": r.i, "m": r.m, "random": r.random,
            "r": r.r, "bestr": r.bestr, "a": r.a, "sp": r.sp, "state": int(r.state),
            "keyboard": r.key,
            **{f"stack[{k}]": scan.pack_entry(*e) for k, e in enumerate(r.stack)}}


def from_scan(values):
    """Registers from the values a scan-out decoded."""
    return Registers(state=State(values["state"]), board=values["board"], p=values["p"],
                     a=values["a"], bestr=values["bestr"], r=values["r"], i=values["i"],
                     m=values["m"], sp=values["sp"], key=values["keyboard"],
                     random=values["random"],
                     stack=tuple(scan.unpack_entry(values[f"stack[{k}]"]) for k in range(8)))
