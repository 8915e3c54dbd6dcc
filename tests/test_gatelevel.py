"""What is flashed is what was verified: the chip of the iCEBreaker build, as Yosys
synthesises it, gate by gate on Verilator, in lockstep with the golden model over every
game at its pins (sim.verification.gatelevel, docs/verification.md). The routed netlist needs
``make bitstream`` and is checked by ``make verify NETLIST=routed``. make test cuts the
chip out of the bitstream's own synthesised netlist in the journey "On a board"
(tests/test_journeys.py), which synthesises it anyway."""

import dataclasses
import fcntl
import re
import shutil
import sys

import pytest

from boards.builds import build, netlists
from sim.verification import gatelevel, gatelevel_cut
from boards.ttt import main as ttt
from firmware_ref import cli
from sim import Mismatch, tools
from sim.chip import lanes
from sim.verification import verify
from user import ROOT, first_line, last_line, make

BOARD = "icebreaker"
# The last line of `make verify NETLIST=...`: every game agrees at the chip's pins.
AGREE = re.compile(r"all (\d+) games agree: (\d+) key presses, (\d+) cycles, the chip's "
                   r"pins \(fin, win, prompt, copyboard, led\) at every edge, in [\d.]+ s .*")


@pytest.mark.slow      # as the routed netlist (the journey "On a board"): make test-slow
def test_make_verify_netlist_synth_plays_every_game_like_the_golden_model():
    # As a user types it; its synthesis (cached in build/gatelevel/) is the one every
    # test here cuts the chip out of.
    done = make("verify", "NETLIST=synth")
    assert done.returncode == 0, done.stdout + done.stderr
    assert first_line(done) == ("every game in lockstep on the synth netlist of the "
                                f"{BOARD}, gate by gate, at the chip's pins")
    agreed = AGREE.fullmatch(last_line(done))
    assert agreed, last_line(done)
    games, presses, cycles = map(int, agreed.groups())
    assert games == 1955 and cycles > 300_000
    assert presses == sum(lane.pressed for lane in lanes.plan()[0])


def _complemented(name):
    def edit(verilog):
        for bit in range(16):
            verilog = gatelevel.flip_lut(verilog, name, bit)
        return verilog
    return edit


# A gate-level build of its own: make test-slow (test_equiv.py finds a changed LUT in
# make test).
@pytest.mark.slow
def test_one_changed_lut_is_caught_and_named_by_lane_and_cycle():
    # A LUT of the stack: it matters only once the chip searches, well into a game.
    board = netlists.board(BOARD)
    verilog = gatelevel.chip_verilog("synth", board)
    name = next(name for name, _ in gatelevel.luts(verilog) if name.startswith("\\stack."))
    with pytest.raises(Mismatch) as caught:
        verify.verify(gates=gatelevel.Gates("synth", board, edit=_complemented(name)))
    first = str(caught.value).splitlines()[0]
    found = re.match(r"cycle (\d+) of lane (\d+) \(.*\): (\w+) is ", first)
    assert found, first
    assert int(found[1]) > 1 and found[3] in gatelevel.PINS


# Two LUTs as Yosys writes a synthesised netlist's (write_verilog -noattr).
TWO_LUTS = """  SB_LUT4 #(
    .LUT_INIT(16'h8000)
  ) \\stack.x  (
    .I0(a), .I1(b), .I2(c), .I3(d), .O(x)
  );
  SB_LUT4 #(
    .LUT_INIT(16'h00f0)
  ) y_lut (
    .I0(a), .I1(b), .I2(c), .I3(d), .O(y)
  );
"""


def test_flip_lut_changes_one_bit_of_one_init():
    verilog = TWO_LUTS
    assert gatelevel.luts(verilog) == [("\\stack.x", 0x8000), ("y_lut", 0x00f0)]
    (name, init), *_ = gatelevel.luts(verilog)
    flipped = dict(gatelevel.luts(gatelevel.flip_lut(verilog, name, 3)))
    assert flipped[name] == init ^ 0b1000
    assert {n: i for n, i in flipped.items() if n != name} == \
        {n: i for n, i in gatelevel.luts(verilog) if n != name}


# An ECP5's and a Gowin's LUT as Yosys writes them: INIT, not LUT_INIT.
FAMILY_LUTS = """  LUT4 #(
    .INIT(16'hfff0)
  ) \\board.p_LUT4_Z  (
    .A(a), .B(b), .C(c), .D(d), .Z(x)
  );
  LUT2 #(
    .INIT(4'h8)
  ) two (
    .I0(a), .I1(b), .F(y)
  );
"""


def test_the_ecp5s_and_gowins_four_input_luts_are_found_and_flipped():
    assert gatelevel.luts(FAMILY_LUTS) == [("\\board.p_LUT4_Z", 0xfff0)]
    flipped = gatelevel.flip_lut(FAMILY_LUTS, "\\board.p_LUT4_Z", 0)
    assert gatelevel.luts(flipped) == [("\\board.p_LUT4_Z", 0xfff1)]


# One board of each other family: its synthesised chip on its own cell models agrees
# over every game, and the same chip with one LUT complemented does not (a gate-level
# build of each: make test-slow, as the iCEBreaker's above).
@pytest.mark.slow
@pytest.mark.parametrize("name", ["ulx3s", "tang_nano_9k"])
def test_another_familys_synthesised_chip_plays_every_game_and_a_changed_lut_is_caught(name):
    board = netlists.board(name)
    assert board.cells in gatelevel.CELLS and board.cells != "ice40"
    outcome = verify.verify(gates=gatelevel.Gates("synth", board))
    assert outcome.games == 1955 and outcome.cycles > 300_000
    verilog = gatelevel.chip_verilog("synth", board)
    assert "TRELLIS_FF" in verilog or "DFFE" in verilog     # the family's own cells
    luts = [lut for lut, _ in gatelevel.luts(verilog) if lut.startswith("\\stack.")]
    assert luts, "no LUT of the stack found"
    with pytest.raises(Mismatch):
        verify.verify(gates=gatelevel.Gates("synth", board, edit=_complemented(luts[0])))


def _built(name):
    """Board `name`'s routed netlist from the sources as they are, built first where
    make bitstream has not (under the journeys' lock of its build directory)."""
    board = netlists.board(name)
    lock = ROOT / "build" / ".journeys" / f"{name}.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            board.routed()
        except cli.UserError:
            board.bitstream()
    return board


# The ECP5's routed netlist, nextpnr's own slice halves read as the bitstream sets them
# (sim/verification/gatelevel_cut.py): every game agrees. Cut without reading the
# flip-flops' SD, as an earlier cut was, the chip disagrees at once: its flip-flops
# that nextpnr feeds through M take nothing (tests/test_gatelevel_cut.py proves each
# reading on one cell of each kind, in make test). A place and route if make bitstream
# BOARD=ulx3s has not made one, and a Verilator build of each: make test-slow.
@pytest.mark.slow
def test_an_ecp5_boards_routed_chip_plays_every_game_and_an_unread_sd_is_caught(
        tmp_path, monkeypatch):
    board = _built("ulx3s")
    outcome = verify.verify(gates=gatelevel.Gates("routed", board))
    assert (outcome.games, outcome.cycles) == (1955, 336_323)
    ecp5 = gatelevel_cut.ROUTED["ecp5"]

    def sd_unread(cell):
        if cell.type != "TRELLIS_FF":
            return gatelevel_cut.trellis(cell)
        return dataclasses.replace(cell, parameters={
            k: v for k, v in cell.parameters.items() if k != "SD"})
    monkeypatch.setitem(gatelevel_cut.ROUTED, "ecp5",
                        dataclasses.replace(ecp5, model=sd_unread))
    broken = gatelevel._routed_chip(board, *board.routed(), tmp_path)
    with pytest.raises(Mismatch, match=r"^cycle 3 of lane 0 \(the user begins\): "
                       r"copyboard is 1 in the chip, 0 in the golden model"):
        verify.verify(gates=gatelevel.Gates("routed", board, edit=lambda _: broken))


def test_a_routed_netlist_must_come_from_make_bitstream(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "BUILD", tmp_path)
    with pytest.raises(cli.UserError, match=f"run make bitstream BOARD={BOARD}"):
        netlists.routed(BOARD)


@pytest.mark.parametrize("argv", [
    ["--jobs", "-1"], ["--jobs", "0"], ["--netlist", "gates"], ["--board", BOARD],
    ["--netlist", "synth", "--board", "nexys"],
    ["--netlist", "synth", "--backend", "compiled"],
])
def test_bad_arguments_are_refused_before_any_work(argv, capsys):
    with pytest.raises(SystemExit) as refused:
        ttt(["verify", *argv])
    assert refused.value.code == cli.USAGE
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err           # nothing ran
    assert "error:" in err.splitlines()[-1]                 # argparse's usage, one error


def test_a_failing_tool_is_one_line_naming_its_last_words_and_its_log(tmp_path, monkeypatch):
    with pytest.raises(tools.ToolFailed) as failed:
        tools.run_tool([sys.executable, "-c", "print('building'); raise SystemExit('broke')"],
                       tmp_path, "The tool (a step)", tmp_path / "failed")
    message = str(failed.value)
    assert isinstance(failed.value, cli.UserError) and "\n" not in message
    assert message.startswith("The tool (a step) failed: broke (full log: ")
    log = tmp_path / "failed" / "the-tool-a-step.log"
    assert str(log) in message and "building\nbroke" in log.read_text()


def test_without_make_verify_says_so_in_one_line(monkeypatch, capsys):
    which = shutil.which
    monkeypatch.setattr(shutil, "which",
                        lambda name, *args, **kw: None if name == "make" else which(name))
    assert ttt(["verify", "--netlist", "synth", "--board", BOARD]) == cli.USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "make is not on the PATH" in err, err


def test_a_chip_that_cannot_be_cut_is_a_missing_bench_row(monkeypatch):
    from sim.reports.benchmark import every_game

    def cut_fails(*_, **__):
        raise gatelevel.CutFailed("a net no cell drives")
    monkeypatch.setattr(gatelevel, "Gates", cut_fails)
    rows = every_game.gate_level(netlists.boards(benchmarked=True),
                                  lambda text: None)
    assert rows and all(row["missing"] == "the chip cannot be cut out soundly: a net no "
                        "cell drives" for row in rows)
