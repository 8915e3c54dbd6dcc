"""The chip's three lockstep checks by name, on a Bench of any simulator
(sim.bench.lockstep), and ``ttt netlist``, which runs them on the exported netlist
under cocotb (`run_tests`):

- ``e2_session``: the paper's E.2 session, row for row against its trace;
- ``whole_games``: every game from the chosen openings, each press;
- ``random_keys``: a careless person at the pins: resets mid-search, chords, held
  keys, setups.

Each takes the simulator and its options and returns the lines it says of itself; a
difference from the golden model or the paper raises `Mismatch`. `run` runs them and
writes their logs; `run_tests` is the command, which builds the netlist first and
prints a line per check.
"""

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

from firmware_ref.cli import UserError

from sim import BUILD, ROOT, Mismatch
from sim.backends.netlist import (VERILATOR_S, SimulatorMissing, build, waves_path,
                                  write_gtkw)
from sim.bench import lockstep
from sim.chip import e2, games, lanes
from sim.chip.stimulus import random_session
from sim.chip.view import SCOPE
from sim.waves.show import show

__all__ = ["CHECKS", "TESTS", "OPENINGS", "SESSION_EDGES", "Result", "e2_session",
           "whole_games", "random_keys", "named_openings", "openings_type", "run",
           "run_tests", "waves"]

SESSION_EDGES = 1500        # a random session's length
OPENINGS = "user,0"         # the games check's default: the user begins, the chip at A1


def e2_session(simulator, *, waves=None, **_):
    """E.2 on `simulator`, its waves to `waves` (a path)."""
    rows = lockstep.simulate(lockstep.replaying_e2, simulator=simulator, vcd=waves)
    differences = e2.compare(rows, e2.paper_rows(), hardware=True)
    if differences:
        raise Mismatch("E.2 differs from the paper's trace:\n" +
                       "\n".join(map(str, differences[:10])))
    return [f"E.2: all {len(rows)} rows match the paper's trace"]


def whole_games(simulator, *, openings=games.OPENINGS, **_):
    """Every game from `openings` (sim.chip.games.OPENINGS' items), one after another."""
    presses, _ = lanes.presses(openings)
    said = []

    async def testbench(bench):
        for opening in openings:
            restored = await lockstep.run(
                bench, games.walking_games(bench, opening, presses[opening]))
            said.append(f"opening {'user' if opening is None else opening}: "
                        f"{len(presses[opening])} presses, {restored} restores, "
                        f"{bench.cycle} cycles so far")
    lockstep.simulate(testbench, simulator=simulator)
    return said


def random_keys(simulator, *, sessions=4, **_):
    """`sessions` random sessions, one after another."""
    async def testbench(bench):
        for seed in range(sessions):
            for inputs in random_session(random.Random(seed), SESSION_EDGES):
                bench.set(inputs)
                await bench.tick()
        return bench.cycle
    cycles = lockstep.simulate(testbench, simulator=simulator)
    return [f"{sessions} random sessions, {cycles} cycles"]


CHECKS = {"e2_session": e2_session, "whole_games": whole_games, "random_keys": random_keys}
TESTS = tuple(CHECKS)


def named_openings(text):
    """The openings `text` names: 'all', or a comma list of 'user' and 0 to 7 (a
    ValueError says what else it may be)."""
    if text == "all":
        return list(games.OPENINGS)
    items = text.split(",")
    if not all(item == "user" or len(item) == 1 and item in "01234567" for item in items):
        raise ValueError(f"{text!r}: say 'all', or a comma list of 'user' and 0 to 7, "
                         f"e.g. user,0")
    return [None if item == "user" else int(item) for item in items]


@dataclass(frozen=True)
class Result:
    """A check's end: whether it passed, and where not, the Mismatch's text."""
    test: str
    passed: bool
    message: str = ""


def run(simulator, tests=TESTS, *, waves=None, openings=OPENINGS, sessions=4, logs=None):
    """Run the checks `tests` on a Bench of `simulator` (the chip's netlist on Verilator
    or Icarus, lockstep.chip_simulator); return a Result per test. With `waves` (a
    path), E.2's waves go there. Each test's log, what it said and the simulator's own,
    goes to ``<test>.log`` in `logs` (by default ``build/cocotb/<simulator>/``)."""
    logs = Path(logs or BUILD / "cocotb" / simulator.name)
    logs.mkdir(parents=True, exist_ok=True)
    results = []
    for test in tests:
        log = logs / f"{test}.log"
        try:
            said = CHECKS[test](simulator, waves=waves, openings=named_openings(openings),
                                sessions=sessions)
            result = Result(test, True)
        except Mismatch as mismatch:
            said, result = [str(mismatch)], Result(test, False, str(mismatch))
        # A simulator that logs its runs (a netlist under cocotb) adds its last one.
        ran = getattr(simulator, "run_log", None)
        log.write_text("\n".join(said) + "\n\n" +
                       (ran.read_text() if ran and ran.exists() else ""))
        results.append(result)
    return results


def waves(simulator):
    """The netlist's E.2 waves on `simulator`, written by its E.2 check only if they
    are missing or cannot be read (they take a Verilator build), with their view,
    opened as the chip's other E.2 waves are (sim.bench.session)."""
    from sim.waves.files import WavesError
    vcd = waves_path(simulator)
    try:
        shown = write_gtkw(vcd)
    except WavesError:
        status = run_tests(simulator, ["e2_session"])
        if status:
            return status
        try:
            shown = write_gtkw(vcd)
        except WavesError as error:
            raise UserError(str(error)) from None
    return show(vcd, shown, what="the E.2 session", scope=SCOPE)


def openings_type(text):
    """An argparse type: the text `named_openings` reads, checked."""
    try:
        named_openings(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _about(simulator, step):
    """About how long `step` takes on `simulator`, as words, if it was measured."""
    seconds = VERILATOR_S.get(step) if simulator == "verilator" else None
    return f"about {seconds} s" if seconds else None


def run_tests(simulator, tests=TESTS, *, openings=OPENINGS, sessions=4):
    """Build the exported netlist on `simulator` and run `tests` on it, each with its
    log and the E.2 session's waves; prints a line per test as it begins (with about how
    long it takes, where measured) and ends; 1 if any failed."""
    took = _about(simulator, "build")
    try:
        build(simulator, announce=lambda log: print(
            f"building the exported netlist on {simulator} ("
            f"{took + ' the first time; ' if took else ''}log: {log.relative_to(ROOT)})",
            flush=True))
    except SimulatorMissing as missing:
        raise UserError(f"cannot run the netlist: {missing}") from None
    chip = lockstep.chip_simulator(simulator)   # the build above, found in the cache
    failed = 0
    for test in tests:
        took = _about(simulator, test) if test != "whole_games" or openings == OPENINGS \
            else None
        print(f"running {test} on {simulator}" + (f" ({took})" if took else ""), flush=True)
        written = waves_path(simulator) if test == "e2_session" else None
        (result,) = run(chip, [test], waves=written, openings=openings, sessions=sessions)
        log = BUILD / "cocotb" / simulator / f"{test}.log"
        print(f"{'PASS' if result.passed else 'FAIL'} {test} on {simulator} "
              f"(log: {log.relative_to(ROOT)})", flush=True)
        if not result.passed:
            failed += 1
            print(result.message)
        if written is not None and written.exists():
            print(f"  waves: {written.relative_to(ROOT)}, view: "
                  f"{write_gtkw(written).relative_to(ROOT)}")
    return 1 if failed else 0


