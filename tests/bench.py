"""One block on Amaranth's simulator, as every block test drives it.

``simulate`` runs a block with a clock and async testbenches (``ctx.set/get/tick``),
and writes its waves only when asked: with ``HDL_VCD`` set (not empty, not ``0``) each
simulation goes to ``build/vcd/<test file>.<test>.vcd`` (``-2``, ``-3``... for a test's
further simulations), never into the source tree. The rest are the steps the block tests
share: holding inputs for some clocks, a press let go after them, waiting for a condition
with a bound (a block that never answers fails the test and says what it waited for,
instead of hanging it), the bytes a slow host takes from a stream, elaborating a block,
a constructor's refusal, and a serial frame's levels. `replayed` plays a recorded game
on a golden model, the core's other side, a clock at a time.
"""

import collections
import gc
import os
import re
import warnings
from pathlib import Path

import pytest
from amaranth.hdl import Fragment, UnusedElaboratable
from amaranth.sim import Simulator

__all__ = ["PERIOD", "WAVES", "simulate", "waves_path", "hold", "pulse", "until", "heard",
           "elaborated", "refuses", "frame_bits", "replayed", "busy_runs"]

ROOT = Path(__file__).resolve().parents[1]
WAVES = ROOT / "build" / "vcd"
PERIOD = 1e-6           # one clock a microsecond: the waves read in clocks

_simulations = collections.Counter()     # each name's simulations so far, for -2, -3...


def simulate(dut, *testbenches, background=(), name=None):
    """Run ``dut`` until every testbench has returned, with a clock in its ``sync``
    domain if it has one. ``background`` testbenches run beside them and end with them
    (a receiver that listens on a line, say). Returns the waves' path when ``HDL_VCD``
    asked for them, else None."""
    sim = Simulator(dut)
    sim.add_clock(PERIOD, if_exists=True)       # a combinational block has no clock
    for testbench in testbenches:
        sim.add_testbench(testbench)
    for testbench in background:
        sim.add_testbench(testbench, background=True)
    path = waves_path(name)
    if path is None:
        sim.run()
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    with sim.write_vcd(str(path)):
        sim.run()
    return path


def waves_path(name=None):
    """Where the next simulation of ``name`` (by default the running test's file and
    name) writes its waves, or None when ``HDL_VCD`` is unset, empty or ``0``."""
    if os.environ.get("HDL_VCD", "0") in ("", "0"):
        return None
    if name is None:
        # "tests/test_uart.py::test_rx[8] (call)" -> "test_uart.test_rx_8"
        test = os.environ.get("PYTEST_CURRENT_TEST", "bench").split(" ")[0]
        name = ".".join(Path(part).stem if part.endswith(".py") else part
                        for part in test.split("::"))
    name = re.sub(r"[^\w.-]+", "_", name).strip("_")
    _simulations[name] += 1
    count = _simulations[name]
    return WAVES / (f"{name}.vcd" if count == 1 else f"{name}-{count}.vcd")


async def hold(ctx, block, *, clocks=1, **levels):
    """Set each of ``block``'s inputs named in ``levels`` and keep them so for ``clocks``
    edges; they stay set after."""
    for name, level in levels.items():
        ctx.set(getattr(block, name), level)
    await ctx.tick().repeat(clocks)


async def pulse(ctx, block, *, clocks=1, **levels):
    """``hold``, then give each input back the level it had before: a key pressed for
    ``clocks`` edges and let go, a one-clock strobe."""
    before = {name: ctx.get(getattr(block, name)) for name in levels}
    await hold(ctx, block, clocks=clocks, **levels)
    for name, level in before.items():
        ctx.set(getattr(block, name), level)


async def until(ctx, condition, *, within, what):
    """Tick until ``condition`` holds, at most ``within`` edges; return how many it took.
    An Amaranth value is sampled at each edge, as ``ctx.tick().until`` samples it (so a
    strobe seen there was taken by that edge); a function of no arguments is asked after
    each edge. Past ``within`` the test fails, naming ``what`` it waited for."""
    for clocks in range(1, within + 1):
        if callable(condition):
            await ctx.tick()
            done = condition()
        else:
            *_, done = await ctx.tick().sample(condition)
        if done:
            return clocks
    raise AssertionError(f"{what}: not within {within} clocks")


async def heard(ctx, stream, *, rng, done):
    """The bytes a host takes from ``stream`` (an ``amaranth.lib.stream`` interface) as
    they come, ready on a clock by a draw of ``rng``, until ``done()`` holds before a
    clock: a slow host, so that a sender is seen to wait for it."""
    said = b""
    while not done():
        ready = rng.random() < 0.6
        ctx.set(stream.ready, ready)
        if ready and ctx.get(stream.valid):
            said += bytes([ctx.get(stream.payload)])
        await ctx.tick()
    return said


def elaborated(dut):
    """``dut`` elaborated as a build would: for tests that look only at its ports or
    registers, and so that Amaranth does not warn that it was never used."""
    Fragment.get(dut, None)
    return dut


def refuses(block, *args, match, error=ValueError, **kwargs):
    """``block(*args, **kwargs)`` raises ``error`` matching ``match``. The half-made
    block warns that it was never elaborated when it is collected: collected here, where
    that warning is expected, rather than in a later test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnusedElaboratable)
        with pytest.raises(error, match=match) as raised:
            block(*args, **kwargs)
        del raised              # its traceback holds the half-made block
        gc.collect()


def frame_bits(byte, *, stop=1):
    """The levels of one 8N1 serial frame: start bit, 8 data bits least significant
    first, stop bit (0 for a broken one)."""
    return [0] + [byte >> i & 1 for i in range(8)] + [stop]


def replayed(model, game, *, before=None):
    """``game`` (each clock's inputs) played on the golden ``model`` a clock at a time:
    yields after each edge that clock's inputs and what ``before(model)`` said of the
    model with them set, before the edge (None without ``before``)."""
    for pins in game:
        model.set(pins)
        seen = before(model) if before else None
        model.tick()
        yield pins, seen


def busy_runs(model, game):
    """The runs of busy clocks of ``game`` on the golden ``model``, the think times the
    console counts: (clocks, over) for each run, ``over`` as the clock after it shows it,
    None for a run the game ends in."""
    runs, run = [], 0
    for _ in replayed(model, game):
        if model.probe.busy:
            run += 1
        elif run:
            runs.append((run, model.probe.over))
            run = 0
    return runs + [(run, None)] * bool(run)
