"""What a user types, run as they type it: ``make VERB VAR=value`` and the command lines
README.md and docs/ show. Every journey test goes through here, so that a command that
breaks breaks a test, not only the Python function beneath it.

`make` runs against the environment pytest runs in (its ``.venv``, or any other), never
creating or reinstalling one: that is ``make``'s first run, which ``make test`` has done.
"""

import os
import subprocess
import sys
from pathlib import Path

__all__ = ["ROOT", "make", "typed", "started", "first_line", "last_line"]

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)


def make(verb, *assignments, timeout=300, input=None, env=None, cwd=ROOT):
    """``make VERB VAR=value ...`` in the repo, as a user types it; the finished process
    (text, stdout and stderr apart). The environment's install stamp is taken as made."""
    stamp = VENV / ".installed"
    argv = ["make", "--no-print-directory", f"VENV={VENV}", "-o", str(stamp), verb,
            *assignments]
    return typed(argv, timeout=timeout, input=input, env=env, cwd=cwd)


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


def _env(env):
    path = f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"
    return {**os.environ, "PATH": path, **(env or {})}


def _lines(done):
    return [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def first_line(done):
    """The first line a command printed that is not make's echo of the command."""
    return next(line for line in _lines(done) if not line.startswith(str(VENV)))


def last_line(done):
    """The last non-empty line a command printed (stderr after stdout)."""
    return _lines(done)[-1]
