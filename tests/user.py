"""What a user types, run as they type it: ``make VERB VAR=value`` and the command lines
README.md and docs/ show. Every journey test goes through here, so that a command that
breaks breaks a test, not only the Python function beneath it.

`make` runs against the environment pytest runs in (its ``.venv``, or any other), never
creating or reinstalling one: that is ``make``'s first run, which ``make test`` has done.
"""

import contextlib
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["ROOT", "READY_S", "EXIT_S", "SETTLE_S", "make", "typed", "started", "watched",
           "said", "interrupted", "as_from_a_shell", "first_line", "last_line"]

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)
# How a one-time build announces itself (sim/cache.py's cached): a verb prints such
# lines before its own first line, and the next run of the same command does not.
ONCE = re.compile(r"\(once, about \d+ s\)$")


def make(verb, *assignments, timeout=300, input=None, env=None, cwd=ROOT):
    """``make VERB VAR=value ...`` in the repo, as a user types it; the finished process
    (text, stdout and stderr apart). The environment's install stamp is taken as made."""
    return typed(_make_argv(verb, assignments), timeout=timeout, input=input, env=env,
                 cwd=cwd)


def _make_argv(verb, assignments):
    stamp = VENV / ".installed"
    return ["make", "--no-print-directory", f"VENV={VENV}", "-o", str(stamp), verb,
            *assignments]


def typed(argv, *, timeout=300, input=None, env=None, cwd=ROOT):
    """`argv` (a list, as a shell splits the line) run in the repo with the environment's
    scripts first on PATH, as an activated venv or ``.venv/bin/...`` runs them."""
    return subprocess.run(argv, cwd=cwd, input=input, capture_output=True, text=True,
                          timeout=timeout, env=_env(env),
                          stdin=None if input is not None else subprocess.DEVNULL)


def started(argv, *, env=None, cwd=ROOT):
    """`argv` started as `typed` runs it, for a conversation: its stdin, stdout and stderr
    are pipes (bytes); the caller reads each prompt before it answers."""
    return subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=_env(env))


@contextlib.contextmanager
def watched(argv, *, env=None, cwd=ROOT):
    """`argv` as `typed` runs it (a list; ``["make", VERB, ...]`` as `make` runs make),
    while the test reads its output (stdout and stderr together, text) as it comes: the
    running process. Whatever still runs at the end gets Ctrl-C, as a user gives it."""
    if argv[0] == "make":
        argv = _make_argv(argv[1], argv[2:])
    process = subprocess.Popen(argv, cwd=cwd, env=_env(env), text=True,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True,
                               preexec_fn=as_from_a_shell)
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGINT)
        try:
            process.communicate(timeout=EXIT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


def said(process):
    """The lines a `watched` process prints, as they come: not make's echo of a command,
    nor empty ones."""
    return (line.rstrip("\n") for line in process.stdout
            if line.strip() and not line.startswith(str(VENV)))


# Generous bounds, not timings: a test waits for what a program says, and these only
# end a test whose program hangs. A loaded machine may take minutes to start one.
READY_S = 300
EXIT_S = 120
# Ctrl-C comes this long after the awaited text, as a person's does. Python's input()
# writes its prompt and only then reads: a SIGINT in between is noted, and the read
# that follows waits for a line all the same, so a ^C pressed the instant the prompt
# appears can be lost on a loaded machine, where no person could press it.
SETTLE_S = 0.5


def as_from_a_shell():
    """In a child before exec: Ctrl-C as a shell leaves it to a command it starts,
    unblocked and handled by default, whatever the test process did to its own."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted(argv, *, ready, meanwhile=None, env=None):
    """Run `argv` (python's arguments, e.g. ``["-m", "boards", "play"]``, or a make verb as
    `make` runs it, ``["make", "serve", ...]``) on a pseudo-terminal, press Ctrl-C
    `SETTLE_S` after it has printed `ready` (bytes), and return (exit status, everything
    printed). `meanwhile(printed)`, if given, is called just before Ctrl-C; `env` adds
    to a make's environment, as `typed`'s does. The terminal turns the ^C byte into
    SIGINT for the command and every process it started, as a user's terminal does; a
    command killed by it has status 130, as a shell shows it."""
    pid, fd = pty.fork()
    if pid == 0:                                    # the child: the command
        as_from_a_shell()
        os.chdir(ROOT)
        if argv[0] == "make":
            os.execvpe("make", _make_argv(argv[1], argv[2:]), _env(env))
        os.execv(sys.executable, [sys.executable, *argv])
    out, deadline = b"", time.monotonic() + READY_S
    pressed, press_at = False, None
    while time.monotonic() < deadline:
        if press_at is None and ready in out:
            press_at = time.monotonic() + SETTLE_S
        if not pressed and press_at is not None and time.monotonic() >= press_at:
            if meanwhile:
                meanwhile(out.decode(errors="replace"))
            os.write(fd, b"\x03")
            pressed, deadline = True, time.monotonic() + EXIT_S
        readable, _, _ = select.select([fd], [], [], 0.1)
        try:
            data = os.read(fd, 4096) if readable else b""
        except OSError:                             # the child closed the terminal
            break
        if readable and not data:
            break
        out += data
    else:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code, out.decode(errors="replace")


# What a make that runs the suite (make test) tells the makes below it: a user's make
# at a shell hears none of it.
MAKE_ENV = ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES", "MAKE_TERMOUT",
            "MAKE_TERMERR")


def _env(env):
    """The environment of a command a user types at a shell: the suite's own, less what
    make added to it (`make test ARGS=...` exports ARGS, and every make below would
    take it), with the environment's scripts first on PATH."""
    _, _, assigned = os.environ.get("MAKEFLAGS", "").partition("--")
    added = set(re.findall(r"(?:^|\s)(\w+)=", assigned))
    shell = {name: value for name, value in os.environ.items()
             if name not in MAKE_ENV and name not in added}
    path = f"{VENV / 'bin'}{os.pathsep}{shell.get('PATH', '')}"
    return {**shell, "PATH": path, **(env or {})}


def _lines(done):
    return [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def first_line(done):
    """The first line a command printed that is not make's echo of the command."""
    return next(line for line in _lines(done) if not line.startswith(str(VENV)))


def last_line(done):
    """The last non-empty line a command printed (stderr after stdout)."""
    return _lines(done)[-1]
