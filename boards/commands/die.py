"""``ttt die``: the 1990 chip placed and routed again, and its die drawn."""

import argparse
from pathlib import Path

from firmware_ref.cli import UserError
from sim import BUILD, ROOT

from . import options

SUMMARY = "place and route the chip in standard cells with qflow: build/die/ and its plot"
MAKE = ("die",)
ABOUT = """\
Place and route the 1990 chip again, as its authors did with VTI's tools (the
report's section 5): the chip as make verilog writes it, through qflow from
Debian (Yosys maps it to the Oklahoma State University cells in a 0.35 um
process, GrayWolf places, qrouter routes, Vesta times the routed netlist with
its wires). It writes build/die/: the routed DEF (ttt_chip.def), the
post-layout netlist with the buffers and fill the flow added (ttt_chip.v), the
timing report (timing.txt), report.json (the cells by type and by the paper's
blocks, the transistors, the die's and the core's area, the wire by layer, the
failed routes, the maximum clock and the critical path in the paper's blocks)
and die.svg, the die drawn with its cells coloured by block; docs/die.svg is
that drawing. It prints the figures; exit status 1 if a net could not be
routed. About a minute the first time, then 2 seconds: the layout is kept
until the chip or the flow changes. Needs the Debian
packages qflow and qflow-tech-osu035 (it says so and stops without them).
--process lays it out in another of OSU's processes (osu050, osu018; each its
Debian package), --density at another placement density (0 lets the placer pack
the cells), --out-dir writes elsewhere, --no-docs leaves docs/die.svg alone.
make die runs it; make verify NETLIST=die then runs every game on the
post-layout netlist."""

DOCS_SVG = ROOT / "docs" / "die.svg"


def density(text):
    """An argparse type: a placement density from 0 (none set) up to 1."""
    try:
        value = float(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a density from 0 to 1")
    return value


def arguments(parser):
    from sim.verification import die
    parser.add_argument("--process", default=die.PROCESS, choices=die.PROCESSES,
                        help=f"OSU's cells in this process (default {die.PROCESS})")
    parser.add_argument("--density", type=density, default=die.DENSITY or 0,
                        help="the placement's initial density, the core's share the "
                             "cells are spread to at first (default 0: none, the placer "
                             "packs them)")
    parser.add_argument("--out-dir", default=BUILD / "die", type=Path,
                        help="where to write (default: build/die/)")
    parser.add_argument("--no-docs", action="store_true",
                        help="do not write docs/die.svg")


def run(args):
    from sim.verification import die
    try:
        report, paths = die.write(args.out_dir, process=args.process,
                                  density=args.density or None, log=print)
        if not args.no_docs and args.process == die.PROCESS and \
                (args.density or None) == die.DENSITY:
            svg = (args.out_dir / "die.svg").read_text()
            if not DOCS_SVG.is_file() or DOCS_SVG.read_text() != svg:
                DOCS_SVG.write_text(svg)
                paths.append(DOCS_SVG)
    except OSError as error:
        raise UserError(f"cannot write the die: {error.filename}: "
                        f"{error.strerror}") from None
    for line in summary(report):
        print(line)
    print("wrote " + ", ".join(str(options.relative(path)) for path in paths))
    # A die with a net left unrouted is no die: its figures are printed, and it fails.
    return 1 if report["failed_routes"] else None


def summary(report):
    """The lines ``ttt die`` prints: the figures of report.json."""
    cells, area, path = report["cells"], report["area_um2"], report["critical_path"]
    blocks = ", ".join(f"{block} {count}" for block, count in cells["by_block"].items())
    return [f"cells: {cells['total']} ({blocks}) and {cells['fill']} fill",
            f"transistors: {report['transistors']['total']}",
            f"die: {report['die_um'][0]:.0f} x {report['die_um'][1]:.0f} um "
            f"({area['die'] / 1e6:.3f} mm2), cells {area['utilisation']:.0%} of the core",
            "wire: " + ", ".join(f"{layer} {length / 1000:.1f} mm"
                                 for layer, length in report["wire_um"].items())
            + f", {report['vias']} vias, {report['failed_routes']} failed routes",
            f"critical path: {path['told']}"]
