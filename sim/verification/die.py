"""The 1990 chip placed and routed again: ``make die``.

The report's chip was laid out with VTI's tools and simulated after layout (seed 002
§5). Here the chip as ``make verilog`` writes it goes through qflow, the open flow
Debian packages with the Oklahoma State University standard cells: Yosys maps it to the
cells, GrayWolf places them, qrouter routes them, and Vesta times the routed netlist
with the wires' delays (``backanno``). What comes back (`Layout`) is the routed DEF,
the post-layout netlist with the buffers and fill the flow added, the timing report and
the blocks of figure 2 each cell was made from; sim.verification.die_files reads them
into report.json, sim.verification.die_plot draws the die, and ``make verify
NETLIST=die`` runs every game on that netlist with the cells' own Verilog models.

Yosys is run from a script of ours (qflow's own, changed in three lines): qflow numbers
the cells by type (NAND2X1_12) and the paper's blocks would be lost, so the script also
writes the flattened netlist as JSON with each cell under its block's name
(``$flatten\\board...``), and every net named as in the netlist qflow writes.
"""

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path

from firmware_ref import cli
from hdl.eth import export

from sim import BUILD
from sim.cache import cached
from sim.tools import run_tool

from sim.verification import gatelevel

__all__ = ["NETLIST", "PROCESS", "PROCESSES", "DENSITY", "BLOCKS", "QflowMissing",
           "tech", "missing", "Layout", "layout", "page", "PAGE", "netlist", "yosys_models", "measure", "title", "write", "named", "models",
           "parts_of", "sanitized", "part_of_cell", "Gates", "ports"]

NETLIST = "die"                     # make verify NETLIST=die
TECHS = Path("/usr/share/qflow/tech")
# OSU's cells in AMI's 0.35 um process (4 metals): the process chosen (docs/die.md).
PROCESS = "osu035"
PROCESSES = ("osu035", "osu050", "osu018")
# The placement's initial density: none, as qflow's own default, GrayWolf packing the
# cells; the 4 metal layers route them all (docs/die.md measures the alternatives).
DENSITY = None
# Figure 2's blocks, the modules of the exported chip (ttt_chip.board, ...); what the
# chip's top holds itself (pin buffers, the clock's tree) is "chip".
BLOCKS = ("keyboard", "board", "move", "value", "stack", "controller")
CACHE = BUILD / "die" / "cache"
PAGE = "die.json"                   # the die as the page takes it (die_page)
FAILED = BUILD / "die" / "failed"
# Measured on the project's 2-core machine (2026-11-29): synthesis, placement, routing.
LAYOUT_S = 45

# qflow's own Yosys script for a design of standard cells (synthesize.sh), changed in
# three lines: registers that power up 1 held inverted, as every flip-flop here powers
# up 0 (the checks take it so, as for sky130); the nets renumbered but not the cells,
# whose names keep their block; and the flattened netlist written as JSON.
_YOSYS = """\
read_liberty -lib -ignore_miss_dir -setattr blackbox {lib}
read_verilog {top}.v
synth -top {top}
dfflegalize -cell $_DFF_P_ 0
dfflibmap -liberty {lib}
opt
abc -exe {bindir}/yosys-abc -liberty {lib} -script +strash;scorr;ifraig;retime,{{D}};strash;dch,-f;map,-M,1,{{D}}
flatten
setundef -zero
clean -purge
iopadmap -outpad BUFX2 A:Y -bits
opt
clean
rename -enumerate w:*
write_blif -buf BUFX2 A Y {top}_mapped.blif
write_json {top}_blocks.json
stat
"""
_VARS = """\
set yosys_options = "-s {script}"
set vesta_options = "--summary reports --long --num-paths 1000"
"""
_DENSITY = "set initial_density = {density}\n"     # none: GrayWolf packs the cells
# Vesta lists every register's longest path (--num-paths), not only the 20 longest: the
# report finds findfree's among them.
# What the flow's run keeps, by the names they have in build/die/.
KEPT = {"ttt_chip.def": "{top}.def", "ttt_chip.v": "{top}.rtlnopwr.v",
        "timing.txt": "log/post_sta.log", "route.log": "log/route.log",
        "blocks.json": "source/{top}_blocks.json"}


class QflowMissing(cli.UserError):
    """qflow or its cells are not installed."""


def tech(process=PROCESS):
    """The folder of `process`'s cells (LEF, Liberty, SPICE, Verilog), or QflowMissing
    that names the Debian packages to install."""
    folder = TECHS / process
    if shutil.which("qflow") is None or not (folder / f"{process}.sh").is_file():
        raise QflowMissing(f"the die needs qflow and its {process} cells from Debian: "
                           f"apt-get install qflow qflow-tech-{process}")
    return folder


def missing(process=PROCESS):
    """Why the die cannot be laid out here, in tech's one line, or None where it can."""
    try:
        tech(process)
    except QflowMissing as why:
        return str(why)
    return None


def _qflow_version():
    said = subprocess.run(["qflow", "-h"], capture_output=True, text=True).stdout
    return next((line for line in said.splitlines() if "version" in line), "?")


def _cell_files(process):
    """{kind: path} of `process`'s LEF, Liberty and SPICE, as its qflow settings name
    them, and its cells' Verilog models."""
    folder = tech(process)
    settings = (folder / f"{process}.sh").read_text()
    files = {kind: folder / re.search(rf"^set {word}=(\S+)", settings, re.M)[1]
             for kind, word in (("lef", "leffile"), ("lib", "libertyfile"),
                                ("sp", "spicefile"))}
    return {**files, "v": min(folder.glob("*_stdcells.v"))}


@dataclasses.dataclass(frozen=True)
class Layout:
    """The routed chip: `folder` holds KEPT's files; `process` its cells."""
    folder: Path
    process: str
    density: float

    def path(self, name):
        return self.folder / name

    @property
    def cells(self):
        """{kind: path} of the process's LEF, Liberty, SPICE and Verilog models."""
        return _cell_files(self.process)


def layout(process=PROCESS, density=DENSITY, *, log=None, cache=CACHE):
    """The chip placed and routed in `process`'s cells at `density` (a Layout), cached
    under `cache` (build/die/cache/) by the chip's Verilog, the flow's settings, the
    cells and qflow's version."""
    cells = _cell_files(process)
    verilog = export.netlist("verilog")
    top = export.TOP

    def build(work):
        (work / "source").mkdir()
        (work / "source" / f"{top}.v").write_text(verilog)
        script = work / "source" / f"{top}.ys"
        script.write_text(_YOSYS.format(lib=cells["lib"], top=top,
                                        bindir="/usr/lib/qflow/bin"))
        (work / "project_vars.sh").write_text(_VARS.format(script=script) + (
            _DENSITY.format(density=density) if density else ""))
        run_tool(["qflow", "-T", process, "-p", str(work), "synthesize", "place", "route",
                  "backanno", top], work, f"qflow ({process})", FAILED, log=log)
        kept = []
        for name, source in KEPT.items():
            found = work / source.format(top=top)
            if not found.is_file():
                raise cli.UserError(f"qflow ({process}) made no {found.name}: see its "
                                    f"logs in {work / 'log'}")
            kept.append(found.rename(work / name))
        return kept

    parts = [verilog, _YOSYS, _VARS, _DENSITY, process, density, _qflow_version(),
             *(path.read_bytes() for path in cells.values())]
    entry = cached(cache / f"{process}-{density}", parts, "ttt_chip.def", build,
                   doing=f"qflow: placing and routing the chip in {process} cells",
                   seconds=LAYOUT_S, log=log).parent
    return Layout(entry, process, density)


def measure(done):
    """(report.json's dict, the Def, the cells' sizes, {instance: part}) of a Layout."""
    from sim.verification import die_files
    cells = done.cells
    layout_def = die_files.read_def(done.path("ttt_chip.def").read_text())
    instances = die_files.read_netlist(done.path("ttt_chip.v").read_text())
    parts = die_files.instance_blocks(instances, parts_of(done.path("blocks.json")))
    sizes = die_files.cell_sizes(cells["lef"].read_text())
    report = die_files.report(
        layout_def, instances, parts, sizes,
        die_files.transistors(cells["sp"].read_text()),
        die_files.read_timing(done.path("timing.txt").read_text()),
        die_files.failed_routes(done.path("route.log").read_text()),
        process=done.process, density=done.density, blocks=BLOCKS)
    return report, layout_def, sizes, parts


def page(done, measured=None):
    """The die of a Layout as the page takes it (die_page.describe); `measured`:
    what measure(done) gave, where it was asked already."""
    from sim.verification import die_files, die_page
    report, layout_def, sizes, parts = measured or measure(done)
    functions = die_files.cell_functions(done.cells["lib"].read_text())
    return die_page.describe(layout_def, sizes, parts, functions, report)


def title(report):
    """The die plot's title."""
    return (f"The 1990 chip placed and routed again: qflow, OSU's {report['process']} "
            f"cells, cells by the blocks of figure 2, wires by layer")


def write(out, *, process=PROCESS, density=DENSITY, log=None):
    """Lay the chip out and write into folder `out` the routed DEF, the post-layout
    netlist, the timing report, report.json, die.svg and the page's die.json; returns
    (report, paths)."""
    from sim.verification import die_plot
    done = layout(process, density, log=log)
    measured = measure(done)
    report, layout_def, sizes, parts = measured
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in ("ttt_chip.def", "ttt_chip.v", "timing.txt"):
        shutil.copyfile(done.path(name), out / name)
        paths.append(out / name)
    write_json(out / "report.json", report)
    (out / "die.svg").write_text(die_plot.draw(layout_def, sizes, parts, report,
                                               title(report)))
    (out / PAGE).write_text(json.dumps(page(done, measured), separators=(",", ":")))
    return report, [*paths, out / "report.json", out / "die.svg", out / PAGE]


def netlist(process=PROCESS, *, log=None):
    """The post-layout netlist as Verilog (top module export.TOP, qflow's cell names)."""
    return layout(process, log=log).path("ttt_chip.v").read_text()


def named(process=PROCESS):
    """What the post-layout netlist is called where it is checked."""
    return f"post-layout netlist of the chip (qflow, {process} cells, {NETLIST})"


def models(process=PROCESS):
    """The cells' own Verilog models as Verilator runs them: the specify blocks (their
    delays) are read and left alone; the flip-flop's table powers up 0, as every
    flip-flop of the checks."""
    return _cell_files(process)["v"].read_text()


# The cells' primitives (UDP tables) said as Verilog Yosys reads: a flip-flop on the
# rising edge that powers up 0, as every check takes it (its clear and set are tied low
# in DFFPOSX1, the only flip-flop synthesis maps to), and a multiplexer. The cells with
# latches or a flip-flop's clear and set are left out: a netlist with one fails to read.
_FOR_YOSYS = """
module udp_dff (output reg out, input in, input clk, input clr, input set, input NOTIFIER);
  initial out = 1'b0;
  always @(posedge clk) out <= in;
endmodule
module udp_mux2 (output out, input in0, input in1, input sel);
  assign out = sel ? in1 : in0;
endmodule
"""
_LEFT_OUT = ("DFFSR", "LATCH")


def yosys_models(process=PROCESS):
    """The cells' Verilog models as Yosys reads them: the models' own text, each unnamed
    instance of a primitive named, the primitives given by _FOR_YOSYS."""
    text = re.sub(r"^primitive\b.*?^endprimitive\b.*?$", "", models(process),
                  flags=re.M | re.S)
    for cell in _LEFT_OUT:
        text = re.sub(rf"^module {cell}\b.*?^endmodule\b", "", text, flags=re.M | re.S)
    count = iter(range(1 << 20))
    text = re.sub(r"^(\s*)(udp_\w+)\s*\(", lambda m: f"{m[1]}{m[2]} {m[2]}_{next(count)} (",
                  text, flags=re.M)
    return _FOR_YOSYS + text


def parts_of(netlist):
    """{net name as qflow writes it: part} from Yosys's flattened JSON (its path, or
    the dict): the part of figure 2 each net's driving cell was made in (part_of_cell)."""
    from sim import yosys_json
    module = yosys_json.read(netlist).modules[export.TOP]
    names = module.bit_names()
    return {sanitized(label): part_of_cell(cell_name)
            for cell_name, cell in module.cells.items() for bit in cell.outputs()
            for label in names.get(bit, ())}


def sanitized(name):
    """A net's name as qflow's netlists write it (board.$38[2] is board__38_2_)."""
    return re.sub(r"\W", "_", name)


_SCOPES = re.compile(r"^(?:\$flatten)?((?:\\\w+\.)+)")


def part_of_cell(name):
    """The part of figure 2 a flattened cell `name` was made in: its block (board), or
    the circuit of a block that is a module of its own (board.findfree); else "chip"."""
    found = _SCOPES.match(name)
    scopes = found[1].replace("\\", "").rstrip(".").split(".") if found else []
    return ".".join(scopes) if scopes and scopes[0] in BLOCKS else "chip"


def write_json(path, data):
    path.write_text(json.dumps(data, indent=1) + "\n")


@dataclasses.dataclass
class Gates(gatelevel.Gates):
    """The post-layout netlist on Verilator with the cells' own Verilog models, through
    the chip's pins: a simulator of the protocol (sim.backends), as the sky130 netlist
    is. Every flip-flop powers up 0 (a register that powers up 1 is held inverted)."""
    netlist: str = NETLIST
    board: object = None
    process: str = PROCESS

    @property
    def name(self):
        return named(self.process)

    what = name

    def __post_init__(self):
        from sim.verification import sky130
        gatelevel._verilator()          # every tool is there before any work starts
        done = layout(self.process, log=self.log)
        netlist = done.path("ttt_chip.v").read_text()
        verilog = sky130.wrapped(netlist, ports(netlist))
        self.verilog = self.edit(verilog) if self.edit else verilog
        self.binary = gatelevel._model(self.verilog, cells=models(self.process),
                                       log=self.log)


_PORT = re.compile(r"^(input|output)\s+(?:\[(\d+):0\]\s+)?(\w+)\s*;", re.M)


def ports(netlist):
    """[(name, direction, width)] of the top module of a netlist qflow wrote."""
    return [(name, direction, int(high) + 1 if high else 1)
            for direction, high, name in _PORT.findall(netlist)]
