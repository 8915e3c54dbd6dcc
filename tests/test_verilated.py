"""The chip on plain Verilator with a C++ harness (sim.backends.verilated), the peer of
make benchmark's table, and 64 chips to a word (sim.backends.bitlanes), make verify's
default: both run the compiled chip's batch, read the same signals, are checked against
the golden model lane by lane, and catch a broken gate."""

import re
import subprocess

import numpy as np
import pytest
from user import ONCE

from firmware_ref.cli import UserError
from hdl.eth.chip import Chip

from sim import Mismatch, catalogue
from sim.backends import BackendMissing, bitlanes, compiled, verilated
from sim.backends.amaranth import Amaranth
from sim.backends.core import pins
from sim.cartridges import recording as recordings
from sim.cartridges.lockstep import play
from sim.reports import benchmark
from sim.reports.benchmark import speeds, workload
from sim.reports.benchmark.timing import PEER
from sim.verification import gatelevel, verify
from sim.verification.mutants import controller_from, mutants

pytestmark = pytest.mark.early     # plain Verilator's build of the chip

CHIP = catalogue.CHIP


@pytest.fixture(scope="module")
def recorded():
    """The golden model's recording of every game's lanes, as make verify plays them."""
    return recordings.recorded(CHIP)


def _run(chips, recording):
    """`recording`'s lanes on `chips`, read back."""
    return chips.run(recording.lanes(), recording.lengths, recording.power_up)


@pytest.mark.slow      # make test checks this backend on a broken gate and against compiled
def test_every_game_on_plain_verilator_agrees_with_the_golden_model(recorded):
    assert play(recorded, verilated.Verilated(CHIP)) == recorded.clocks


def test_its_lanes_read_what_the_compiled_chips_read_at_every_power_up():
    # Random sessions, the benchmark's workload, each lane's counter at another value:
    # every probe after every edge is the compiled chip's, which the golden model checks.
    inputs = workload.inputs(workload.sessions(16))
    power_up, lengths = np.arange(16) % 8, np.full(16, inputs.shape[1])
    chips = verilated.Verilated(CHIP)
    got = chips.run(inputs, lengths, power_up)
    assert (got == compiled.chip(16, random=power_up).run(inputs)).all()
    # and the power-up value is really forced: the counter's lanes differ
    assert not (got == chips.run(inputs, lengths)).all()


def _stuck_diagonal(verilog):
    """The win check's anti-diagonal AND gate stuck at 0: a chip that misses one line."""
    gate = "assign \\$34  = \\$33  & mine[6];"
    assert verilog.count(gate) == 1
    return verilog.replace(gate, "assign \\$34  = 1'h0;")


# Plain Verilator's mutant is a build of its own: make test-slow.
@pytest.mark.parametrize("simulator", [
    pytest.param(verilated.Verilated, marks=pytest.mark.slow), bitlanes.Bitlanes],
    ids=["plain Verilator", "bit-parallel"])
def test_a_broken_gate_is_caught_and_named_by_lane_and_cycle(recorded, simulator):
    broken = simulator(CHIP, pins=pins(CHIP).mutant(edit=_stuck_diagonal))
    with pytest.raises(Mismatch, match=r"^cycle \d+ of lane \d+ .*: \w+ is "):
        recorded.compare(_run(broken, recorded), broken.outputs)


class _Misrouted(Chip):
    """The chip with the first of sim.verification.mutants's controllers (one transition
    sent elsewhere): a mutant made of another class."""

    def __init__(self):
        super().__init__()
        self.controller = controller_from(next(mutants())[1])()


# The controller Chip made first, replaced, is never elaborated: Amaranth says so.
@pytest.mark.filterwarnings("ignore:.*created but never used")
def test_a_mutant_class_runs_where_it_is_written_and_is_refused_where_it_is_not(
        recorded):
    mutant = pins(CHIP).mutant(core=_Misrouted)
    with pytest.raises(Mismatch, match=r"^cycle \d+ of lane 0 .*: \w+ is "):
        play(recorded.part([0]), Amaranth(CHIP, pins=mutant, jobs=1))
    # hdl.eth.export exports the chip's own class: what is built from it says so.
    for simulator in (compiled.Compiled, bitlanes.Bitlanes):
        with pytest.raises(BackendMissing, match=rf"^the {simulator.name} backend cannot "
                           r"run: hdl.eth.export exports the chip, not _Misrouted"):
            simulator(CHIP, pins=mutant)


def test_an_edit_of_the_verilog_is_refused_by_what_does_not_read_the_verilog():
    edited = pins(CHIP).mutant(edit=_stuck_diagonal)
    with pytest.raises(BackendMissing, match=r"^the amaranth backend cannot run: the "
                       r"chip, mutant _stuck_diagonal is an edit of its Verilog"):
        Amaranth(CHIP, pins=edited)
    with pytest.raises(BackendMissing, match=r"^the compiled backend cannot run: .* "
                       r"Verilog, which has no rtlil$"):
        compiled.Compiled(CHIP, pins=edited)
    # A mutant builds beside the chip, never over it.
    assert edited.source.name != pins(CHIP).source.name


def test_the_bit_parallel_chips_refuse_pins_other_than_the_chips_own_probes():
    # The chip's entry, behind the cartridge's adapter: its pins, not its name, say no.
    with pytest.raises(BackendMissing, match="the bitlanes backend runs the ETH chip only"):
        bitlanes.Bitlanes(CHIP, pins=pins(CHIP, cartridge=True))


def test_make_verify_picks_the_bit_parallel_chips():
    assert verify.fastest()[0] == verify.BITLANES


def test_every_game_on_the_bit_parallel_chips_agrees_with_the_golden_model(recorded):
    chips = bitlanes.Bitlanes(CHIP)
    recorded.compare(_run(chips, recorded), chips.outputs)     # raises on a difference


@pytest.fixture(scope="module")
def golden_cache(tmp_path_factory):
    """A cache of golden recordings of this module's own, empty at first."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("golden")
        patch.setattr(recordings, "CACHE", folder)
        yield folder


def test_every_game_checked_in_bit_planes_agrees_and_its_recording_is_cached(
        golden_cache):
    recording = recordings.recorded(CHIP)
    chips = bitlanes.Bitlanes(CHIP)
    lengths = recording.lengths
    assert play(recording, chips) == lengths.sum()
    assert len(list(golden_cache.glob("*/*/*/recording.npz"))) == 1
    assert len(list(golden_cache.glob("*/*/*/planes/*/planes.npz"))) == 1
    planes = bitlanes.Planes.viewing(recording, chips.widths)      # read back, the same
    assert (planes.lengths == lengths).all() and chips.check_planes(planes) == []
    # The lanes sorted longest first, and each group runs as long as its longest lane.
    assert sorted(planes.order.tolist()) == list(range(len(lengths)))
    assert (np.diff(lengths[planes.order]) <= 0).all()
    assert planes.cycles.tolist() == [lengths[planes.order[k:k + 64]].max()
                                      for k in range(0, len(lengths), 64)]


def test_a_broken_gate_is_caught_in_bit_planes_and_named_lane_by_lane(golden_cache):
    recording = recordings.recorded(CHIP)
    broken = bitlanes.Bitlanes(CHIP, pins=pins(CHIP).mutant(edit=_stuck_diagonal))
    differ = broken.check(recording)
    assert 0 < len(differ) <= 64
    with pytest.raises(Mismatch, match=r"^cycle \d+ of lane (\d+) .*: \w+ is ") as caught:
        play(recording, broken)
    assert int(re.match(r"cycle \d+ of lane (\d+)", str(caught.value))[1]) in differ


def test_the_bit_parallel_chips_read_what_plain_verilator_reads_at_every_power_up():
    inputs = workload.inputs(workload.sessions(70))     # two words, one not full
    power_up, lengths = np.arange(70) % 8, np.arange(70) * 20 + 100
    assert (bitlanes.Bitlanes(CHIP).run(inputs, lengths, power_up) ==
            verilated.Verilated(CHIP).run(inputs, lengths, power_up)).all()


def test_every_row_of_the_speed_table_is_a_ratio_of_plain_verilators():
    rows = [{"simulator": PEER, "mode": "4 sessions, one chip, batch",
             "cycles_per_s": 100.0},
            {"simulator": PEER, "mode": "256 lanes, batch",
             "cycles_per_s": 400.0},
            {"simulator": "x", "mode": "4 sessions, one chip", "cycles_per_s": 50.0},
            {"simulator": "x", "mode": "256 lanes, batch", "cycles_per_s": 800.0},
            {"simulator": "x", "mode": "256 sessions, batch recording, 2 processes",
             "cycles_per_s": 200.0},
            {"simulator": "y", "mode": "4 sessions, one chip", "missing": "why"}]
    ratios = [row.get("over_plain_verilator") for row in speeds.over_plain_verilator(rows)]
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


def _runtime_of(folder, verilog, arguments):
    """What `verilated.runtime` says of a model of `verilog` made with `arguments`
    (verilated, not compiled)."""
    verilated.available()
    folder.mkdir()
    (folder / "top.v").write_text(verilog)
    subprocess.run(["verilator", "--cc", "--exe", "--Mdir", "obj", "--top-module", "top",
                    *arguments, "top.v", str(verilated.HARNESS)], cwd=folder, check=True,
                   capture_output=True)
    return verilated.runtime(folder / "obj", "top")


def test_models_compiled_alike_share_verilators_runtime_and_others_do_not(tmp_path):
    # The chip's model and a gate-level netlist's: one runtime between them. A traced
    # model compiles the runtime with other defines, so it gets its own, and a file more.
    counter = "module top(input clk, output reg [3:0] q);\n" \
              "  always @(posedge clk) q <= q + 1;\nendmodule\n"
    gate = "module top(input a, input b, output y);\n  assign y = a & b;\nendmodule\n"
    chip = _runtime_of(tmp_path / "chip", counter, verilated.VERILATOR_ARGS)
    gates = _runtime_of(tmp_path / "gates", gate, gatelevel.VERILATOR_ARGS)
    traced = _runtime_of(tmp_path / "traced", counter, [*verilated.VERILATOR_ARGS, "--trace"])
    assert "verilated.cpp" in chip["verilated.o"]
    assert gates == chip
    assert "verilated_vcd_c.o" in traced and traced["verilated.o"] != chip["verilated.o"]


def test_each_runtime_file_says_how_long_its_first_compile_takes(tmp_path, monkeypatch):
    # A verb prints its one-time builds before its own first line, each with its
    # "(once, about N s)", by which tests/test_journeys.py reads past them. The C++
    # compiler is left out: each runtime file is made an empty file.
    verilated.available()
    real = verilated.run_tool

    def compiled_as_nothing(command, cwd, *args, **kwargs):
        if command[0] == "verilator":
            return real(command, cwd, *args, **kwargs)
        if command[-1].endswith(".o"):
            (cwd / command[-1]).touch()
    monkeypatch.setattr(verilated, "run_tool", compiled_as_nothing)
    monkeypatch.setattr(verilated, "RUNTIME", tmp_path / "runtime")
    (tmp_path / "top.v").write_text("module top(input a, output y);\n  assign y = a;\n"
                                    "endmodule\n")
    said = []
    verilated.verilate(["--top-module", "top", *verilated.VERILATOR_ARGS, "top.v",
                        str(verilated.HARNESS)], tmp_path, "top", tmp_path / "failed",
                       log=said.append)
    assert len(said) >= 2 and any("verilated.o" in line for line in said), said
    assert all(ONCE.search(line) for line in said), said
