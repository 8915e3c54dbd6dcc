"""Cycles per second of every way to simulate the chip, on one workload (random sessions
at its pins, sim.reports.benchmark.workload; every probe read after every edge): the
golden model, alone and in batch, then every simulator of sim.backends' table, fastest
first, made by its name there and timed through the protocol's `run`.

Each simulator runs the sessions one after the other on one chip; those that run many
lanes at once, and would run the many sessions side by side in a couple of seconds by
that figure, run them too; and the simulator that checks in bit planes
(``check_planes``, the bit-parallel chips) checks them against the golden model's
recording, as make verify does. Every figure is then a ratio of plain Verilator's on the
same shape of work (`over_plain_verilator`)."""

import os

import numpy as np

from firmware_ref.eth.batch import record_session
from firmware_ref.eth.cycle import CycleModel

from sim import Mismatch, backends, catalogue
from sim.backends import BackendMissing
from sim.chip import lanes

from . import machine, workload
from .timing import GOLDEN, INSIDE, PEER, missing, row, run_timed, timed, title

__all__ = ["CHECKED", "WIDE_S", "speeds", "over_plain_verilator"]

CHECKED = "lanes, checked in bit planes"
# The many sessions side by side only on a simulator whose one chip says that they take
# under this: Amaranth's simulator would take a minute.
WIDE_S = 2


def speeds(*, repeats, count, wide, log):
    """Every row of the speed table: `count` sessions on one chip, `wide` side by side."""
    one, many = workload.sessions(count), workload.sessions(wide)
    rows = golden(one, many, repeats, log)
    for name in backends.SIMULATORS:
        rows += simulator_rows(name, one, many, repeats, log)
    return over_plain_verilator(rows)


def golden(one, many, repeats, log):
    """The golden model's rows: on one chip, its probe read every cycle and recorded in
    batch; the many sessions recorded in batch, a process a core."""
    same, cycles = workload.one_chip_mode(len(one)), len(one) * workload.SESSION_CYCLES
    log("golden model: probe every cycle")
    runs, _ = timed(lambda: _probe(one), repeats)
    rows = [row(GOLDEN, same + ", Probe read every cycle", cycles, runs)]
    runs, _ = timed(lambda: [record_session(session) for session in one], repeats)
    rows.append(row(GOLDEN, same + ", batch recording", cycles, runs))
    runs, _ = timed(lambda: _parallel(many), repeats)
    rows.append(row(GOLDEN, f"{len(many)} sessions, batch recording, "
                    f"{os.cpu_count()} processes", len(many) * workload.SESSION_CYCLES,
                    runs))
    return rows


def _probe(sessions):
    chip = CycleModel()
    for session in sessions:
        for inputs in session:
            chip.set(inputs)
            chip.tick()
            _ = chip.probe      # reading it is what is timed


def _recorded_cycles(session):
    return len(record_session(session).rows)


def _parallel(sessions):
    with lanes.pool(os.cpu_count() or 1) as workers:
        return sum(workers.map(_recorded_cycles, sessions, chunksize=4))


def simulator_rows(name, one, many, repeats, log):
    """The rows of simulator `name` of sim.backends.SIMULATORS: the sessions `one` on one
    chip; the sessions `many` side by side where it runs them in little time; checked in
    bit planes where it can."""
    shown, same = title(name), workload.one_chip_mode(len(one))
    log(shown)
    try:
        simulator = backends.make(name, catalogue.CHIP, log=log)
    except BackendMissing as why:
        return [missing(shown, same, str(why))]
    single = workload.one_chip(one)
    runs, _, inside = run_timed(simulator, single, np.array([single.shape[1]]),
                                 repeats)
    figure = row(shown, same, single.shape[1], runs, INSIDE if inside else "")
    cycles = len(many) * workload.SESSION_CYCLES
    if simulator.lanes == 1 or cycles / figure["cycles_per_s"] > WIDE_S:
        return [figure]
    figure["mode"] = same + ", batch"       # beside its batch of many lanes
    side_by_side = workload.inputs(many)
    full = np.full(len(many), workload.SESSION_CYCLES)
    runs, _, _ = run_timed(simulator, side_by_side, full, repeats)
    rows = [figure, row(shown, f"{len(many)} lanes, batch", cycles, runs)]
    if hasattr(simulator, "check_planes"):
        rows.append(_checked(simulator, many, side_by_side, repeats))
    return rows


def _checked(simulator, many, side_by_side, repeats):
    """make verify's way: each probe compared in bit planes with the golden model's
    recording, packed once beforehand (make verify caches it so), nothing read out."""
    from sim.backends.bitlanes import Planes
    full = np.full(len(many), workload.SESSION_CYCLES)
    planes = Planes.of(np.zeros(len(many), np.uint32), side_by_side,
                       workload.expected(many), full, simulator.widths)
    runs, differ = timed(lambda: simulator.check_planes(planes), repeats)
    if differ:
        raise Mismatch(f"the {simulator.name} simulator differs from the golden model in "
                       f"lanes {differ[0]} to {differ[-1]} (make verify names where)")
    return row(title(simulator.name), f"{len(many)} {CHECKED}",
               len(many) * workload.SESSION_CYCLES, runs,
               "every probe compared with the golden model's recording after every "
               "edge, as make verify does") | {"ops": simulator.ops,
                                               "clock_hz": machine.clock_hz()}


def over_plain_verilator(rows):
    """Each row's cycles per second over plain Verilator's on the same shape of work:
    a row of many lanes over Verilator's many lanes, any other over its one chip."""
    def wide(entry):
        return entry["mode"].split(",")[0].endswith("lanes") or \
            entry["mode"].endswith("processes")
    plain = {wide(entry): entry["cycles_per_s"] for entry in rows
             if entry["simulator"] == PEER and "cycles_per_s" in entry}
    for entry in rows:
        base = plain.get(wide(entry))
        if "cycles_per_s" in entry and base:
            entry["over_plain_verilator"] = entry["cycles_per_s"] / base
    return rows
