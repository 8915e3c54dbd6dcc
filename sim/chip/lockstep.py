"""Lockstep: the Amaranth chip and the golden model side by side, compared every clock.

A `Bench` drives `hdl.eth.chip.Chip` through its pins only and feeds the golden
`CycleModel` the same inputs. After every edge it compares every output pin and the
internal nodes the E.2 trace prints; at the first difference it raises `Mismatch`
with the cycle, the signal, both values and the last rows of both.

A Bench offers what a protocol of firmware_ref.eth.cycle needs (`set`, `state`, `board`,
`probe`), so the same protocols run on it: ``await run(bench, pressing(bench, 4))``.
The comparison lives in `PinBench`, which the cocotb bench of the exported netlist
(sim/backends/cocotb_chip.py) shares; `walking_games` plays every game on either.
"""

import collections
import dataclasses
import tempfile
from pathlib import Path

from amaranth.sim import Simulator

from firmware_ref.cartridge import board_places
from firmware_ref.eth.cycle import NO_KEY, Choose, CycleModel, Probe, Registers, State
from firmware_ref.eth.pins import pressing, starting
from hdl.eth import export, scan
from hdl.eth.chip import Chip

from sim import Mismatch
from sim.chip import games
from sim.chip import view
from sim.waves import files as waves
from sim.chip.signals import INPUT_PINS, PERIOD_NS, PROBE_PATHS

__all__ = ["PERIOD", "PinBench", "Bench",
           "probe_from", "resolve", "run", "simulate", "netlist_name", "walking_games",
           "concrete", "scan_values", "from_scan"]

PERIOD = PERIOD_NS * 1e-9       # seconds, as Amaranth's simulator counts
FIELDS = tuple(f.name for f in dataclasses.fields(Probe))


def _show(probe):
    def v(x):
        return "u" if x is None else str(int(x))
    return (f"{probe.state.name.lower():>13} w{v(probe.wins)} ch{v(probe.choose)} "
            f"tN{v(probe.toggleN)} ui{v(probe.usei)} ni{v(probe.nexti)} sp{v(probe.sp)} "
            f"i{v(probe.i)} fin{v(probe.fin)} win{v(probe.win)} pr{v(probe.prompt)} "
            f"led {probe.led:018b} cb{v(probe.copyboard)}")


def probe_from(values):
    """A Probe from the integers a simulator shows under PROBE_PATHS' names."""
    values = dict(values)
    values["state"] = State(values["state"])
    values["choose"] = Choose(values["choose"])
    return Probe(**values)


class PinBench:
    """A chip in some simulator and the golden model beside it, fed the same inputs.

    Subclasses say how to drive the input pins (`_drive`), read the probe (`_read`,
    integers by PROBE_PATHS name), wait for a rising edge (`_edge`), what follows the
    check after it (`_after`) and how to clock the scan path (`_shift`); this class
    keeps the model in step and compares them.
    """

    def __init__(self, model, history=6):
        self.model = model
        self.cycle = 0
        self._rows = collections.deque(maxlen=history)

    # -- what protocols use, as on CycleModel ---------------------------------------

    def set(self, inputs=None, **pins):
        self.model.set(inputs, **pins)
        self._drive(self.model.inputs)

    @property
    def state(self):
        return self.model.state         # equal to the chip's: checked at every edge

    @property
    def board(self):
        return self.model.board

    def registers(self):
        return self.model.registers()   # the chip's: they saw the same edges

    @property
    def probe(self):
        """The chip's pins and internal nodes, as a Probe."""
        return probe_from(self._read())

    async def tick(self):
        await self._edge()
        self.model.tick()
        self.cycle += 1
        self.check()
        await self._after()

    async def _after(self):
        pass

    # -- the scan path: `_shift(bits)` clocks bits in (None: scanout back into scanin)
    #    and returns the bits scanout showed -------------------------------------------

    async def load(self, registers):
        """Shift `registers` into the chip through the scan pins and restart the model
        from them. Returns the registers the chip held before."""
        registers = concrete(registers)
        before = await self._shift(scan.encode(scan_values(registers)))
        self.model = CycleModel.from_registers(registers, self.model.inputs)
        self.check()
        return from_scan(scan.decode(before))

    async def unload(self):
        """Read every register through the scan pins, shifting scanout back into
        scanin, so the chip holds the same state afterwards."""
        return from_scan(scan.decode(await self._shift([None] * scan.SCAN_LENGTH)))

    # -- the comparison ---------------------------------------------------------------

    def check(self):
        """Compare the chip with the model now; what the model does not know is not
        compared ('u' in E.2)."""
        expected, actual = self.model.probe, self.probe
        self._rows.append((self.cycle, expected, actual))
        for name in FIELDS:
            want = getattr(expected, name)
            if want is not None and getattr(actual, name) != want:
                raise Mismatch(self._report(name, want, getattr(actual, name)))

    def _report(self, name, want, got):
        def value(x):
            return f"{x:018b}" if name == "led" else str(getattr(x, "name", x))
        lines = [f"cycle {self.cycle}: {name} is {value(got)} in the HDL, "
                 f"{value(want)} in the golden model",
                 f"inputs: {self.model.inputs}",
                 "last cycles (golden model above, HDL below):"]
        for cycle, expected, actual in self._rows:
            lines += [f"  {cycle:>7} model {_show(expected)}",
                      f"  {'':>7} HDL   {_show(actual)}"]
        return "\n".join(lines)


def resolve(chip, path):
    """The Amaranth signal at dotted `path` below `chip` (sim.chip.signals.PROBE_PATHS)."""
    for name in path.split("."):
        chip = getattr(chip, name)
    return chip


class Bench(PinBench):
    """The Amaranth chip in a running simulation (`ctx`) and the golden model beside it.
    Amaranth settles the logic at every `set`, so the chip is compared at once."""

    def __init__(self, ctx, chip, model, history=6):
        super().__init__(model, history)
        self.ctx, self.chip = ctx, chip
        self._signals = {name: resolve(chip, path) for name, path in PROBE_PATHS.items()}
        self._drive(model.inputs)
        self.check()

    def _drive(self, inputs):
        for name in INPUT_PINS:
            self.ctx.set(getattr(self.chip, name), getattr(inputs, name))

    def _read(self):
        return {name: int(getattr(value, "value", value))
                for name, value in ((name, self.ctx.get(signal))
                                    for name, signal in self._signals.items())}

    async def _edge(self):
        await self.ctx.tick()

    async def _after(self):
        # Inputs change at the falling edge, as in E.1, the netlist bench and the golden
        # waves, so that all their waves line up.
        await self.ctx.delay(PERIOD / 2)

    async def _shift(self, bits):
        self.ctx.set(self.chip.scan, 1)
        out = []
        for bit in bits:
            out.append(self.ctx.get(self.chip.scanout))
            self.ctx.set(self.chip.scanin, out[-1] if bit is None else bit)
            await self.ctx.tick()
        self.ctx.set(self.chip.scan, 0)
        self.cycle += len(out)
        return out


async def run(bench, protocol):
    """Run a protocol (firmware_ref.eth.pins.starting, ...) on `bench`; return its result."""
    while True:
        try:
            next(protocol)
        except StopIteration as done:
            return done.value
        await bench.tick()


def walking_games(chip, opening, presses):
    """Protocol: play the games of one opening (`presses`, from sim.chip.lanes.presses) on
    `chip`, a golden model or a bench (as `starting` and `pressing` take them, and
    ``registers()``). Returns how often it went back.

    The chip follows the golden model's game tree. To go back to a branch point it is
    reset with that position entered during reset, as E.1 does: a search depends on
    nothing but the position (m would, but no game leaves the chip without a move), and
    the model follows the same pins throughout. A chip opening is chosen by holding
    reset for as many extra edges as its counter needs (it counts every edge; the
    model's counter is the chip's, as they saw the same edges).
    """
    if opening is not None:
        counter = chip.registers().random
        for _ in range((games.opening_chip(opening).random - counter) % 8):
            chip.set(resetN=0)
            yield
    yield from starting(chip, userbegins=opening is None)
    restored = 0
    for registers, key in presses:
        if chip.state is not State.WAITING or chip.board != registers.board:
            position = board_places(registers.board)
            yield from starting(chip, userbegins=True, position=position)
            restored += 1
        yield from pressing(chip, key)
    return restored


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


def simulate(testbench, *, random=0, vcd=None, gtkw=None):
    """Run ``await testbench(bench)`` with a fresh Chip and golden model whose random
    counters power up at `random`; return what it returns. With `vcd`, the waves go to
    that file under the exported netlist's names (`netlist_name`), and with `gtkw` a
    GTKWave view of them (sim.waves.gtkw); both are written whole or not at all."""
    chip = Chip(random_init=random)
    result = []

    async def bench(ctx):
        result.append(await testbench(Bench(ctx, chip, CycleModel(random=random))))

    sim = Simulator(chip)
    sim.add_clock(PERIOD, phase=PERIOD)     # rising edges at 200 ns, 400 ns, ... as E.2
    sim.add_testbench(bench)
    if vcd is None:
        sim.run()
        return result[0]
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch, "amaranth.vcd")
        try:
            with sim.write_vcd(str(raw)):
                sim.run()
        except Mismatch:
            # The waves up to the disagreement are what a person needs to look into it.
            _rename_waves(raw, vcd, gtkw)
            raise
        _rename_waves(raw, vcd, gtkw)
    return result[0]


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
                        "named as the exported netlist; written by sim/chip/lockstep.py")
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
