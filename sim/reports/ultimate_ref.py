"""The Ultimate Tic-Tac-Toe engine compiled, for a speed comparison: nodes per
second of the golden engine in Python, of this compiled reference and of the hardware
engine (hdl/ultimate/engine.py), side by side.

`sim/reports/ultimate_ref.cc` is the golden engine's search (firmware_ref/ultimate/engine.py)
written again in C++17 on bitboards, with the standard library only: the same move,
value and node count, step for step. The system's C++ compiler (``$CXX`` or ``c++``)
builds it on first use into ``build/ultimate_ref/``, and again whenever the .cc is
newer than the program. It reads ``BOARD LAST DEPTH`` lines and answers ``CELL VALUE
NODES`` for each, then the nodes and the seconds its searches took (timed in C++, so
that neither the pipe nor Python counts).

`run`, the command ``ttt engines [--positions 100] [--seed 1] [--depth 4] [--fmax
MHZ]``, searches positions of random games with both engines, compares every answer (the
first disagreement is one line and exit status 1) and prints a table of their nodes per
second. With ``--fmax``, the hardware engine searches them too, in Amaranth's simulator:
its clocks are counted, checked against its answers, and its nodes per second given at
that clock (the UP5K's fmax from ``make cost GAME=ultimate``).
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from firmware_ref.cli import UserError
from firmware_ref.ultimate import engine
from firmware_ref.ultimate.rules import positions, show

from sim import BUILD
from sim.tools import run_tool

__all__ = ["SOURCE", "OUTPUT", "CXXFLAGS", "SIMULATED_NODES_PER_S", "Timed", "build", "positions", "compiled",
           "golden", "hardware", "disagreement", "table", "run"]

SOURCE = Path(__file__).with_name("ultimate_ref.cc")
OUTPUT = BUILD / "ultimate_ref"
CXXFLAGS = ["-std=c++17", "-O2"]
# The hardware engine in Amaranth's simulator, measured on the project's 2-core machine
# (2026-11-25, load about 4): the default 100 positions, 71,929 nodes, in 129 s.
SIMULATED_NODES_PER_S = 555
PROGRESS_S = 10             # a line of progress at most this often


class Timed(NamedTuple):
    """An engine's answers to a list of searches, each (cell, value, nodes), and the
    nodes and seconds of all of them."""
    results: list
    nodes: int
    seconds: float

    @property
    def per_second(self):
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")


def build(output=OUTPUT):
    """The compiled reference's program in `output`, compiled first if it is missing or
    older than SOURCE."""
    program = Path(output) / "ultimate_ref"
    if program.exists() and program.stat().st_mtime >= SOURCE.stat().st_mtime:
        return program
    compiler = os.environ.get("CXX", "c++")
    if shutil.which(compiler) is None:
        raise UserError(f"no C++ compiler: {compiler!r} is not on the PATH (install g++ "
                        "or clang++, or set $CXX)")
    program.parent.mkdir(parents=True, exist_ok=True)
    # Compiled aside and renamed into place: an interrupted or parallel build never
    # leaves a half-written program where the next run would trust it.
    with tempfile.TemporaryDirectory(dir=program.parent) as work:
        run_tool([compiler, *CXXFLAGS, str(SOURCE), "-o", program.name], work,
                 "the C++ compiler", program.parent / "failed")
        os.replace(Path(work) / program.name, program)
    return program


def compiled(jobs, output=OUTPUT):
    """The compiled reference's Timed answers to `jobs`, a list of (position, depth)."""
    program = build(output)
    lines = "".join(f"{show(position)} {'-' if position.last is None else position.last} "
                    f"{depth}\n" for position, depth in jobs)
    done = subprocess.run([str(program)], input=lines, capture_output=True, text=True)
    if done.returncode:
        reason = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise UserError(f"the compiled reference failed: {reason}")
    *answers, timing = done.stdout.splitlines()
    _, _, nodes, _, seconds = timing.split()
    results = [tuple(map(int, answer.split())) for answer in answers]
    if len(results) != len(jobs):
        raise UserError(f"the compiled reference answered {len(results)} of {len(jobs)} "
                        "searches")
    return Timed(results, int(nodes), float(seconds))


def golden(jobs):
    """The golden engine's Timed answers to `jobs`, timed around engine.move alone."""
    results, seconds = [], 0.0
    for position, depth in jobs:
        began = time.perf_counter()
        results.append(engine.move(position, depth))
        seconds += time.perf_counter() - began
    return Timed(results, sum(nodes for _, _, nodes in results), seconds)


def hardware(jobs, mhz, *, progress=None):
    """The hardware engine's answers to `jobs` in Amaranth's simulator, timed as the
    clocks it searches at `mhz`. Every job must have one depth. `progress(done)` hears
    each job searched."""
    from amaranth.sim import Simulator
    from hdl.ultimate.engine import Engine
    depths = {depth for _, depth in jobs}
    if len(depths) != 1:
        raise UserError("the hardware engine searches one depth at a time")
    dut, answers, clocks = Engine(depths.pop()), [], [0]

    async def bench(ctx):
        for position, _ in jobs:
            ctx.set(dut.clear, 1)
            await ctx.tick()
            ctx.set(dut.clear, 0)
            for cell in range(81):
                stone = position.xs >> cell & 1 or position.os >> cell & 1
                ctx.set(dut.stone, stone)
                ctx.set(dut.stone_x, position.xs >> cell & 1)
                ctx.set(dut.at_b, cell // 9)
                ctx.set(dut.at_k, cell % 9)
                if stone:
                    await ctx.tick()
            ctx.set(dut.stone, 0)
            last = position.last or 0
            ctx.set(dut.put, 1)
            ctx.set(dut.put_b, last // 9)
            ctx.set(dut.put_k, last % 9)
            ctx.set(dut.put_has_last, position.last is not None)
            ctx.set(dut.put_x_turn, position.to_move() == "X")
            await ctx.tick()
            ctx.set(dut.put, 0)
            ctx.set(dut.run, 1)
            await ctx.tick()
            ctx.set(dut.run, 0)
            searched = 1
            while ctx.get(dut.searching):
                await ctx.tick()
                searched += 1
            clocks[0] += searched
            answers.append((9 * ctx.get(dut.best_b) + ctx.get(dut.best_k),
                            ctx.get(dut.value), ctx.get(dut.nodes)))
            if progress:
                progress(len(answers))

    simulator = Simulator(dut)
    simulator.add_clock(1e-6)
    simulator.add_testbench(bench)
    simulator.run()
    return Timed(answers, sum(nodes for _, _, nodes in answers), clocks[0] / (mhz * 1e6)), \
        clocks[0]


def disagreement(jobs, expected, actual, name="the compiled reference"):
    """None if the answers `actual` (of engine `name`) equal `expected` (lists of (cell,
    value, nodes), one a job), else one line naming the first search where they differ."""
    if len(expected) != len(actual):
        return f"{len(expected)} answers against {len(actual)}"
    for number, ((position, depth), want, got) in enumerate(zip(jobs, expected, actual)):
        if tuple(want) != tuple(got):
            last = "-" if position.last is None else position.last
            return (f"position {number} ({show(position)} {last}, depth {depth}): the "
                    f"golden engine says cell, value, nodes = {' '.join(map(str, want))}, "
                    f"{name} {' '.join(map(str, got))}")
    return None


def table(rows):
    """The engines' nodes, seconds and nodes per second, lined up."""
    lines = [("engine", "nodes", "seconds", "nodes/s")]
    lines += [(name, f"{t.nodes:,}", f"{t.seconds:.6f}", f"{t.per_second:,.0f}")
              for name, t in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(4)]
    return "\n".join(
        "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                  for i, (cell, w) in enumerate(zip(line, widths))).rstrip()
        for line in lines)


def run(count, seed, depth, fmax=None):
    """``ttt engines``: the engines on `count` positions of random games (`seed`)
    searched to `depth`, the hardware engine too at `fmax` MHz if given. The
    exit status: 1 at the first disagreement, said in one line."""
    jobs = [(position, depth) for position in positions(count, seed)]
    fast = compiled(jobs)
    slow = golden(jobs)
    found = disagreement(jobs, slow.results, fast.results)
    if found:
        print(f"error: {found}", file=sys.stderr)
        return 1
    print(f"{len(jobs)} positions of random games (seed {seed}), depth {depth}: "
          "the same move, value and nodes in both", flush=True)
    rows = [("Python (golden)", slow), ("compiled (C++ -O2)", fast)]
    if fmax is not None:
        print(f"the hardware engine searches them in Amaranth's simulator, about "
              f"{slow.nodes / SIMULATED_NODES_PER_S:.0f} s", flush=True)
        last = [time.monotonic()]

        def progress(done):
            if time.monotonic() - last[0] >= PROGRESS_S:
                last[0] = time.monotonic()
                print(f"  {done}/{len(jobs)} positions", flush=True)
        chip, clocks = hardware(jobs, fmax, progress=progress)
        found = disagreement(jobs, slow.results, chip.results, "the hardware engine")
        if found:
            print(f"error: {found}", file=sys.stderr)
            return 1
        rows.append((f"hardware at {fmax:g} MHz", chip))
        print(f"the hardware engine agrees: {clocks:,} clocks, "
              f"{clocks / chip.nodes:.3f} a node")
    print(table(rows))
    return 0
