"""Formal equivalence of the chip's netlists (sim.verification.equiv, docs/equivalence.md):
the RTL against the exported Verilog and against synth_ice40's netlist of the chip
alone, each proven for ever from power-up; a changed LUT is found and its pin named,
by simulation or by sat. The board builds' netlists, synthesised and routed, are
checked by ``equiv.check()`` in make formal (a routed one needs make bitstream).

The four checks of synth_ice40's netlist share one synthesis
(equiv_netlists.SYNTH_CACHE); what takes their time is the proof of each netlist, which
no two of them share: make test-builds finds a changed LUT in synth_ice40's netlist
(its synthesis of the chip from nothing is a whole build), make test-slow proves the
netlists."""

import re

import pytest
from amaranth.hdl import Fragment, Value

from boards.builds import build, netlists
from sim.verification import equiv, equiv_aig, equiv_proofs, gatelevel
from sim.yosys_json import SB_LUT4
from hdl.eth.chip import Chip


def _lut(verilog, output):
    """(name, inputs) of the LUT of synth_ice40's Verilog whose output is net `output`."""
    for found in re.finditer(rf"{SB_LUT4} #\(\s*\.LUT_INIT\(16'h\w+\)\s*\) (\S+) \((.*?)\);",
                             verilog, re.S):
        if re.search(rf"\.O\({re.escape(output)}\)", found[2]):
            return found[1], found[2]
    raise KeyError(output)


def _flip_fin_lut(bit):
    """An edit of the netlist: bit `bit` of the init of the LUT that drives fin flipped."""
    def edit(verilog):
        name, inputs = _lut(verilog, "fin")
        # The LUT's first two inputs are tied low: bits 1, 3, 5, ... are never read.
        assert re.search(r"\.I0\(1'h0\),\s*\.I1\(1'h0\)", inputs), inputs
        return gatelevel.flip_lut(verilog, name, bit)
    return edit


def _powering_up_as_1():
    """The chip's flip-flops whose initial value is 1."""
    chip = Chip()
    Fragment.get(chip, None)            # elaborated, or Amaranth warns that it is unused
    return sum(bin(getattr(Value.cast(register), "init", None) or 0).count("1")
               for register in chip.scan_registers.values())


@pytest.mark.slow       # a proof of half a minute: make test-slow and make formal
def test_the_exported_verilog_is_the_rtl():
    (result,) = equiv.check(pairs=("verilog",), log=lambda text: None)
    assert result.equivalent
    assert len(result.proven) == result.total == 30 + 97, result.unproven
    proven, matched, one_pass = result.by_name
    assert proven == matched == one_pass > 500         # every named net, by name too
    # The reset leaves the stack and the random counter: the pins differ after it
    # when the two start from different states.
    assert result.after_reset.startswith("no: the reset sets")
    assert "stack.stackregs" in result.after_reset and "move.random" in result.after_reset
    table = equiv.report([result])
    assert "| RTL vs exported Verilog |" in table and "127 / 127" in table


@pytest.mark.slow       # a proof of half a minute: make test-slow and make formal
def test_synth_ice40_of_the_chip_alone_is_the_rtl():
    (result,) = equiv.check(pairs=("synth",), log=lambda text: None)
    assert result.equivalent
    assert len(result.proven) == result.total == 127, result.unproven
    # An iCE40 flip-flop powers up as 0: synth_ice40 keeps a register that powers up
    # as 1 inverted, so such pairs are found by value, not by name.
    assert result.inverted == _powering_up_as_1() > 0
    # By name, one pass of equiv_induct claims more than it proves: it assumes the
    # nets it cannot prove.
    proven, matched, one_pass = result.by_name
    assert proven < one_pass < matched


@pytest.mark.build      # synth_ice40 of the chip: make test-builds
def test_a_changed_lut_is_a_counterexample_that_names_its_pin():
    (result,) = equiv.check(pairs=("synth",), edit=_flip_fin_lut(0), by_name=False,
                            log=lambda text: None, work=equiv.WORK / "test-changed")
    assert not result.equivalent
    assert list(result.unproven) == ["fin"]
    assert re.fullmatch(r"differs in cycle \d+ of a random run from power-up",
                        result.unproven["fin"])


@pytest.mark.slow       # a proof of half a minute: make test-slow and make formal
def test_sat_finds_it_unsimulated_and_bounds_what_it_cannot_prove(monkeypatch):
    monkeypatch.setattr(equiv_aig, "first_difference", lambda *args, **kwargs: None)
    monkeypatch.setattr(equiv_proofs, "BOUND", 3)
    (result,) = equiv.check(pairs=("synth",), edit=_flip_fin_lut(0), by_name=False,
                            log=lambda text: None, work=equiv.WORK / "test-unsimulated")
    assert not result.equivalent
    # fin is wrong at power-up; win, which the gate netlist takes from its fin, only
    # from cycle 4 on, past the bound of 3 cycles.
    assert result.unproven == {
        "fin": "differs in cycle 0 from power-up (sat)",
        "win": "equal for 3 cycles from power-up (sat), not proven by 1-step induction"}
    assert result.bound == 3
    assert len(result.proven) == result.total - 2


@pytest.mark.slow       # a proof of half a minute: make test-slow and make formal
def test_a_lut_bit_that_is_never_read_changes_nothing():
    (result,) = equiv.check(pairs=("synth",), edit=_flip_fin_lut(1), by_name=False,
                            log=lambda text: None, work=equiv.WORK / "test-unread")
    assert result.equivalent and not result.unproven


def test_a_routed_netlist_needs_make_bitstream(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "BUILD", tmp_path)
    (result,) = equiv.check(pairs=("routed",), boards=[netlists.board("icestick")],
                            by_name=False, log=lambda text: None, work=tmp_path / "equiv")
    assert not result.equivalent
    assert result.method.startswith("not checked:")
    assert result.method.endswith("run make bitstream BOARD=icestick")


def test_an_unknown_pair_is_refused():
    with pytest.raises(ValueError, match="unknown pairs"):
        equiv.check(pairs=("gates",))


def _board(name, cells):
    return gatelevel.Board(name=name, top="top", chip_module="chip", chip_instance="chip",
                           command="", synthesized=None, routed=None, bitstream=None,
                           report=None, cells=cells)


def test_boards_that_hand_the_same_netlist_share_one_proof(tmp_path, monkeypatch):
    # make formal's boards of one family mostly hand the same chip: the iCEBreaker's,
    # the HX8K Breakout's and the UPduino's synthesised chip is one netlist. Each board
    # is reported, the first proven, the others with its proof; another netlist, or
    # the same text on another family's cells, is proven on its own.
    gates = {"icebreaker": "a", "hx8k_breakout": "a", "icestick": "b", "ulx3s": "a"}
    monkeypatch.setattr(equiv.equiv_netlists, "gate", lambda pair, board, work, log: (
        f"module chip_gates; // {gates[board.name]}\nendmodule\n", gatelevel.TOP, True))
    proven = []

    def prove(pair, board, work, log, gate, by_name, title, started):
        proven.append(board.name)
        return equiv.Result(title, "1-step induction", ["fin"], proven=["fin"], total=1)
    monkeypatch.setattr(equiv, "_prove", prove)
    boards = [_board("icebreaker", "ice40"), _board("hx8k_breakout", "ice40"),
              _board("icestick", "ice40"), _board("ulx3s", "ecp5")]
    results = equiv.check(pairs=("board-synth",), boards=boards, log=lambda text: None,
                          work=tmp_path)
    assert proven == ["icebreaker", "icestick", "ulx3s"]
    assert [r.pair for r in results] == [f"RTL vs {b.name} synth" for b in boards]
    assert all(r.equivalent for r in results)
    shared = results[1]
    assert shared.same_as == "RTL vs icebreaker synth"
    assert re.fullmatch(r"RTL vs icebreaker synth's proof, the same netlist \(sha256 "
                        r"[0-9a-f]{12}\): 1-step induction", shared.method)
    assert "the same netlist" in equiv.report(results).splitlines()[3]
    assert not any(r.same_as for r in results[2:])


def test_a_board_whose_netlist_another_task_is_proving_holds_no_worker():
    # make formal's tasks run side by side: a board that meets its netlist while
    # another task proves it returns at once (a Shared), and takes the proof once
    # every task has ended.
    proofs, results = equiv.Proofs(), {}

    def proving():
        results["orangecrab"] = proofs.once(("routed", "ecp5", "f00"),
                                            "RTL vs orangecrab routed", 0.0, None)
        return equiv.Result("RTL vs ulx3s routed", "induction", ["fin"], ["fin"], total=1)
    ulx3s = proofs.once(("routed", "ecp5", "f00"), "RTL vs ulx3s routed", 0.0, proving)
    shared = results["orangecrab"]
    assert isinstance(shared, equiv.Shared) and shared.owner == "RTL vs ulx3s routed"
    assert shared.summary() == ("RTL vs orangecrab routed: the same netlist as RTL vs "
                                "ulx3s routed's, whose proof it takes")
    settled = proofs.settled([ulx3s, shared])
    assert settled[0] is ulx3s
    assert (settled[1].pair, settled[1].same_as, settled[1].proven) == \
        ("RTL vs orangecrab routed", "RTL vs ulx3s routed", ["fin"])


def test_a_shared_proof_that_was_never_made_is_an_error():
    proofs = equiv.Proofs()

    def fails():
        raise RuntimeError("Yosys failed")
    with pytest.raises(RuntimeError, match="Yosys failed"):
        proofs.once(("key",), "RTL vs icebreaker synth", 0.0, fails)
    shared = proofs.once(("key",), "RTL vs hx8k_breakout synth", 0.0, fails)
    with pytest.raises(RuntimeError, match=r"^RTL vs hx8k_breakout synth: the same "
                       r"netlist as RTL vs icebreaker synth, which was not proven"):
        proofs.settled([shared])
