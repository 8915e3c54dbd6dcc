"""Proofs of the chip and of its netlists: ``make formal`` (docs/formal.md).

``ttt formal`` runs, with SBY, Yosys and Yices from PyPI:

1. the properties of sim.verification.formal.harness by k-induction, and for each a bounded check
   without each input assumption, to show the ones it needs;
2. a bounded check without each assumption, whose failing trace is kept as a VCD;
3. each cover, for its shortest trace; the deep ones (jobs.DEEP) and any the solver does
   not reach within COVER_TIMEOUT from a set-up that ends in a game's position
   (sim.verification.formal.guides; ``--no-covers`` leaves them out);
4. every mutant controller of sim.verification.mutants, to see which the properties catch,
   the check that caught it in the last run first (``--no-mutants``);
5. the equivalence of the RTL with the exported Verilog, synth_ice40's netlist and the
   chip of each board build that the caller passes in (`boards`, made by
   boards/builds/netlists.py), synthesised and routed (sim.verification.equiv, which
   docs/equivalence.md explains; ``--no-equiv``). A board whose bitstream is missing or
   older than the sources is built first, as ``make bitstream`` does; a board whose
   chip is the very netlist of another board's pair takes that proof (equiv.Proofs),

each job a task of its own, `workers` at once, the longest of the last run first
(`parallel`), and writes build/formal/report.md and report.json (with each task's time
and the last whole runs), each whole or not at all. The exit status is 1 when a property
is not proven, a cover not reached, a mutant not caught or a netlist not equivalent.
"""

import functools
import json
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from firmware_ref.cli import UserError, replacing

from sim.verification.formal import jobs, sby
from sim.verification.formal.harness import ASSUMPTIONS, COVERS, PROPERTIES
from sim.verification import equiv
from sim.verification.mutants import mutants

__all__ = ["REPORT", "run", "parallel"]

_BUILDING = threading.Lock()
REPORT = sby.WORK / "report"
# The time limit of a cover's job under every assumption, before it is tried from a
# game's position: each takes 15 s at most (the deep ones, jobs.DEEP, start there).
COVER_TIMEOUT = 60


def _routed(boards, log):
    """Make sure each board's routed netlist is there, from the sources as they are."""
    for board in boards:
        try:
            board.routed()
        except UserError:
            log(f"building the {board.name}'s bitstream for its routed netlist")
            board.bitstream()


def parallel(tasks, workers, log=print, last=None, stop=lambda: None):
    """Run `tasks` ({key: function}) on `workers` threads (each job is a process),
    the longest first by the seconds of the last run (`last`, {key: seconds}); return
    ({key: result}, {key: seconds}). Interrupted (Ctrl-C), it starts no more tasks and
    calls `stop` to end those running, rather than wait for every one."""
    last = last or {}
    order = sorted(tasks, key=lambda key: -last.get(key, 0))
    results, seconds = {}, {}
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        running = {pool.submit(_timed, tasks[key]): key for key in order}
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                key = running.pop(future)
                results[key], seconds[key] = future.result()
                log(f"{key}: {seconds[key]:.1f} s")
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        stop()
        raise
    pool.shutdown()
    return results, seconds


def _timed(task):
    start = time.monotonic()
    result = task()
    return result, time.monotonic() - start


def _last():
    """The last run's report.json, or {}."""
    try:
        return json.loads(REPORT.with_suffix(".json").read_text())
    except (OSError, ValueError):
        return {}


def order(last, seconds, caught):
    """What orders the next run, from the `last` report.json and this run's `seconds`
    and mutant verdicts (`caught`; None when it ran no mutants): each task's seconds
    (`parallel`'s longest first) and each mutant's verdict (its catching check first).
    A part this run left out keeps its earlier figures, so that ``--no-mutants`` or
    ``--no-covers`` does not cost the next whole run its order."""
    before = last.get("order", {"seconds": last.get("seconds", {}),
                                "verdicts": last.get("mutants", {})})
    return {"seconds": {**before["seconds"], **seconds},
            "verdicts": before["verdicts"] if caught is None else dict(caught)}


def _tasks(boards, covers, mutated, equivalence, log, verdicts, by_netlist=None):
    """The tasks of a run; `verdicts` are the last run's ({mutant: verdict});
    `by_netlist` the equivalence's proofs by the netlist they are of (equiv.Proofs,
    which settles what the tasks return)."""
    tasks = {"proof": functools.partial(jobs.proof, PROPERTIES)}
    for name in PROPERTIES:
        for assumption in jobs.FALSIFY:
            tasks[f"falsify {name} {assumption}"] = functools.partial(
                jobs.falsify, name, assumption)
    for name in ASSUMPTIONS:
        tasks[f"needs {name}"] = functools.partial(jobs.needs, name)
    if covers:
        for name in COVERS:
            tasks[f"cover {name}"] = functools.partial(jobs.reach, name,
                                                      timeout=COVER_TIMEOUT)
    if mutated:
        # The unchanged chip in the mutants' bounded checks: a failure counts only
        # where it passes.
        tasks["control power-up"] = jobs.from_power_up
        tasks["control game"] = jobs.in_games
        # The check that caught a mutant in the last run goes first: the other would
        # pass, every clock of it searched for nothing.
        for n, (name, source) in enumerate(mutants()):
            tasks[f"mutant {name}"] = functools.partial(
                jobs.mutant, source, tag=f"mutant_{n}",
                game_first=_from_game(verdicts.get(name)))
    if equivalence:
        by_netlist = by_netlist or equiv.Proofs()
        # A task per pair and board, each in its own directory (equiv.check); a board
        # whose chip is the netlist of another's takes its proof (equiv.Proofs).
        for pair in equiv.PAIRS:
            for board in (boards if pair in equiv.BOARD_PAIRS else (None,)):
                tasks[f"equivalence {board.name + ' ' if board else ''}{pair}"] = \
                    functools.partial(_netlists, pair, board, log, by_netlist)
    return tasks


def _netlists(pair, board, log, by_netlist):
    if board is not None:
        with _BUILDING:         # a board's two pairs share its build
            _routed((board,), log)
    return equiv.check(pairs=(pair,), boards=(board,) if board else (), log=log,
                       proofs=by_netlist)


def run(*, boards=(), covers=True, mutated=True, equivalence=True, workers=None,
        log=print):
    """``ttt formal``: the proofs, and the equivalence of the netlists, the chip of each
    of `boards` (sim.verification.gatelevel.Board) among them, on `workers` threads
    (default: the cores); 1 if one fails."""
    start, load, last = time.monotonic(), os.getloadavg()[0], _last()
    workers = workers or os.cpu_count() or 1
    earlier = order(last, {}, None)
    by_netlist = equiv.Proofs()
    tasks = _tasks(boards, covers, mutated, equivalence, log, earlier["verdicts"],
                   by_netlist)
    done, seconds = parallel(tasks, workers, log, earlier["seconds"], stop=sby.stop)
    together = done["proof"]
    rows = []
    for name in PROPERTIES:
        checks = {a: done[f"falsify {name} {a}"] for a in jobs.FALSIFY}
        rows.append(jobs.Row(name, together, {a: o for a, o in checks.items()
                                              if o.status == "fail"},
                             sum(o.seconds for o in checks.values())))
    needs = {name: done[f"needs {name}"] for name in ASSUMPTIONS}
    reached = {name: done[f"cover {name}"] for name in COVERS} if covers else {}
    caught = [(name, _controlled(done[f"mutant {name}"], done))
              for name, _ in mutants()] if mutated else []
    equal = by_netlist.settled([result for key in tasks if key.startswith("equivalence")
                                for result in done[key]])
    wall = time.monotonic() - start
    text = jobs.report(rows, needs, reached, caught)
    text += "\n".join(jobs.job_table(sby.RUNS)) + (
        f"\n\n{len(tasks)} tasks on {workers} threads: {wall:.0f} s wall, "
        f"{sum(seconds.values()):.0f} s of jobs (load {load:.2f} at the start).\n")
    if equal:
        text += "\n## Equivalence of the netlists (docs/equivalence.md)\n\n" + \
            equiv.report(equal)
    summary = {
        "properties": {row.name: {"status": row.outcome.status,
                                  "needs": {a: o.step for a, o in row.needed.items()}}
                       for row in rows},
        "needs": {name: {"fails": o.failed, "clock": o.step,
                         "trace": str(o.traces[0]) if o.traces else None}
                  for name, o in needs.items()},
        "covers": {name: {"clocks": kept.reached.get(name) if kept else None,
                          "set_up": setup.reached.get(name) if setup else None}
                   for name, (kept, setup) in reached.items()},
        "mutants": dict(caught),
        "equivalence": {result.pair: result.summary() for result in equal},
        "seconds": seconds,
        "order": order(last, seconds, caught if mutated else None),
        "wall": wall,
        # The whole runs (every part) so far, the last five, for make benchmark.
        "runs": ([*last.get("runs", []), {"wall": wall, "workers": workers, "load": load,
                                           "date": time.strftime("%Y-%m-%d %H:%M")}][-5:]
                 if covers and mutated and equivalence else last.get("runs", [])),
        "jobs": [{"job": o.job.name, "mode": o.job.mode, "engine": o.job.engine,
                  "depth": o.job.depth, "status": o.status, "seconds": o.seconds}
                 for o in sby.RUNS],
    }
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    with replacing(REPORT.with_suffix(".md")) as out:
        out.write(text)
    with replacing(REPORT.with_suffix(".json")) as out:
        json.dump(summary, out, indent=1)
    print(text)
    proven = all(row.outcome.status == "pass" for row in rows)
    short = jobs.unfinished(reached, caught)
    if short:
        print(f"not reached or not caught: {', '.join(short)}")
    return 0 if proven and not short and all(result.equivalent for result in equal) else 1


def _controlled(result, done):
    """A mutant's verdict, marked where the unchanged chip fails the same check."""
    where = "control game" if _from_game(result) else "control power-up"
    if result and result.startswith("caught") and done[where].status != "pass":
        return f"not counted ({result}): the unchanged chip fails there too"
    return result


def _from_game(verdict):
    """Whether a mutant's verdict is of its check from a game's position."""
    return bool(verdict) and "game's position" in verdict
