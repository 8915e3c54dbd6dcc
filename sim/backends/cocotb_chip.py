"""cocotb tests of the exported netlist ``ttt_chip`` against the golden model.

Loaded by cocotb inside the simulator (`sim.backends.netlist` runs it); not for pytest to collect.
A `NetlistBench` drives the netlist through its pins only and feeds the golden model the
same inputs. Twice per clock it compares every output pin and the internal nodes E.2
prints (`sim.chip.signals.PROBE_PATHS`): just before the rising edge, with the new inputs
applied, and just after it. Inputs change at the falling edge, as in E.1.

Environment (set by `sim.backends.netlist`):
    TTT_OPENINGS           openings of the games test: "user", digits 0-7, or "all"
    TTT_RANDOM_SESSIONS    how many random sessions of 1500 edges
"""

import logging
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

from firmware_ref.eth.cycle import CycleModel
from sim import Mismatch
from sim.chip import e2, games, lanes, lockstep
from sim.chip.signals import INPUT_PINS, PERIOD_NS, PROBE_PATHS
from sim.chip.stimulus import random_session

LOG = logging.getLogger("ttt.netlist")    # cocotb's own loggers are its own (its docs)
LOG.setLevel(logging.INFO)                # the logs that sim.backends.netlist and its tests read


def drive(dut, inputs):
    """Apply `inputs` (firmware_ref.eth.cycle.Inputs) to the netlist's input pins."""
    for name in INPUT_PINS:
        getattr(dut, name).value = getattr(inputs, name)


def probes(dut):
    """The netlist's handle of each probe signal, by PROBE_PATHS name."""
    found = {}
    for name, path in PROBE_PATHS.items():
        handle = dut
        for part in path.split("."):
            handle = getattr(handle, part)
        found[name] = handle
    return found


class NetlistBench(lockstep.PinBench):
    """The netlist in a cocotb simulation (`dut`) and the golden model beside it."""

    def __init__(self, dut, model):
        super().__init__(model)
        self.dut = dut
        self.probes = probes(dut)
        self.before = self.after = None

    def _drive(self, inputs):
        drive(self.dut, inputs)

    def _read(self):
        values = {}
        for name, handle in self.probes.items():
            try:
                values[name] = int(handle.value)
            except ValueError:
                raise Mismatch(f"cycle {self.cycle}: {name} is {handle.value} in the "
                               f"netlist") from None
        return values

    async def _edge(self):
        await ReadOnly()                # the new inputs have settled
        self.check()
        self.before = self.probe
        await RisingEdge(self.dut.cp)
        await ReadOnly()

    async def _after(self):
        self.after = self.probe
        await FallingEdge(self.dut.cp)  # where the protocol applies the next inputs


async def power_up(dut, model=None):
    """Start the clock (rising edges at 200 ns, 400 ns, ... as in E.2) and return a
    bench whose golden model powered up with the netlist (random counter 0)."""
    bench = NetlistBench(dut, model or CycleModel())
    dut.cp.value = 0
    dut.scan.value = 0
    dut.scanin.value = 0
    drive(dut, bench.model.inputs)
    await Timer(1, unit="ns")
    await ReadOnly()
    bench.check()                       # the power-up values
    await Timer(PERIOD_NS // 2 - 1, unit="ns")
    Clock(dut.cp, PERIOD_NS, unit="ns").start(start_high=False)
    return bench


@cocotb.test()
async def e2_session(dut):
    """The paper's E.2 session: in lockstep, and row for row against the paper."""
    bench = await power_up(dut)
    rows = []
    for n, inputs in enumerate(e2.SESSION, start=1):
        bench.set(inputs)
        await bench.tick()
        rows += [e2.row(n, inputs, bench.before, after=False),
                 e2.row(n, inputs, bench.after, after=True)]
    differences = e2.compare(rows, e2.paper_rows(), hardware=True)
    assert not differences, "\n".join(map(str, differences[:10]))
    LOG.info("E.2: all %d rows match the paper's trace", len(rows))


def _openings():
    wanted = os.environ.get("TTT_OPENINGS", "all")
    if wanted == "all":
        return list(games.OPENINGS)
    return [None if item == "user" else int(item) for item in wanted.split(",")]


@cocotb.test()
async def whole_games(dut):
    """Every game from the chosen openings, each press in lockstep."""
    bench = await power_up(dut)
    openings = _openings()
    presses, _ = lanes.presses(openings)
    for opening in openings:
        restored = await lockstep.run(
            bench, lockstep.walking_games(bench, opening, presses[opening]))
        LOG.info("opening %s: %d presses, %d restores, %d cycles so far",
                      "user" if opening is None else opening, len(presses[opening]),
                      restored, bench.cycle)
    assert sum(map(len, presses.values())) > 0


@cocotb.test()
async def random_keys(dut):
    """A careless person at the pins: resets mid-search, chords, held keys, setups."""
    bench = await power_up(dut)
    sessions = int(os.environ.get("TTT_RANDOM_SESSIONS", "4"))
    for seed in range(sessions):
        for inputs in random_session(random.Random(seed), 1500):
            bench.set(inputs)
            await bench.tick()
    LOG.info("%d random sessions, %d cycles", sessions, bench.cycle)
