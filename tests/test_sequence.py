"""The journeys one after another on one checkout, as a person runs them: the README's
and docs/commands.md's, in an order drawn from a seed, each checked as its own test in
tests/test_journeys.py checks it. What one command leaves in build/ must never mislead
the next.

A step-by-step journey (``make sim`` ... ``make compare``) is one unit, its steps in
their order; the units are shuffled. The seed is printed and named by a failure;
``TTT_SEQUENCE_SEED=N`` replays that order (docs/testing.md). ``make test`` runs a short
draw of the quick units, ``make test-slow`` every unit, and the chip's own museum run
(its lockstep on the fastest simulator, which ``make verify`` builds) among them.
"""

import os
import random
import time
from contextlib import ExitStack

import pytest
from test_journeys import (JOURNEYS, PAGES, J, a_fake_checkout, check, documented_in,
                           locked, skipped, type_it)
from user import ROOT

pytestmark = pytest.mark.early

SEED = "TTT_SEQUENCE_SEED"
# The pages whose journeys a new user walks first.
FRONT = ("README.md", "docs/commands.md")
# The suite's own verbs run pytest again inside: not a step of a user's day.
NESTED = ("make test",)
SHORT = 3                   # make test's draw of quick units
# The museum with the chip, at the console's pins: after make verify built the
# bit-parallel chips, it once read their probes as the cartridge's pins.
CHIP_MUSEUM = J((), 'make museum ARGS="--machines eth1990 --no-cost"',
                first=r"^Lockstep, every core against its golden model",
                last=r"^wrote .*build/museum\.json, .*build/museum\.md and "
                     r".*build/museum\.png$",
                says=r"eth1990: 1962 games, \d+ clocks equal", locks=("museum",), slow=True)


def units(*, quick):
    """The front pages' journeys as units: a step-by-step journey's steps together in
    their order (all of them, where the front pages show one), every other journey alone; with `quick`, no slow step and no unit with
    a build."""
    lines = set().union(*(documented_in(page) for page in FRONT))
    assert set(FRONT) <= set(PAGES)
    found = {}
    for journey in JOURNEYS:
        if not journey.covered:
            found.setdefault(journey.steps or journey.run, []).append(journey)
    # A unit the front pages show a step of, whole; never the suite's own verbs.
    found = {name: unit for name, unit in found.items()
             if any(lines & set(j.shown) for j in unit)
             and not any(j.run.startswith(NESTED) for j in unit)}
    if not quick:
        return [*found.values(), [CHIP_MUSEUM]]
    # The quick steps of a unit, none of a unit with a build (the steps after it read it).
    return [[j for j in unit if not j.slow] for unit in found.values()
            if not any(j.build for j in unit) and not all(j.slow for j in unit)]


def order(seed, *, quick):
    """The units in the order `seed` draws: all of them, or with `quick` `SHORT`."""
    drawn = units(quick=quick)
    random.Random(seed).shuffle(drawn)
    return drawn[:SHORT] if quick else drawn


def walk(seed, tmp_path, *, quick):
    """Run the units of `seed` one after the other, each step checked; a failure names
    the seed, the step and the steps before it."""
    drawn = order(seed, quick=quick)
    print(f"the order of seed {seed} (replay: {SEED}={seed}):",
          *(f"  {journey.run}" for unit in drawn for journey in unit), sep="\n")
    done = []
    for unit in drawn:
        # A unit holds the locks of the build folders it shares with the suite's other
        # journeys while it runs, as its own test does; other tests run between units.
        with ExitStack() as stack:
            locked(stack, [name for j in unit for name in (*j.locks, j.steps) if name])
            for journey in unit:
                if skipped(journey):
                    continue
                started = time.time()
                finished = type_it(journey, cwd=a_fake_checkout(tmp_path)
                                   if journey.run == "make clean" else ROOT)
                try:
                    check(journey, finished, started)
                except AssertionError as failed:
                    raise AssertionError(
                        f"order of seed {seed} ({SEED}={seed} replays it): "
                        f"{journey.run!r} after {done}: {failed}") from None
                done.append(journey.run)
    assert done, "no step could run here"


def seed():
    chosen = os.environ.get(SEED)
    return int(chosen) if chosen else random.SystemRandom().randrange(10 ** 6)


def test_the_orders_are_drawn_by_the_seed_and_keep_each_journeys_steps_in_order():
    assert order(7, quick=True) == order(7, quick=True)
    assert len({tuple(u[0].run for u in order(s, quick=False)) for s in range(5)}) > 1
    for unit in order(7, quick=False):
        if len(unit) > 1:
            table = [j for j in JOURNEYS if j.steps == unit[0].steps and j in unit]
            assert unit == table
    names = [j.run for unit in units(quick=False) for j in unit]
    assert "make sim" in names and "make verify" in names and CHIP_MUSEUM.run in names
    assert not any(name.startswith("make test") for name in names)
    assert all(not (j.slow or j.build) for unit in units(quick=True) for j in unit)


def test_a_short_draw_of_the_journeys_one_after_another(tmp_path):
    walk(seed(), tmp_path, quick=True)


@pytest.mark.slow
def test_every_journey_one_after_another(tmp_path):
    walk(seed(), tmp_path, quick=False)
