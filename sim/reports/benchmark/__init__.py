"""Every cost of the project, measured side by side in one run: ``make benchmark``.

    ttt benchmark [--repeats N] [--quick] [--icarus-games] [--out DIR]

It measures, on this machine, a module a part:
  - `speeds`: cycles per second of the golden model and of every simulator of
    sim.backends' table on the same workload (`workload`: random sessions at the pins,
    every probe read every cycle), one chip and many side by side;
  - `cartridge`: the same of the largest cartridge on every game of its golden model;
  - `every_game`: the wall time of the exhaustive check, every game in lockstep
    (sim.verification.verify), on each simulator and gate by gate on the boards'
    netlists, and ``make verify GAME=<game>`` for every game;
  - `think_times`: the chip's think time per move over every position a user can reach
    (golden model), with a histogram (PNG);
  - `tiles`: the chip and the Tiny Tapeout top (`tinytapeout`, from the caller) in
    SkyWater 130 nm cells: cells, area and tiles;
  - `console`: for each board built with ``make bitstream``, its logic cells,
    flip-flops, fmax and worst time per move; the time from a key's click to the
    LEDs' answer on the page of ``make serve``, through the board in a box; and the
    server under a classroom's load (its pages' moves, a flood of the chip's clock, its
    memory).
Every simulator is made by its name in sim.backends.SIMULATORS and timed through the
protocol's `run` (`timing`). The boards come from the caller (``ttt``), as
boards/builds/netlists.py makes them, and so do the browser's measurement and the
classroom's (`web` and `classroom`, functions that measure them): the console is above sim/. Each figure is the median of
repeated runs (a slow one is timed once); nothing fails because the machine is slow:
`targets` are reported as ratios. `report` writes ``build/BENCHMARKS.md`` (or in --out),
``build/benchmark.json`` and ``build/benchmark/think_times.png``. The committed
BENCHMARKS.md is a copy of one such run on a 2-core machine, copied by hand, so that a
run elsewhere never overwrites it.
"""

import time
from datetime import datetime, timezone

from firmware_ref.cli import UserError

from sim import BUILD, Mismatch

from . import (cartridge, console, die, every_game, report, speeds, targets, think_times,
               tiles, workload)
from .machine import machine

__all__ = ["measure", "run"]


def measure(*, repeats=5, quick=False, icarus_games=False, boards=(), built=None,
            web=None, classroom=None, site=None, tinytapeout=None, log=print):
    """Every figure of the benchmark, as ``build/benchmark.json`` keeps them."""
    started = datetime.now(timezone.utc)
    count, wide = (1, 32) if quick else (4, 256)
    result = {"date": started.isoformat(timespec="seconds"), "machine": machine(),
              "command": "make benchmark" if not quick else "ttt benchmark --quick",
              "workload": {"sessions": count, "cycles_per_session": workload.SESSION_CYCLES,
                           "wide_sessions": wide}}
    chip = result["speed"] = speeds.speeds(repeats=repeats, count=count, wide=wide, log=log)
    result["cartridge_speed"] = cartridge.cartridge_speeds(repeats=repeats, quick=quick,
                                                           chip=chip, log=log)
    result["all_games"] = every_game.all_games(
        repeats=max(1, repeats // 2 + 1) if not quick else 1, quick=quick,
        icarus=icarus_games, boards=boards, chip=chip, log=log)
    result["each_game"] = every_game.each_game(quick=quick, log=log)
    log("think times over every position")
    result["think_times"] = think_times.think_times(BUILD / "benchmark" / "think_times.png")
    result["boards"] = console.board_reports(boards if built is None else built)
    result["web"] = console.measured(web, "the console in a browser: click to lights",
                                     quick, log)
    result["classroom"] = console.measured(classroom, "the console under a classroom's load",
                                           quick, log)
    result["site"] = console.measured(site, "the static site in a browser", quick, log)
    result["sky130"] = tiles.figures(tinytapeout, log=log)
    result["die"] = die.figures(log) if not quick else {"missing": "not run with --quick"}
    result["targets"] = targets.targets(result)
    result["seconds"] = (datetime.now(timezone.utc) - started).total_seconds()
    return result


def run(*, repeats=5, quick=False, icarus_games=False, boards=(), built=None, web=None,
        classroom=None, site=None, tinytapeout=None, out=BUILD):
    """``ttt benchmark``: measure, `boards` (sim.verification.gatelevel.Board, checked
    gate by gate), `built` (every board whose build report the Boards table shows; by
    default `boards`) and the console in a browser (`web()`) among it, with a timed log
    line per step, and write the report into `out`."""
    start = time.perf_counter()

    def log(text):
        print(f"[{time.perf_counter() - start:6.1f} s] {text}", flush=True)
    try:
        result = measure(repeats=1 if quick else repeats, quick=quick,
                         icarus_games=icarus_games, boards=boards, built=built, web=web,
                         classroom=classroom, site=site, tinytapeout=tinytapeout,
                         log=log)
    except Mismatch as difference:
        raise UserError("a simulator differs from the golden model, so nothing is "
                        f"reported: {str(difference).splitlines()[0]}") from None
    path = report.write(result, out)
    print(f"wrote {path}, build/benchmark.json and {result['think_times']['png']}")
    return 0
