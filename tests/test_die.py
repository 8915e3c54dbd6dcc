"""The die (make die, docs/die.md): the readers of a layout's files, the report and the
plot from small files written here, and without qflow the one line that says what to
install; with qflow (make test-builds) the whole flow, the committed docs/die.svg drawn
from the current layout, and every game on the post-layout netlist."""

import json
import re
import shutil
import xml.etree.ElementTree as ElementTree

import pytest

from boards.ttt import main as ttt
from sim.verification import die, die_files, die_plot

MISSING = die.missing()
needs_qflow = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")

DEF = """\
VERSION 5.6 ;
DESIGN ttt_chip ;
UNITS DISTANCE MICRONS 100 ;
DIEAREA ( 0 0 ) ( 10000 5000 ) ;
COMPONENTS 4 ;
- DFFPOSX1_1 DFFPOSX1 + PLACED ( 1000 1000 ) N ;
- NAND2X1_1 NAND2X1 + PLACED ( 4000 1000 ) FS ;
- BUFX2_1 BUFX2 + PLACED ( 6000 1000 ) N ;
- FILL_0_0_0 FILL + PLACED ( 8000 1000 ) N ;
END COMPONENTS
PINS 1 ;
- cp + NET cp
  + LAYER metal2 ( -40 0 ) ( 40 80 )
  + PLACED ( 500 0 ) N ;
END PINS
NETS 2 ;
- keyboard.q
  ( DFFPOSX1_1 Q ) ( NAND2X1_1 A )
+ ROUTED metal1 ( 1500 1200 ) M2_M1
  NEW metal2 ( 1500 1200 ) ( * 3200 ) M3_M2
  NEW metal3 ( 1500 3200 ) ( 4200 * ) ;
- _5_
  ( NAND2X1_1 Y ) ( BUFX2_1 A )
+ ROUTED metal1 ( 4400 1200 ) ( 6100 * ) ;
END NETS
SPECIALNETS 1 ;
- _5_
+ ROUTED metal1 80 ( 4400 1200 ) ( * 1300 ) ;
END SPECIALNETS
END DESIGN
"""
LEF = "".join(f"MACRO {cell}\n  CLASS CORE ;\n  SIZE {width} BY 20.000 ;\nEND {cell}\n"
              for cell, width in (("DFFPOSX1", 19.2), ("NAND2X1", 4.8), ("BUFX2", 4.8),
                                  ("FILL", 1.6)))
SPICE = """\
.subckt NAND2X1 A B Y vdd gnd
M0 Y A vdd vdd pfet w=4u l=0.4u
M1 Y B vdd vdd pfet w=4u l=0.4u
M2 Y A a_9_6# gnd nfet w=4u l=0.4u
M3 a_9_6# B gnd gnd nfet w=4u l=0.4u
.ends
.subckt BUFX2 A Y vdd gnd
M0 a Y vdd vdd pfet w=4u l=0.4u
M1 a Y gnd gnd nfet w=2u l=0.4u
M2 Y a vdd vdd pfet w=8u l=0.4u
M3 Y a gnd gnd nfet w=4u l=0.4u
.ends
.subckt DFFPOSX1 CLK D Q vdd gnd
M0 Q D vdd vdd pfet w=4u l=0.4u
M1 Q D gnd gnd nfet w=2u l=0.4u
.ends
.subckt FILL vdd gnd
.ends
"""
NETLIST = """\
module ttt_chip (cp, led);
input cp;
output led;
DFFPOSX1 DFFPOSX1_1 ( .CLK(cp), .D(_5__bF_buf0), .Q(keyboard_q) );
NAND2X1 NAND2X1_1 ( .A(keyboard_q), .B(keyboard_q), .Y(_5_) );
BUFX2 BUFX2_1 ( .A(_5_), .Y(_5__bF_buf0) );
FILL FILL_0_0_0 ( );
endmodule
"""
TIMING = """\
Top 20 maximum delay paths:
Path DFFPOSX1_1/CLK to DFFPOSX1_1/D delay 900.5 ps
      0.0 ps          cp:              -> DFFPOSX1_1/CLK
    300.0 ps  keyboard_q: DFFPOSX1_1/Q ->  NAND2X1_1/A
    500.0 ps         _5_: NAND2X1_1/Y ->    BUFX2_1/A
    700.0 ps _5__bF_buf0:   BUFX2_1/Y -> DFFPOSX1_1/D

   clock skew at destination = 0
   setup at destination = 200.5

Path DFFPOSX1_1/CLK to DFFPOSX1_1/D delay 400 ps
      0.0 ps          cp:              -> DFFPOSX1_1/CLK
    300.0 ps  keyboard_q: DFFPOSX1_1/Q -> DFFPOSX1_1/D

   setup at destination = 100

Computed maximum clock frequency (zero margin) = 1110.5 MHz
"""
ROUTE_LOG = "Progress: Stage 3 total routes completed: 5\nFinal: No failed routes!\n"
# Yosys's flattened JSON: each cell under its block's name (sim/verification/die.py).
YOSYS = {"modules": {"ttt_chip": {"ports": {}, "netnames": {
    "cp": {"bits": [2]}, "keyboard.q": {"bits": [3]}, "_5_": {"bits": [4]}},
    "cells": {
        "$flatten\\keyboard.$auto$ff$1": {
            "type": "DFFPOSX1", "connections": {"CLK": [2], "D": [4], "Q": [3]},
            "port_directions": {"CLK": "input", "D": "input", "Q": "output"}},
        "$flatten\\board.\\findfree.$abc$7$auto$blifparse.cc:386$8": {
            "type": "NAND2X1", "connections": {"A": [3], "B": [3], "Y": [4]},
            "port_directions": {"A": "input", "B": "input", "Y": "output"}}}}}}


def measured():
    """The report, the Def, the sizes and the parts of the small layout above."""
    layout_def = die_files.read_def(DEF)
    instances = die_files.read_netlist(NETLIST)
    parts = die_files.instance_blocks(instances, die.parts_of(YOSYS))
    sizes = die_files.cell_sizes(LEF)
    report = die_files.report(layout_def, instances, parts, sizes,
                              die_files.transistors(SPICE), die_files.read_timing(TIMING),
                              die_files.failed_routes(ROUTE_LOG), process="osu035",
                              density=0.5, blocks=die.BLOCKS)
    return report, layout_def, sizes, parts


def test_the_def_is_read_in_micrometres_with_its_wires_by_layer():
    layout_def = die_files.read_def(DEF)
    assert layout_def.die == (0, 0, 100, 50)
    assert layout_def.components[1] == ("NAND2X1_1", "NAND2X1", 40, 10, "FS")
    assert layout_def.pins == [("cp", 5, 0)]
    assert layout_def.vias == 2
    lengths = {}
    for _, layer, ax, ay, bx, by in layout_def.wires:
        lengths[layer] = lengths.get(layer, 0) + abs(bx - ax) + abs(by - ay)
    assert lengths == pytest.approx({"metal1": 18, "metal2": 20, "metal3": 27})


def test_cells_transistors_timing_and_routes_are_read():
    assert die_files.cell_sizes(LEF)["DFFPOSX1"] == (19.2, 20)
    assert die_files.transistors(SPICE) == {"NAND2X1": 4, "BUFX2": 4, "DFFPOSX1": 2,
                                            "FILL": 0}
    timing = die_files.read_timing(TIMING)
    assert timing.max_clock_mhz == 1110.5
    assert [path.delay_ps for path in timing.paths] == [900.5, 400]
    assert [step.cell for step in timing.paths[0].steps] == [
        "DFFPOSX1_1", "NAND2X1_1", "BUFX2_1", "DFFPOSX1_1"]
    assert die_files.failed_routes(ROUTE_LOG) == 0
    assert die_files.failed_routes("Final: Failed net routes: 3\nList of failed nets\n") == 3
    with pytest.raises(ValueError):
        die_files.read_timing("no paths")


def test_each_cell_is_given_the_block_it_was_made_in():
    assert die.part_of_cell("$flatten\\board.\\findfree.$abc$1$x.cc:2$3") == "board.findfree"
    assert die.part_of_cell("$flatten\\stack.$auto$ff$9") == "stack"
    assert die.part_of_cell("$iopadmap$ttt_chip.led") == "chip"
    assert die.parts_of(YOSYS) == {"keyboard_q": "keyboard", "_5_": "board.findfree"}
    # A buffer the flow added follows the net it buffers; the spacers are fill.
    assert measured()[3] == {"DFFPOSX1_1": "keyboard", "NAND2X1_1": "board.findfree",
                             "BUFX2_1": "board.findfree", "FILL_0_0_0": "fill"}


def test_the_report_counts_by_type_and_block_and_tells_the_critical_path():
    report = measured()[0]
    assert report["cells"]["total"] == 3 and report["cells"]["fill"] == 1
    assert report["cells"]["by_type"] == {"BUFX2": 1, "DFFPOSX1": 1, "NAND2X1": 1}
    assert report["cells"]["by_block"]["board"] == 2
    assert report["cells"]["by_block"]["keyboard"] == 1
    assert report["transistors"] == {"total": 10, "by_block": {
        "keyboard": 2, "board": 8, "move": 0, "value": 0, "stack": 0, "controller": 0,
        "chip": 0}}
    assert report["area_um2"]["die"] == 5000
    assert report["area_um2"]["cells"] == round((19.2 + 4.8 + 4.8) * 20)
    assert report["wire_um"] == {"metal1": 18, "metal2": 20, "metal3": 27}
    assert (report["failed_routes"], report["max_clock_mhz"]) == (0, 1110.5)
    path = report["critical_path"]
    assert path["parts"] == ["keyboard", "board.findfree", "keyboard"]
    assert path["findfree"] is True
    assert "through keyboard -> board.findfree -> keyboard (q);" in path["told"]
    assert path["signals"] == ["q"]
    assert path["findfree_path"]["delay_ps"] == 900.5
    assert (path["levels"], path["findfree_levels"]) == (2, 2)     # the buffer counts
    # The chip's own case: findfree off the longest path.
    longest = {"delay_ps": 5000, "from": "A/CLK", "to": "B/D", "findfree": False,
               "parts": ["keyboard", "board", "controller"], "levels": 20,
               "findfree_levels": 8}
    start = ("5.00 ns from A/CLK to B/D, 20 cells through keyboard -> board -> controller; "
             "the clock is at most 200 MHz; findfree, which the report's §3.1 says limits the "
             "clock, is not on it (at most 8 cells deep")
    assert die_files.told(longest, {"delay_ps": 4000}, 200) == \
        start + ", its longest register path 4.00 ns, 80%)"
    assert die_files.told(longest, None, 200) == start + ", and on no register's longest path)"
    json.dumps(report)                  # report.json's


def test_the_plot_draws_cells_by_block_wires_by_layer_a_legend_and_a_scale():
    report, layout_def, sizes, parts = measured()
    svg = die_plot.draw(layout_def, sizes, parts, report, "a small die")
    root = ElementTree.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    drawn = {p.get("data-part") for p in root.iter(f"{ns}path") if p.get("data-part")}
    assert drawn == {"keyboard", "board.findfree", "fill"}
    layers = {p.get("data-layer") for p in root.iter(f"{ns}path") if p.get("data-layer")}
    assert layers == {"metal1", "metal2", "metal3"}
    assert len([p for p in root.iter(f"{ns}polyline") if p.get("data-critical-path")]) == 1
    assert [p.get("data-pins") for p in root.iter(f"{ns}path") if p.get("data-pins")] == ["1"]
    words = " ".join(t.text for t in root.iter(f"{ns}text"))
    for said in ("Cells by block", "keyboard: 1 cells", "Wires by layer", "metal2: 0.0 mm",
                 "Critical path", "1. keyboard", "2. board.findfree", "pins", "µm"):
        assert said in words, said
    assert die_plot.draw(layout_def, sizes, parts, report, "a small die") == svg


def test_without_qflow_make_die_says_what_to_install_in_one_line(monkeypatch, capsys,
                                                                tmp_path):
    monkeypatch.setattr(die, "TECHS", tmp_path)
    assert ttt(["die", "--out-dir", str(tmp_path / "out"), "--no-docs"]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "apt-get install qflow qflow-tech-osu035" in said[0]
    assert "Traceback" not in said[0]


@pytest.mark.build
@needs_qflow
def test_the_die_is_laid_out_measured_and_drawn_as_committed(tmp_path):
    report, paths = die.write(tmp_path)
    assert {p.name for p in paths} == {"ttt_chip.def", "ttt_chip.v", "timing.txt",
                                       "report.json", "die.svg", die.PAGE}
    assert report["failed_routes"] == 0
    assert set(report["cells"]["by_block"]) == {*die.BLOCKS, "chip"}
    assert all(report["cells"]["by_block"][block] > 0 for block in die.BLOCKS)
    assert report["cells"]["by_type"]["DFFPOSX1"] == 97
    assert report["max_clock_mhz"] > 6          # the paper's clock (§6)
    assert re.search(r"^FILL ", (tmp_path / "ttt_chip.v").read_text(), re.M)
    from boards.commands.die import DOCS_SVG
    assert (tmp_path / "die.svg").read_text() == DOCS_SVG.read_text(), \
        "docs/die.svg is not what make die draws now: run make die and commit it"


def test_without_qflow_the_proof_of_the_die_says_why_it_is_not_checked(monkeypatch,
                                                                        tmp_path):
    from sim.verification import equiv
    monkeypatch.setattr(die, "TECHS", tmp_path)
    (result,) = equiv.check(pairs=(die.NETLIST,), log=lambda text: None, work=tmp_path)
    assert not result.equivalent
    assert result.method.startswith("not checked: the die needs qflow")


@pytest.mark.slow
@needs_qflow
def test_the_post_layout_netlist_is_proven_equal_to_the_rtl(tmp_path):
    from sim.verification import equiv
    (result,) = equiv.check(pairs=(die.NETLIST,), log=lambda text: None, work=tmp_path)
    assert result.equivalent and not result.unproven
    assert result.total == 127 and result.inverted == 12    # the registers that power up 1


@pytest.mark.build
@needs_qflow
def test_the_layout_is_kept_until_a_source_changes(monkeypatch):
    from sim import cache
    kept = die.layout()
    asked = []

    def cached(folder, parts, name, build, **options):
        asked.append(parts)
        return kept.path(name)
    monkeypatch.setattr(die, "cached", cached)
    die.layout()
    monkeypatch.setattr(die.export, "netlist", lambda kind: "module ttt_chip; endmodule")
    die.layout()
    same, changed = (cache.key(parts) for parts in asked)
    assert cache.valid(kept.folder, same)           # the entry a second run reuses
    assert changed != same                          # a changed chip is laid out anew


@pytest.mark.slow
@needs_qflow
@pytest.mark.skipif(shutil.which("make") is None, reason="make is needed for Verilator")
def test_one_cell_changed_in_the_post_layout_netlist_is_caught():
    from sim import Mismatch
    from sim.verification import verify

    def nand_made_and(verilog):         # the first NAND2X1 of the die an AND2X2
        return re.sub(r"^NAND2X1 (NAND2X1_\d+) ", r"AND2X2 \1 ", verilog, count=1, flags=re.M)
    with pytest.raises(Mismatch):
        verify.verify(gates=die.Gates(edit=nand_made_and))


# -- the die the page clocks (sim/watch/die.py), from a description written here ----------

LIBERTY = """\
cell (NAND2X1) {
  pin(A) { direction : input; }
  pin(Y) { direction : output; function : "(!(A B))"; }
}
cell (BUFX2) {
  pin(Y) { direction : output; function : "A"; }
}
cell (CLKBUF1) {
  pin(Y) { direction : output; function : "A"; }
}
cell (DFFPOSX1) {
  ff (DS0000,P0002) {
    next_state : "D";
    clocked_on : "CLK";
  }
  pin(Q) { direction : output; function : "DS0000"; }
}
cell (LATCH) {
  latch (DS0000,P0000) { data_in : "D"; enable : "CLK"; }
  pin(Q) { direction : output; function : "DS0000"; }
}
"""


def small_die(nand=("q", "q"), clock="cp_buf"):
    """A die of a flip-flop whose D is its Q through a NAND and a buffer (it toggles at
    each edge), its clock through a buffer, and a spacer; as die_page describes one."""
    nets = ["cp", "q", "n", "d", "cp_buf"]
    at = nets.index

    def cell(name, kind, **pins):
        return [name, kind, 0, 0, 0, 1, 1, {pin: at(net) for pin, net in pins.items()}]
    return {"format": 1, "nets": nets, "pins": [["cp", 0, 0, 0], ["q", 1, 0, 1]],
            "models": die_files.cell_functions(LIBERTY),
            "cells": [cell("DFF_1", "DFFPOSX1", CLK=clock, D="d", Q="q"),
                      cell("NAND_1", "NAND2X1", A=nand[0], B=nand[1], Y="n"),
                      cell("BUF_1", "BUFX2", A="n", Y="d"),
                      cell("CLKBUF_1", "CLKBUF1", A="cp", Y="cp_buf"),
                      cell("FILL_1", "FILL")]}


def test_a_liberty_gives_each_cells_functions_and_its_flip_flops():
    cells = die_files.cell_functions(LIBERTY)
    assert cells["NAND2X1"] == {"out": {"Y": "(!(A B))"}, "flop": None}
    assert cells["DFFPOSX1"] == {"out": {"Q": "DS0000"}, "flop": ("D", "CLK", "DS0000")}
    assert "LATCH" not in cells


@pytest.mark.parametrize("function, pins, truth", [
    ("(!((A B)+C))", "ABC", lambda a, b, c: 1 - (a & b | c)),
    ("(!((A+B) (C+D)))", "ABCD", lambda a, b, c, d: 1 - ((a | b) & (c | d))),
    ("(!((S A) + (!S B)))", "SAB", lambda s, a, b: 1 - (a if s else b)),
    ("((A^B)^C)", "ABC", lambda a, b, c: a ^ b ^ c),
    ("A' * B | A & B'", "AB", lambda a, b: a ^ b),
    ("(A B)+1", "AB", lambda a, b: 1),
])
def test_a_liberty_function_is_clocked_as_its_truth_table(function, pins, truth):
    from itertools import product

    from sim.watch.die import python_of
    expression = python_of(function, {pin: f"v[{k}]" for k, pin in enumerate(pins)})
    for v in product((0, 1), repeat=len(pins)):
        assert eval(expression, {"v": v}) == truth(*v), (function, v)


@pytest.mark.parametrize("function, said", [
    ("(A B) C)", "more than one term"), ("(!(A Z))", "reads Z"), ("(A B", "wants ')'")])
def test_a_liberty_function_not_read_is_said_in_one_line(function, said):
    from sim.watch.die import Unreadable, python_of
    with pytest.raises(Unreadable, match=re.escape(said)):
        python_of(function, {"A": "a", "B": "b", "C": "c"})


def test_the_small_die_toggles_at_each_edge_of_cp():
    from firmware_ref.eth.cycle import Inputs
    from sim.watch.die import Die
    small = Die(small_die())
    assert list(small.inputs) == ["cp"] and list(small.outputs) == ["q"]
    state, seen = small.power_up, []
    for _ in range(4):
        values = small.settle(state, Inputs(), 1)
        seen.append((small.read(values, "q"), values[2]))     # q and the NAND's n
        state = small.advance(state, Inputs())
    assert seen == [(0, 1), (1, 0), (0, 1), (1, 0)]


@pytest.mark.parametrize("changed, said", [
    ({"nand": ("n", "q")}, "in a loop without a flip-flop"),
    ({"clock": "n"}, "not clocked by cp"),
])
def test_a_netlist_the_page_cannot_clock_is_said_in_one_line(changed, said):
    from sim.watch.die import Die, Unreadable
    with pytest.raises(Unreadable, match=said):
        Die(small_die(**changed))
    with pytest.raises(Unreadable, match="another version"):
        Die({**small_die(), "format": 0})
    floating = small_die()
    floating["nets"].append("floating")
    floating["cells"][1][7]["B"] = len(floating["nets"]) - 1
    with pytest.raises(Unreadable, match="NAND_1 reads floating, which nothing drives"):
        Die(floating)


def test_a_die_without_the_chips_pins_is_not_followed():
    from sim.chip.signals import INPUT_PINS, TIED_LOW
    from sim.watch.die import Die, Following, Unreadable
    with pytest.raises(Unreadable, match="no input pin keyboardN"):
        Following(Die(small_die()), watch=None)
    # With every pin of the chip, and one more.
    pinned = small_die()
    for name in (*INPUT_PINS, *TIED_LOW, "spare"):
        pinned["nets"].append(name)
        pinned["pins"].append([name, 0, 0, len(pinned["nets"]) - 1])
    with pytest.raises(Unreadable, match="an input pin spare the chip has not"):
        Following(Die(pinned), watch=None)


def test_the_page_is_given_each_cell_with_its_nets_and_each_wire_by_layer():
    from sim.verification import die_page
    report, layout_def, sizes, parts = measured()
    page = die_page.describe(layout_def, sizes, parts, die_files.cell_functions(LIBERTY),
                             report)
    nets, cells = page["nets"], {c[0]: c for c in page["cells"]}
    assert nets == ["keyboard.q", "_5_"]
    name, kind, part, x, y, width, height, pins = cells["NAND2X1_1"]
    assert (kind, page["parts"][part], x, y, width, height) == \
        ("NAND2X1", "board.findfree", 40, 10, 4.8, 20)
    assert {pin: nets[net] for pin, net in pins.items()} == {"A": "keyboard.q", "Y": "_5_"}
    assert cells["FILL_0_0_0"][7] == {} and page["parts"][cells["FILL_0_0_0"][2]] == "fill"
    wires = [page["wires"][k:k + 6] for k in range(0, len(page["wires"]), 6)]
    assert wires[0] == [0, page["layers"].index("metal2"), 15, 12, 15, 32]
    assert sorted(page["models"]) == ["BUFX2", "DFFPOSX1", "NAND2X1"]  # the cells used
    assert page["colours"]["parts"][part] == die_plot.colour("board.findfree")
    json.dumps(page)                                    # plain JSON, as the page takes it
