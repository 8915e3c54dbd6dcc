"""Every game a user can play, in lockstep with the golden model: ``make verify``.

    ttt verify [--backend auto|bitlanes|verilator-cxx|compiled|verilator|amaranth] [--jobs N]
    ttt verify --netlist synth|routed [--board icebreaker|icestick] [--jobs N]

The exhaustive check: the games of every opening (sim.chip.games) are played through the
chip's pins, and every output pin and internal node E.2 prints is compared with the
golden model after every clock edge. ``auto`` picks the fastest backend that is
installed: the chip's gates 64 chips to a word (sim.backends.bitlanes), else Verilator
with a plain C++ harness (sim.backends.verilated), else the compiled chip (sim.backends.compiled), else cocotb on Verilator, else Amaranth's simulator.

On plain Verilator and on the compiled chip the check runs in batch. The games are split into lanes of a few
dozen key presses, each lane an independent chip from power-up. The golden model plays
each lane (`sim.chip.lockstep.walking_games`, the same walk as the pin-level benches) and
records its inputs and probe every cycle (firmware_ref.eth.batch), in one process per core;
then the compiled chips run all lanes' inputs in one call, and the two sets of arrays
are compared. The inputs follow the golden model's state, which is the chip's up to the
first difference, where the check stops and names it.

With ``--netlist`` the chip checked is the one a board build flashes: its synthesised
(``synth``) or placed and routed (``routed``, from ``make bitstream``) netlist, cut out of
the board's and simulated gate by gate (sim.verification.gatelevel, which gives `verify` its
``gates``), compared at its output pins.
"""

import collections
import dataclasses
import multiprocessing
import os
import sys
import time

import numpy as np

from firmware_ref import cli
from firmware_ref.eth.batch import INPUT_COLUMNS, PROBE_COLUMNS, UNKNOWN, Recorder, columns
from firmware_ref.eth.cycle import State
from firmware_ref.eth.pins import clocked

from sim import BUILD, Mismatch, golden_sources
from sim.backends import BACKENDS, PLAIN_VERILATOR, BackendMissing
from sim.cartridges import bench as cartridges
from sim.chip import games, lockstep
from sim.tools import cached

__all__ = ["AUTO", "CHOICES", "Lane", "Outcome", "plan", "record", "golden", "compare",
           "verify", "check_in_planes", "golden_planes", "fastest", "pool", "throttled",
           "cartridge_backend", "cartridge", "run"]

# `ttt verify --backend`'s default, resolved here and nowhere else (`run`, `cartridge`):
# the fastest backend installed (for a cartridge, the compiled one), or for a netlist
# of a board build its own simulator.
AUTO = "auto"
# The chip's own: 64 chips to a machine word (sim.backends.bitlanes), the fastest on
# every game, then plain Verilator; a cartridge runs on PLAIN_VERILATOR and BACKENDS.
BITLANES = "bitlanes"
CHIP_BACKENDS = (BITLANES, PLAIN_VERILATOR) + BACKENDS
CHOICES = (AUTO,) + CHIP_BACKENDS
CARTRIDGE_CHOICES = (PLAIN_VERILATOR,) + BACKENDS   # a cartridge's, fastest first
PRESSES_PER_LANE = 48       # about 60 lanes: both cores busy, short padding


@dataclasses.dataclass(frozen=True)
class Lane:
    """Part of the games of one opening: `presses` as `lockstep.game_presses` gives them,
    played on a chip whose random counter powers up at `power_up`."""
    opening: int | None
    presses: tuple
    power_up: int


@dataclasses.dataclass(frozen=True)
class Outcome:
    backend: str
    games: int
    presses: int
    cycles: int
    seconds: float


def plan(per_lane=PRESSES_PER_LANE, openings=games.OPENINGS):
    """The lanes that together press every key of every game of `openings`."""
    return _plan(per_lane, openings)[0]


def _plan(per_lane, openings):
    """The lanes, and how many games they hold: one walk of the game tree for both."""
    presses = collections.defaultdict(list)
    count = sum(1 for _ in games.all_games(
        openings, on_press=lambda opening, registers, key:
        presses[opening].append((registers, key))))
    lanes = []
    for opening in openings:
        power_up = 0 if opening is None else games.opening_chip(opening).random
        mine = presses[opening]
        lanes += [Lane(opening, tuple(mine[k:k + per_lane]), power_up)
                  for k in range(0, len(mine), per_lane)]
    return lanes, count


def record(lane):
    """The golden model's cycles of `lane`: its packed rows (firmware_ref.eth.batch)."""
    model = Recorder(random=lane.power_up)
    clocked(model, lockstep.walking_games(model, lane.opening, lane.presses))
    return model.rows


def golden(lanes, *, jobs=None, progress=None):
    """Record every lane, one process per core (`jobs`); returns their rows in order.
    `progress(done, total, cycles)` is called as lanes finish."""
    jobs = jobs or os.cpu_count() or 1
    found, cycles = [None] * len(lanes), 0
    if jobs == 1:
        results = ((n, record(lane)) for n, lane in enumerate(lanes))
        for done, (n, rows) in enumerate(results, 1):
            found[n] = rows
            cycles += len(rows)
            if progress:
                progress(done, len(lanes), cycles)
        return found
    with pool(jobs) as workers:
        for done, (n, rows) in enumerate(workers.imap_unordered(_record_numbered,
                                                                enumerate(lanes)), 1):
            found[n] = rows
            cycles += len(rows)
            if progress:
                progress(done, len(lanes), cycles)
    return found


def pool(jobs):
    """`jobs` worker processes (a multiprocessing Pool, forked where that is safe) that
    leave Ctrl-C to the parent (firmware_ref.cli)."""
    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    return ctx.Pool(jobs, initializer=cli.ignore_interrupts)


def _record_numbered(item):
    n, lane = item
    return n, record(lane)


def compare(lanes, rows, actual, probes=PROBE_COLUMNS, numbers=None):
    """Raise Mismatch at the first cycle where `actual` ((lanes, cycles, `probes`) from
    `sim.backends.compiled.Chips.run`, or the pins of a gate-level chip's ``run``) is not the
    golden model's `rows`; the lanes are named by `numbers` (0, 1, ... by default)."""
    picked = [PROBE_COLUMNS.index(name) for name in probes]
    for k, (n, lane, packed) in enumerate(zip(numbers or range(len(lanes)), lanes, rows)):
        inputs, expected = columns(packed)
        expected = expected[:, picked]
        got = actual[k, :len(expected)].astype(np.int64)
        wrong = (expected != UNKNOWN) & (expected != got)
        if wrong.any():
            cycle, column = np.argwhere(wrong)[0]
            raise Mismatch(_report(lane, n, int(cycle), probes, int(column), expected,
                                   got, inputs))


def _report(lane, n, cycle, probes, column, expected, got, inputs):
    name = probes[column]

    def show(value):
        if name == "state":
            return State(value).name.lower()
        return f"{value:018b}" if name == "led" else str(value)
    opening = "the user begins" if lane.opening is None else f"the chip opens at {lane.opening}"
    lines = [f"cycle {cycle + 1} of lane {n} ({opening}): {name} is "
             f"{show(int(got[cycle, column]))} in the chip, "
             f"{show(int(expected[cycle, column]))} in the golden model",
             f"inputs (keyboardN userbegins piN resetN): {inputs[cycle].tolist()}",
             "last cycles (golden model above, chip below), " + " ".join(probes) + ":"]
    for c in range(max(0, cycle - 4), cycle + 1):
        lines += [f"  {c + 1:>7} model {expected[c].tolist()}",
                  f"  {'':>7} chip  {got[c].tolist()}"]
    return "\n".join(lines)


def _batch(lanes, jobs, progress, what, run, probes=PROBE_COLUMNS, numbers=None):
    """Record the golden model's lanes, give their inputs to `run` (a batch, as
    `sim.backends.compiled.Chips.run`) and compare what it returns; returns the cycles.
    `numbers`: the lanes' numbers in the plan, where they are a part of it."""
    rows = golden(lanes, jobs=jobs, progress=progress and (
        lambda done, total, cycles: progress(f"golden model: {done}/{total} lanes, "
                                             f"{cycles} cycles")))
    lengths = np.array([len(r) for r in rows], np.int64)
    inputs = np.zeros((len(lanes), int(lengths.max()), 4), np.uint32)
    for n, packed in enumerate(rows):
        inputs[n, :lengths[n]] = columns(packed)[0]
    if progress:
        progress(f"{what}: {len(lanes)} lanes, {int(lengths.sum())} cycles")
    compare(lanes, rows, run(inputs, lengths), probes, numbers)
    return int(lengths.sum())


def _compiled(lanes, jobs, progress):
    from sim.backends import compiled
    chips = compiled.Chips(len(lanes), random=[lane.power_up for lane in lanes],
                           log=lambda text: progress and progress(text))
    return _batch(lanes, jobs, progress, "compiled chip", chips.run)


def _plain_verilator(lanes, jobs, progress):
    from sim.backends import verilated
    chips = verilated.Chips(len(lanes), random=[lane.power_up for lane in lanes],
                            log=lambda text: progress and progress(text))
    return _batch(lanes, jobs, progress, "Verilator + C++ harness", chips.run)


def _bitlanes(lanes, jobs, progress):
    from sim.backends import bitlanes
    chips = bitlanes.Chips(len(lanes), random=[lane.power_up for lane in lanes],
                           log=lambda text: progress and progress(text))
    return check_in_planes(lanes, chips, jobs=jobs, progress=progress)


def check_in_planes(lanes, chips, *, jobs=None, progress=None):
    """Every lane on `chips` (sim.backends.bitlanes.Chips, a lane each) checked in bit
    planes against the golden model's recording, packed once and cached by content
    (`golden_planes`); returns the cycles. The first group of 64 lanes that differs is
    run again and compared lane by lane, to name the lane, cycle and signal."""
    planes = golden_planes(lanes, chips.widths, jobs=jobs, progress=progress)
    if progress:
        progress(f"bit-parallel chips: {len(lanes)} lanes, {int(planes.lengths.sum())} "
                 f"cycles, checked in bit planes")
    differ = chips.check(planes)
    if differ:
        named = [lanes[n] for n in differ]
        _batch(named, 1, None, "bit-parallel chips", chips.subset(differ).run,
               numbers=differ)
        raise Mismatch(f"the bit-parallel chips differ in the group of lanes "
                       f"{', '.join(map(str, differ))}, but not lane by lane")
    return int(planes.lengths.sum())


GOLDEN_CACHE = BUILD / "golden-chip"


def golden_planes(lanes, widths, *, jobs=None, progress=None):
    """The golden model's recording of `lanes` as the bit-parallel chips check it
    (sim.backends.bitlanes.Planes), recorded and packed once, then read from
    ``build/golden-chip/``, keyed by the lanes, the widths and the golden model's
    sources."""
    from sim.backends import bitlanes

    def record(work):
        rows = golden(lanes, jobs=jobs, progress=progress and (
            lambda done, total, cycles: progress(f"golden model: {done}/{total} lanes, "
                                                 f"{cycles} cycles (once, then cached)")))
        lengths = np.array([len(r) for r in rows], np.int64)
        inputs = np.zeros((len(lanes), int(lengths.max()), len(INPUT_COLUMNS)), np.uint32)
        expected = np.full((len(lanes), int(lengths.max()), len(PROBE_COLUMNS)), UNKNOWN,
                           np.int32)
        for n, packed in enumerate(rows):
            inputs[n, :lengths[n]], expected[n, :lengths[n]] = columns(packed)
        planes = bitlanes.Planes.of([lane.power_up for lane in lanes], inputs, expected,
                                    lengths, widths)
        np.savez(work / "planes.npz", **dataclasses.asdict(planes))
        return [work / "planes.npz"]

    path = cached(GOLDEN_CACHE, [repr((lanes, widths)), *golden_sources()], "planes.npz",
                  record, doing="recording the golden model into bit planes")
    with np.load(path) as saved:
        return bitlanes.Planes(**saved)


def _gates(lanes, jobs, progress, gates):
    """The chip of a board build, gate by gate. It powers up as the FPGA configures it,
    its random counter at 0 like every flip-flop there, so each lane's walk holds reset
    for the edges that bring the counter to the lane's opening (`lockstep.walking_games`),
    and the golden model, powered up the same, sees those edges too."""
    lanes = [dataclasses.replace(lane, power_up=0) for lane in lanes]
    return _batch(lanes, jobs, progress, gates.name, gates.run, gates.pins)


def _amaranth(lanes, jobs, progress):
    """Amaranth's simulator: one opening per process, walked as the pytest suite does."""
    openings = sorted({lane.opening for lane in lanes}, key=lambda o: -1 if o is None else o)
    cycles = 0
    with pool(jobs or os.cpu_count() or 1) as workers:
        for done, (_, count) in enumerate(
                workers.imap_unordered(_walk_amaranth, openings), 1):
            cycles += count
            if progress:
                progress(f"amaranth: {done}/{len(openings)} openings, {cycles} cycles")
    return cycles


def _walk_amaranth(opening):
    presses = lockstep.game_presses([opening])[opening]
    power_up = 0 if opening is None else games.opening_chip(opening).random

    async def walk(bench):
        await lockstep.run(bench, lockstep.walking_games(bench, opening, presses))
        return bench.cycle
    return opening, lockstep.simulate(walk, random=power_up)


def _verilator(progress):
    from sim.backends import netlist
    if progress:
        progress("verilator: building the netlist")
    built = netlist.build("verilator")
    if progress:
        progress("verilator: every game (about a minute)")
    (result,) = netlist.run(built, "verilator", ["whole_games"], openings="all")
    if not result.passed:
        raise Mismatch(result.message)
    log = (netlist.BUILD / "cocotb" / "verilator" / "whole_games.log").read_text()
    counts = [int(line.rsplit(",", 1)[1].split()[0]) for line in log.splitlines()
              if "cycles so far" in line]
    return counts[-1]


def throttled(log, seconds):
    """A progress callback for `verify` that passes its text to `log`: for each new phase
    (the text before its colon), then within one at most once in `seconds`."""
    last = {"phase": None, "time": 0.0}

    def progress(text):
        phase, now = text.split(":")[0], time.monotonic()
        if phase != last["phase"] or now - last["time"] >= seconds:
            log(text)
            last.update(phase=phase, time=now)
    return progress


def fastest(*, log=None):
    """The fastest backend installed here, and why each faster one is not; `log(text)`
    hears what is built to find out (the compiled chip, once)."""
    from sim.backends import bitlanes, compiled, netlist, verilated
    skipped = []
    # 64 chips to a word first: on every game's lanes it is several times plain
    # Verilator's speed (make benchmark's table).
    try:
        bitlanes.library(log=log)
        return BITLANES, skipped
    except BackendMissing as missing:
        skipped.append(f"{BITLANES}: {missing}")
    # Plain Verilator first: on every game it runs the lanes several times faster than
    # the compiled chip (docs/performance.md, make benchmark's table).
    try:
        verilated.library(log=log)
        return PLAIN_VERILATOR, skipped
    except BackendMissing as missing:
        skipped.append(f"{PLAIN_VERILATOR}: {missing}")
    try:
        compiled.library(log=log)
        return "compiled", skipped
    except BackendMissing as missing:
        skipped.append(f"compiled: {missing}")
    try:
        netlist.available("verilator")
        return "verilator", skipped
    except netlist.SimulatorMissing as missing:
        skipped.append(f"verilator: {missing}")
    return "amaranth", skipped


def verify(backend="compiled", *, gates=None, jobs=None, progress=None,
           per_lane=PRESSES_PER_LANE):
    """Run the exhaustive check on `backend`, or on `gates`: a chip that runs lanes in
    batch at its pins from an all-zero power-up (``run(inputs, lengths)`` as
    `sim.backends.compiled.Chips.run`, ``pins``, ``name``), such as the gate-level chip of a board
    build (sim.verification.gatelevel.Gates), when `backend` is not used. Returns its Outcome
    or raises Mismatch."""
    if gates is None and backend not in CHIP_BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(CHIP_BACKENDS)}")
    start = time.perf_counter()
    lanes, count = _plan(per_lane, games.OPENINGS)
    presses = sum(len(lane.presses) for lane in lanes)
    if gates is not None:
        backend = gates.name
        cycles = _gates(lanes, jobs, progress, gates)
    elif backend == "compiled":
        cycles = _compiled(lanes, jobs, progress)
    elif backend == BITLANES:
        cycles = _bitlanes(lanes, jobs, progress)
    elif backend == PLAIN_VERILATOR:
        cycles = _plain_verilator(lanes, jobs, progress)
    elif backend == "amaranth":
        cycles = _amaranth(lanes, jobs, progress)
    else:
        cycles = _verilator(progress)
    return Outcome(backend, games=count, presses=presses, cycles=cycles,
                   seconds=time.perf_counter() - start)


def cartridge_backend():
    """A cartridge's default backend: plain Verilator, where it is installed (on the
    largest core, ultimate, it runs the games faster than the compiled core, and its
    lanes are compared with the golden model's recording, cached; make benchmark
    measures both), else the compiled core."""
    from sim.backends import verilated
    try:
        verilated.available()
        return PLAIN_VERILATOR
    except BackendMissing:
        return "compiled"


def cartridge(name, backend=AUTO):
    """``ttt verify --game``: every game of cartridge `name` in lockstep with its golden
    model at the cartridge's pins, on `backend` (one of CHOICES); prints the progress
    and the outcome, 1 if they differ."""
    if backend == AUTO:
        backend = cartridge_backend()
    if backend == BITLANES:
        raise cli.UserError(f"the {BITLANES} backend runs the ETH chip only; a "
                            f"cartridge runs on {', '.join(CARTRIDGE_CHOICES)}")
    if cartridges.golden(name) is None:
        raise cli.UserError(f"{name} has no golden model at the console's pins in "
                            f"firmware_ref/{name}/ (docs/cartridge.md, 'Adding a game')")
    print(f"every game of {name} in lockstep with its golden model, at the cartridge's "
          f"pins, on the {backend} backend", flush=True)
    progress = throttled(lambda text: print(f"  {text}", flush=True), 5)
    began = time.perf_counter()
    try:
        played, clocks = cartridges.lockstep(
            name, backend=backend,
            progress=lambda games, clocks: progress(f"{backend}: {games} games, "
                                                    f"{clocks} clocks"))
    except Mismatch as difference:
        print(f"DIFFERENT: {difference}")
        return 1
    seconds = time.perf_counter() - began
    print(f"all {played} games agree: {clocks} clocks, every pin of the cartridge at "
          f"every edge, in {seconds:.1f} s ({clocks / seconds:,.0f} cycles/s)")
    return 0


def run(backend=AUTO, *, gates=None, name=None, jobs=None):
    """``ttt verify``: `verify` with its progress on one line (a terminal) or a line a
    second (a log), and its outcome; 1 if the chip and the golden model differ. With
    `gates`, `gates(log)` makes the chip that `name` names (tools are checked before any
    work), which is simulated as it comes: `backend` must be AUTO."""
    if gates is not None:
        if backend != AUTO:
            raise ValueError(f"a netlist runs on its own simulator, not {backend!r}")
        print(f"every game in lockstep on the {name}, gate by gate, at the chip's pins",
              flush=True)
    else:
        if backend == AUTO:
            backend, skipped = fastest(log=lambda text: print(text, flush=True))
            for reason in skipped:
                print(f"not using {reason}")
        print(f"every game in lockstep on the {backend} backend", flush=True)
    tty = sys.stdout.isatty()
    if tty:                     # one line, rewritten in place
        def progress(text):
            print(f"\r  {text:<70}", end="", flush=True)
    else:                       # in a log, a line per phase and then one a second at most
        progress = throttled(lambda text: print(f"  {text}", flush=True), 1)
    try:
        chip = gates and gates(progress)
        outcome = verify(backend, gates=chip, jobs=jobs, progress=progress)
    except Mismatch as difference:
        print(f"\nDIFFERENT: {difference}")
        return 1
    finally:
        if tty:
            print()             # below the progress line
    compared = (f"the chip's pins ({', '.join(chip.pins)})" if chip
                else "every pin and E.2 node")
    print(f"all {outcome.games} games agree: {outcome.presses} key presses, "
          f"{outcome.cycles} cycles, {compared} at every edge, "
          f"in {outcome.seconds:.1f} s ({outcome.cycles / outcome.seconds:,.0f} cycles/s)")
    return 0
