"""The chip read just before each rising edge as well as just after it (``run(...,
before=True)``), on the simulators that read both in one pass: each cycle's reads are
the golden model's, before its tick with the cycle's inputs set and after it, lane by
lane, and a plain run's reads are unchanged."""

import random

import numpy as np
import pytest

from firmware_ref.eth.batch import INPUT_COLUMNS, PROBE_COLUMNS
from firmware_ref.eth.cycle import CycleModel, Inputs

from sim import catalogue
from sim.backends import BackendMissing, make
from sim.chip.stimulus import random_session

pytestmark = pytest.mark.early     # plain Verilator's build of the chip

CYCLES = 400
# Two lanes: other sessions, other power-ups, the second cut short, so that a lane's
# place in the batch and the zeros past its length are read too.
SEEDS, POWER_UP, LENGTHS = (1990, 7), (5, 2), (CYCLES, CYCLES // 3)
# Held in reset with userbegins changing every clock: the chip's only probes that
# follow an input between edges (who opens, in JUSTRESET), which a random session
# seldom shows, so that a read before the inputs are applied is caught too.
OPENING = [Inputs(resetN=0, userbegins=c % 2) for c in range(8)]


def _known(probe):
    """The fields of a golden Probe the model knows, as ints, in PROBE_COLUMNS' order."""
    return {name: int(getattr(probe, name)) for name in PROBE_COLUMNS
            if getattr(probe, name) is not None}


def _read(row):
    return dict(zip(PROBE_COLUMNS, map(int, row)))


@pytest.mark.parametrize("name", ["bitlanes", "verilator-cxx"])
def test_the_reads_before_and_after_each_edge_are_the_golden_models(name):
    try:
        chips = make(name, catalogue.CHIP)
    except BackendMissing as missing:
        pytest.skip(str(missing))
    assert tuple(chips.outputs) == PROBE_COLUMNS
    sessions = [(OPENING + random_session(random.Random(seed), CYCLES))[:CYCLES]
                for seed in SEEDS]
    inputs = np.array([[[getattr(pins, column) for column in INPUT_COLUMNS]
                        for pins in session] for session in sessions], np.uint32)
    lengths, power_up = np.array(LENGTHS), np.array(POWER_UP)
    after, before = chips.run(inputs, lengths, power_up, before=True)
    for lane, session in enumerate(sessions):
        model = CycleModel(random=POWER_UP[lane])
        for c, pins in enumerate(session[:LENGTHS[lane]]):
            model.set(pins)
            want = _known(model.probe)
            assert {k: _read(before[lane, c])[k] for k in want} == want, \
                f"before edge {c} of lane {lane}"
            model.tick()
            want = _known(model.probe)
            assert {k: _read(after[lane, c])[k] for k in want} == want, \
                f"after edge {c} of lane {lane}"
        assert not before[lane, LENGTHS[lane]:].any()
        assert not after[lane, LENGTHS[lane]:].any()
    # the inputs were seen between edges: not every read before an edge is the last after
    assert (before[:, 1:] != after[:, :-1]).any()
    assert np.array_equal(chips.run(inputs, lengths, power_up), after)
    assert np.array_equal(chips.run(inputs, lengths, power_up, before=False), after)
