"""The debouncer alone (boards/gateware/debounce.py), on Amaranth's simulator.

The desk's tests (test_desk_sim.py) press keys through the whole panel; here the block is
driven clock by clock: contacts that bounce, presses too short to count, channels side
by side, and the ``sample`` strobe, with noise on ``raw`` between strobes that it must
not see.

``debounce()`` returns the outputs after each clock edge: entry ``i`` shows what the
strobe and contacts of cycle ``i`` did.
"""

import random

import pytest
from bench import elaborated, hold, refuses, simulate

from boards.gateware.debounce import Debouncer


def debounce(width, stable, steps):
    """Run a Debouncer through ``steps``, one (raw, sample) per clock; return
    (held, pressed, released) after each clock edge."""
    dut = Debouncer(width, stable=stable)
    out = []

    async def testbench(ctx):
        for raw, sample in steps:
            await hold(ctx, dut, raw=raw, sample=sample)
            out.append((ctx.get(dut.held), ctx.get(dut.pressed), ctx.get(dut.released)))

    simulate(dut, testbench)
    return out


def strobed(samples, *, every=3, rng=None, width=1):
    """Steps that show the contacts ``samples[s]`` to the ``s``-th strobe, one strobe
    every ``every`` clocks; between strobes ``raw`` is random noise (with ``rng``) or
    holds, but for the clock before a strobe, where it shows the strobe's value (the
    block's rule). Returns the steps and the step index of each strobe."""
    assert every >= 2
    steps, strobes = [], []
    for value in samples:
        for _ in range(every - 2):
            steps.append((rng.randrange(1 << width) if rng else value, 0))
        steps.append((value, 0))
        strobes.append(len(steps))
        steps.append((value, 1))
    return steps, strobes


def pulses(out, which):
    """(step, value) of every clock on which output ``which`` (1 pressed, 2 released) is
    not zero."""
    return [(n, o[which]) for n, o in enumerate(out) if o[which]]


def reference(samples, stable):
    """The docstring's rule at strobe resolution: the contacts count once ``stable + 1``
    samples in a row agree (before the first sample the contacts read open). Returns
    (held, pressed, released) after each strobe."""
    seen = [0] * stable + list(samples)
    held, out = 0, []
    for i in range(stable, len(seen)):
        new = seen[i] if len(set(seen[i - stable:i + 1])) == 1 else held
        out.append((new, new & ~held, held & ~new))
        held = new
    return out


def test_the_constructor_refuses_stable_below_one():
    refuses(Debouncer, 1, stable=0, match="at least 1 sample")
    elaborated(Debouncer(1, stable=1))


@pytest.mark.parametrize("stable", [1, 2, 5])
def test_a_clean_press_and_release_give_one_pulse_each(stable):
    samples = [0] * 4 + [1] * 20 + [0] * 20
    steps, strobes = strobed(samples)
    out = debounce(1, stable, steps)
    closed, opened = 4, 24                                 # the samples that first see it
    # Each pulse is one clock wide, on the edge of the (stable + 1)-th agreeing strobe.
    assert pulses(out, 1) == [(strobes[closed + stable], 1)]
    assert pulses(out, 2) == [(strobes[opened + stable], 1)]
    held = [o[0] for o in out]
    assert held == [int(strobes[closed + stable] <= n < strobes[opened + stable])
                    for n in range(len(out))]


@pytest.mark.parametrize("stable", [2, 3, 5])
def test_a_bouncing_contact_gives_one_press_and_one_release(stable):
    # Each bounce lasts 1 to stable samples (shorter than the stable + 1 a change needs),
    # on the way in and on the way out; raw is noise between strobes.
    rng = random.Random(stable)
    for trial in range(20):
        samples, settled = [0] * 3, {}
        for settle in (1, 0):
            level = settle
            for _ in range(rng.randrange(2, 8)):
                samples += [level] * rng.randint(1, stable)
                level ^= 1
            start = len(samples)                # where the contact stops bouncing
            while samples[start - 1] == settle:
                start -= 1
            settled[settle] = start
            samples += [settle] * (stable + 3)
        steps, strobes = strobed(samples, rng=rng)
        out = debounce(1, stable, steps)
        # Once in, once out, each stable + 1 samples after the contact stopped bouncing.
        assert pulses(out, 1) == [(strobes[settled[1] + stable], 1)], (trial, samples)
        assert pulses(out, 2) == [(strobes[settled[0] + stable], 1)], (trial, samples)
        assert out[-1][0] == 0


@pytest.mark.parametrize("stable", [1, 2, 5])
def test_a_press_of_stable_samples_or_fewer_gives_nothing(stable):
    for length in range(1, stable + 1):
        steps, _ = strobed([0] * 3 + [1] * length + [0] * (stable + 3))
        out = debounce(1, stable, steps)
        assert not any(o != (0, 0, 0) for o in out), f"a press of {length} samples"
    # One sample more is a press, and its release.
    steps, _ = strobed([0] * 3 + [1] * (stable + 1) + [0] * (stable + 3))
    out = debounce(1, stable, steps)
    assert len(pulses(out, 1)) == 1 and len(pulses(out, 2)) == 1


def test_channels_are_independent():
    stable, width = 2, 4
    samples = ([0b0000] * 4 + [0b0010] * 6        # channel 1 alone
               + [0b1010] * 6                     # channel 3 joins, 1 still held
               + [0b1000] * 6                     # 1 lets go
               + [0b1101] * 6                     # 0 and 2 together
               + [0b0000] * 6)                    # all let go together
    steps, strobes = strobed(samples, rng=random.Random(4), width=width)
    out = debounce(width, stable, steps)
    at = lambda sample: strobes[sample + stable]   # noqa: E731
    assert pulses(out, 1) == [(at(4), 0b0010), (at(10), 0b1000), (at(22), 0b0101)]
    assert pulses(out, 2) == [(at(16), 0b0010), (at(28), 0b1101)]
    assert [out[at(s)][0] for s in (4, 10, 16, 22, 28)] == [0b0010, 0b1010, 0b1000,
                                                          0b1101, 0b0000]


def test_a_bouncing_neighbour_neither_adds_nor_loses_a_press():
    # The block counts agreement of all its contacts together (one counter): while a
    # neighbour bounces, a clean press waits, but it still counts exactly once, and the
    # neighbour's bounces none.
    stable = 3
    samples = [0b00] * 4 + [0b01] * 3 + [0b11, 0b01, 0b11, 0b01, 0b11, 0b11, 0b01] \
        + [0b01] * 12 + [0b00] * 8
    steps, strobes = strobed(samples, rng=random.Random(5), width=2)
    out = debounce(2, stable, steps)
    assert [v for _, v in pulses(out, 1)] == [0b01]
    assert [v for _, v in pulses(out, 2)] == [0b01]
    assert pulses(out, 1)[0][0] >= strobes[4 + stable]


def test_nothing_changes_between_strobes():
    # Contacts that close and open between two strobes are never seen; the outputs move
    # only on the clock of a strobe, and a held contact stays held through any gap.
    rng = random.Random(6)
    stable, width = 2, 3
    steps = [(rng.randrange(8), 0) for _ in range(200)]                # no strobe at all
    assert set(debounce(width, stable, steps)) == {(0, 0, 0)}

    samples = [0b101] * 5
    steps, _ = strobed(samples, rng=rng, width=width)
    steps += [(rng.randrange(8), 0) for _ in range(300)]               # then a long gap
    out = debounce(width, stable, steps)
    assert out[-1] == (0b101, 0, 0) and len(pulses(out, 1)) == 1 and not pulses(out, 2)

    # Random strobes on random contacts: every change is on a strobe's clock.
    steps = [(rng.randrange(8), int(rng.random() < 0.3)) for _ in range(600)]
    out = debounce(width, 1, steps)
    before = (0, 0, 0)
    for (raw, sample), after in zip(steps, out):
        if not sample:
            assert after == (before[0], 0, 0)
        before = after


@pytest.mark.parametrize("stable", [1, 2, 4])
def test_against_the_rule_on_random_contacts(stable):
    # Three contacts that each close and open at random, some quickly, some slowly; at
    # every strobe the block must do what the docstring's rule says.
    rng = random.Random(100 + stable)
    width, samples, value = 3, [], 0
    for _ in range(400):
        if rng.random() < 0.25:
            value ^= 1 << rng.randrange(width)
        samples.append(value)
    steps, strobes = strobed(samples, every=3, rng=rng, width=width)
    out = debounce(width, stable, steps)
    want = reference(samples, stable)
    assert [out[s] for s in strobes] == want
    assert sum(1 for h, p, r in want if p) > 10        # the rule did let presses through
