"""What every test leaves as it found it: the process's handling of Ctrl-C. A command a
test starts inherits both (a blocked or ignored SIGINT survives exec), so a test that
leaves them changed makes a later Ctrl-C test fail for no fault of its own.

And the project's bytecode, compiled once before the workers start: where
PYTHONDONTWRITEBYTECODE is set (containers, CI), every command a test runs would compile
the sources it imports again, some 0.1 s a process over the suite's hundreds.

And the long tests first (marked ``early``), so that the cores end the suite together,
and one worker more than the cores, so that a test that waits leaves its core to
another."""

import compileall
import os
import signal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("boards", "firmware_ref", "hdl", "sim", "tests")


def pytest_configure(config):
    if not hasattr(config, "workerinput"):          # the first process, not a worker
        for folder in SOURCES:
            compileall.compile_dir(ROOT / folder, quiet=2)


def pytest_xdist_auto_num_workers(config):
    # A test waits on a build's tool, a server or a command's answer; the extra worker
    # takes the core meanwhile. On the project's 2-core machine make test took 295 s with
    # three workers against 302 and 312 s with two (fresh-check, 2026-11-27, in turn).
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None                     # the user's own number, which pytest-xdist reads
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
        os.cpu_count() or 1
    return cores + 1


def pytest_collection_modifyitems(items):
    # The long tests (marked early) first: a long test begun last holds one core while
    # the other, its own tests done, idles; short tests at the end share out evenly.
    items.sort(key=lambda item: item.get_closest_marker("early") is None)


@pytest.fixture(autouse=True)
def ctrl_c_handling_unchanged():
    before = signal.pthread_sigmask(signal.SIG_BLOCK, []), signal.getsignal(signal.SIGINT)
    yield
    after = signal.pthread_sigmask(signal.SIG_BLOCK, []), signal.getsignal(signal.SIGINT)
    assert after == before, "the test left SIGINT blocked or its handler changed"
