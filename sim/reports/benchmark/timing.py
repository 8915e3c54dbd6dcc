"""How the benchmark times a figure and makes it a row of a table: the simulators'
titles (by their names in sim.backends' table), repeated runs, a simulator's run timed
as the simulation alone, and a row's figure or the reason it has none."""

import statistics
import time
import xml.etree.ElementTree as ElementTree

import numpy as np

from firmware_ref.cli import UserError

from sim.backends import PLAIN_VERILATOR

__all__ = ["GOLDEN", "TITLES", "PEER", "INSIDE", "BUDGET_S", "IDLE", "title", "timed",
           "run_timed", "row", "missing", "speed"]

GOLDEN = "golden model"
# How the tables title each simulator of sim.backends.SIMULATORS, by its name there.
TITLES = {
    "bitlanes": "bit-parallel chips (64 to a word)",
    "verilator-cxx": "Verilator + C++ harness",
    "compiled": "compiled (CXXRTL)",
    "verilator": "cocotb + Verilator",
    "amaranth": "Amaranth simulator",
    "icarus": "cocotb + Icarus",
}
# The peer every speed is a ratio of: what an FPGA engineer would write.
PEER = TITLES[PLAIN_VERILATOR]
INSIDE = "timed inside the simulation, build and start-up excluded"
# A figure is repeated until its runs take this long together: a slow one is timed once.
BUDGET_S = 10
# Runs of no clocks whose least is taken off a run's seconds (`run_timed`); and the least
# a run of clocks takes, should noise take off more.
IDLE = 5
RESOLUTION = time.get_clock_info("perf_counter").resolution


def title(name):
    """Simulator `name` (sim.backends.SIMULATORS) as the tables title it."""
    return TITLES.get(name, name)


def timed(function, repeats, clock=None, budget=BUDGET_S):
    """Seconds of each call of `function`, and its last result: `repeats` calls, or
    fewer once they took `budget` seconds together (None: every one). With `clock`, a
    call's seconds are what `clock()` says after it."""
    runs, result = [], None
    while len(runs) < repeats and (budget is None or sum(runs) <= budget):
        start = time.perf_counter()
        result = function()
        runs.append(clock() if clock else time.perf_counter() - start)
    return runs, result


def _cocotb_clock(simulator):
    """For a simulator under cocotb (sim.backends.netlist.Cocotb), which starts a
    simulator process for each run (seconds with no simulation in them): what cocotb
    timed of its last run's test, inside the simulation. None for any other."""
    from sim.backends.netlist import Cocotb
    if not isinstance(simulator, Cocotb):
        return None
    # Where its run has cocotb write the results of the test that runs the lanes.
    results = simulator.built.directory / "lanes.xml"

    def seconds():
        try:
            return float(next(ElementTree.parse(results).iter("testcase")).get("time"))
        except (OSError, ElementTree.ParseError, StopIteration, TypeError):
            raise UserError(f"cocotb's timing of the run is not in {results}") from None
    return seconds


def run_timed(simulator, inputs, lengths, repeats, power_up=None):
    """Runs of the protocol's ``simulator.run(inputs, lengths, power_up)``
    (sim.backends), timed as the simulation alone: the seconds of each, its outputs, and
    whether cocotb timed them. Each run makes fresh lanes from power-up, which takes
    some simulators milliseconds whatever the clocks (the compiled chip finds its model
    and builds every lane): the least of IDLE runs of no clocks is taken off each."""
    clock = _cocotb_clock(simulator)
    runs, outputs = timed(lambda: simulator.run(inputs, lengths, power_up), repeats,
                          clock=clock)
    if clock is None:
        empty = np.zeros((len(inputs), 0, inputs.shape[2]), np.uint32)
        idle, _ = timed(lambda: simulator.run(empty, np.zeros(len(inputs), np.int64),
                                              power_up), max(len(runs), IDLE))
        # The least: what a machine busy with something else adds is never taken off.
        runs = [max(seconds - min(idle), RESOLUTION) for seconds in runs]
    return runs, outputs, clock is not None


def row(name, mode, cycles, runs, note=""):
    """A figure: `cycles` in the median of `runs` (seconds)."""
    seconds = statistics.median(runs)
    return {"simulator": name, "mode": mode, "cycles": cycles, "runs": len(runs),
            "seconds": seconds, "cycles_per_s": cycles / seconds, "note": note}


def missing(name, mode, reason):
    """A row without a figure, and why."""
    return {"simulator": name, "mode": mode, "missing": reason}


def speed(rows, simulator, mode=""):
    """The cycles per second of `simulator`'s first row (by its title) whose mode begins
    with `mode`, or None."""
    return next((row["cycles_per_s"] for row in rows if row["simulator"] == simulator
                 and row.get("mode", "").startswith(mode) and "cycles_per_s" in row), None)
