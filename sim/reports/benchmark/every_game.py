"""The wall time of every game in lockstep: the exhaustive check of the chip
(sim.verification.verify, ``make verify``) on every simulator of sim.backends' table,
made by its name there, and gate by gate on the boards' netlists; and ``make verify
GAME=<game>`` for every game of the catalogue on its default simulator."""

import os
import statistics

from firmware_ref.cli import UserError

from sim import backends, catalogue
from sim.backends import BackendMissing
from sim.chip import lanes
from sim.verification import gatelevel, verify

from .timing import GOLDEN, speed, timed, title

__all__ = ["QUICK_S", "OPT_IN", "all_games", "gate_level", "each_game"]

# With --quick, every game only on the simulators whose speed on the chip says it takes
# under this.
QUICK_S = 5
# The slowest simulator: every game on it only when asked (ttt benchmark --icarus-games).
OPT_IN = "icarus"


def _every(seconds, log):
    """A progress callback for sim.verification.verify: an indented line of `log` for
    each new phase, and within one at most a line in `seconds`."""
    return verify.throttled(lambda text: log(f"  {text}"), seconds)


def _outcome(name, runs, outcome):
    return {"simulator": name, "runs": len(runs), "seconds": statistics.median(runs),
            "cycles": outcome.cycles, "presses": outcome.presses, "games": outcome.games}


def all_games(*, repeats, quick, icarus, boards, chip, log):
    """The golden model's recording alone, then the exhaustive check on each simulator
    of the table and on each of `boards`' netlists. `chip`: the speed table's rows
    (sim.reports.benchmark.speeds), whose figures say which are quick; `icarus`: run
    OPT_IN too."""
    planned, _ = lanes.plan()
    runs, recorded = timed(lambda: lanes.rows(planned), repeats)
    cycles = sum(len(r) for r in recorded)
    rows = [{"simulator": f"{GOLDEN} alone (recording, {os.cpu_count()} processes)",
             "runs": len(runs), "seconds": statistics.median(runs), "cycles": cycles}]
    for name in backends.SIMULATORS:
        rows.append(_checked(name, cycles, repeats=repeats, quick=quick, icarus=icarus,
                             chip=chip, log=log))
    rows += [{"simulator": "gate level (the boards' netlists)",
              "missing": "not run with --quick"}] if quick else gate_level(boards, log)
    return rows


def _checked(name, cycles, *, repeats, quick, icarus, chip, log):
    """The exhaustive check on simulator `name` as make verify runs it, timed `repeats`
    times: made once before, untimed, to build it and to find one that cannot run."""
    shown, progress = title(name), _every(5, log)
    on_chip = speed(chip, shown)
    if quick and name != OPT_IN and not (on_chip and cycles / on_chip <= QUICK_S):
        return {"simulator": shown, "missing": "not run with --quick"}
    try:
        simulator = backends.make(name, catalogue.CHIP, log=progress)
    except BackendMissing as why:
        return {"simulator": shown, "missing": str(why)}
    if name == OPT_IN and not icarus:
        return {"simulator": shown, "missing": "installed, but not run without "
                "--icarus-games (the slowest simulator"
                + (f": about {cycles / on_chip:,.0f} s at its speed on the chip)"
                   if on_chip else ")")}
    if hasattr(simulator, "check"):
        shown += ", checked in bit planes against the cached recording"
    log(f"every game on {shown}")
    runs, outcome = timed(lambda: verify.verify(name, progress=progress), repeats)
    return _outcome(shown, runs, outcome)


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
                runs, outcome = timed(lambda: verify.verify(
                    gates=gatelevel.Gates(kind, board, log=progress), progress=progress), 1)
            except UserError as missing:        # a tool missing or failing
                rows.append({"simulator": name, "missing": str(missing)})
                continue
            except gatelevel.CutFailed as failed:
                rows.append({"simulator": name,
                             "missing": f"the chip cannot be cut out soundly: {failed}"})
                continue
            rows.append(_outcome(name, runs, outcome))
    return rows


def each_game(*, quick, log):
    """`make verify GAME=<game>` for every game on its default simulator, twice: this
    run's first (it builds and records what the caches lack) and again, all cached."""
    if quick:
        return [{"game": "every game", "missing": "not run with --quick"}]
    from sim.cartridges.lockstep import lockstep

    def check(game, backend):
        if game.chip:               # make verify's default: the chip, every game
            return verify.verify(backend).cycles
        return lockstep(game, backend=backend, cache=True).clocks
    rows = []
    for game in catalogue.games():
        try:
            backend = verify.fastest(game)[0]
            log(f"make verify GAME={game.name}")
            runs, cycles = timed(lambda: check(game, backend), 2, budget=None)
        except BackendMissing as missing:
            rows.append({"game": game.name, "missing": str(missing)})
            continue
        rows.append({"game": game.name, "backend": backend, "cycles": cycles,
                     "first_s": runs[0], "again_s": runs[1]})
    return rows
