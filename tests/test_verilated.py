"""The chip on plain Verilator with a C++ harness (sim.backends.verilated), the peer of
make benchmark's table, and 64 chips to a word (sim.backends.bitlanes), make verify's
default: both run the compiled chip's batch, read the same signals, are checked against
the golden model lane by lane, and catch a broken gate."""

import re

import numpy as np
import pytest

from firmware_ref.cli import UserError
from firmware_ref.eth.batch import columns

from sim import Mismatch
from sim.backends import bitlanes, compiled, verilated
from sim.reports import benchmark
from sim.verification import verify


@pytest.fixture(scope="module")
def recorded():
    """Every game's lanes, the golden model's recording of them, and their inputs."""
    lanes = verify.plan()
    rows = verify.golden(lanes)
    lengths = np.array([len(r) for r in rows], np.int64)
    inputs = np.zeros((len(lanes), int(lengths.max()), 4), np.uint32)
    for n, packed in enumerate(rows):
        inputs[n, :lengths[n]] = columns(packed)[0]
    return lanes, rows, inputs, lengths


@pytest.mark.slow      # make test checks this backend on a broken gate and against compiled
def test_every_game_on_plain_verilator_agrees_with_the_golden_model(recorded):
    lanes, rows, inputs, lengths = recorded
    chips = verilated.Chips(len(lanes), random=[lane.power_up for lane in lanes])
    verify.compare(lanes, rows, chips.run(inputs, lengths))     # raises on a difference


def test_its_lanes_read_what_the_compiled_chips_read_at_every_power_up():
    # Random sessions, the benchmark's workload, each lane's counter at another value:
    # every probe after every edge is the compiled chip's, which the golden model checks.
    inputs = benchmark._inputs(benchmark._sessions(16))
    power_up = np.arange(16) % 8
    got = verilated.Chips(16, random=power_up).run(inputs)
    assert (got == compiled.Chips(16, random=power_up).run(inputs)).all()
    # and the power-up value is really forced: the counter's lanes differ
    assert not (got == verilated.Chips(16).run(inputs)).all()


def _stuck_diagonal(verilog):
    """The win check's anti-diagonal AND gate stuck at 0: a chip that misses one line."""
    gate = "assign \\$34  = \\$33  & mine[6];"
    assert verilog.count(gate) == 1
    return verilog.replace(gate, "assign \\$34  = 1'h0;")


# Plain Verilator's mutant is a build of its own: make test-slow.
@pytest.mark.parametrize("chips", [pytest.param(verilated.Chips, marks=pytest.mark.slow),
                                   bitlanes.Chips], ids=["plain Verilator", "bit-parallel"])
def test_a_broken_gate_is_caught_and_named_by_lane_and_cycle(recorded, chips):
    lanes, rows, inputs, lengths = recorded
    broken = chips(len(lanes), random=[lane.power_up for lane in lanes],
                   edit=_stuck_diagonal)
    with pytest.raises(Mismatch, match=r"^cycle \d+ of lane \d+ .*: \w+ is "):
        verify.compare(lanes, rows, broken.run(inputs, lengths))


def test_make_verify_picks_the_bit_parallel_chips():
    assert verify.fastest()[0] == verify.BITLANES


def test_every_game_on_the_bit_parallel_chips_agrees_with_the_golden_model(recorded):
    lanes, rows, inputs, lengths = recorded
    chips = bitlanes.Chips(len(lanes), random=[lane.power_up for lane in lanes])
    verify.compare(lanes, rows, chips.run(inputs, lengths))


@pytest.fixture(scope="module")
def golden_cache(tmp_path_factory):
    """A cache of the golden model's bit planes of this module's own, empty at first."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("golden-chip")
        patch.setattr(verify, "GOLDEN_CACHE", folder)
        yield folder


def test_every_game_checked_in_bit_planes_agrees_and_its_recording_is_cached(
        recorded, golden_cache):
    lanes, rows, _, lengths = recorded
    chips = bitlanes.Chips(len(lanes), random=[lane.power_up for lane in lanes])
    assert verify.check_in_planes(lanes, chips) == lengths.sum()
    assert len(list(golden_cache.glob("*/planes.npz"))) == 1
    planes = verify.golden_planes(lanes, chips.widths)          # read back, the same
    assert (planes.lengths == lengths).all() and chips.check(planes) == []
    # The lanes sorted longest first, and each group runs as long as its longest lane.
    assert sorted(planes.order.tolist()) == list(range(len(lanes)))
    assert (np.diff(lengths[planes.order]) <= 0).all()
    assert planes.cycles.tolist() == [lengths[planes.order[k:k + 64]].max()
                                      for k in range(0, len(lanes), 64)]


def test_a_broken_gate_is_caught_in_bit_planes_and_named_lane_by_lane(recorded,
                                                                       golden_cache):
    lanes, _, _, _ = recorded
    broken = bitlanes.Chips(len(lanes), random=[lane.power_up for lane in lanes],
                            edit=_stuck_diagonal)
    differ = broken.check(verify.golden_planes(lanes, broken.widths))
    assert 0 < len(differ) <= 64
    with pytest.raises(Mismatch, match=r"^cycle \d+ of lane (\d+) .*: \w+ is ") as caught:
        verify.check_in_planes(lanes, broken)
    assert int(re.match(r"cycle \d+ of lane (\d+)", str(caught.value))[1]) in differ


def test_the_bit_parallel_chips_read_what_plain_verilator_reads_at_every_power_up():
    inputs = benchmark._inputs(benchmark._sessions(70))     # two words, one not full
    power_up, lengths = np.arange(70) % 8, np.arange(70) * 20 + 100
    assert (bitlanes.Chips(70, random=power_up).run(inputs, lengths) ==
            verilated.Chips(70, random=power_up).run(inputs, lengths)).all()


def test_every_row_of_the_speed_table_is_a_ratio_of_plain_verilators():
    rows = [{"simulator": benchmark.PLAIN_VERILATOR, "mode": "4 sessions, one chip, batch",
             "cycles_per_s": 100.0},
            {"simulator": benchmark.PLAIN_VERILATOR, "mode": "256 lanes, batch",
             "cycles_per_s": 400.0},
            {"simulator": "x", "mode": "4 sessions, one chip", "cycles_per_s": 50.0},
            {"simulator": "x", "mode": "256 lanes, batch", "cycles_per_s": 800.0},
            {"simulator": "x", "mode": "256 sessions, batch recording, 2 processes",
             "cycles_per_s": 200.0},
            {"simulator": "y", "mode": "4 sessions, one chip", "missing": "why"}]
    ratios = [row.get("over_plain_verilator") for row in benchmark.over_plain_verilator(rows)]
    assert ratios == [1.0, 1.0, 0.5, 2.0, 0.5, None]


def test_a_benchmark_that_meets_a_difference_says_it_in_one_line(monkeypatch, tmp_path):
    def differing(**_):
        raise Mismatch("cycle 3 of lane 1 (the user begins): wins is 0 in the chip, 1 in "
                       "the golden model\ninputs ...")
    monkeypatch.setattr(benchmark, "measure", differing)
    with pytest.raises(UserError, match=r"^a simulator differs from the golden model, so "
                                        r"nothing is reported: cycle 3 of lane 1 .*model$"):
        benchmark.run(out=tmp_path)
    assert list(tmp_path.iterdir()) == []
