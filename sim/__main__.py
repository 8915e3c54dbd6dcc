"""The project's command line: ``python -m sim <command>``.

    e2        replay the paper's E.2 session on the chip, in lockstep with the golden
              model, compare it with the paper row by row, and write its waves and
              the golden model's
    waves     open the E.2 waves in GTKWave (or say how to); --golden, --netlist
    games     play every game a user can play against the chip and report its think times
    netlist   run the cocotb tests on the exported netlist (python -m sim netlist -h)
    compare   compare two waveform files at every clock edge (python -m sim compare -h)
    verify    every game in lockstep on the fastest backend (python -m sim verify -h)
    benchmark measure every cost side by side: BENCHMARKS.md (python -m sim benchmark -h)
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from firmware_ref import cli

from . import e2, games

BUILD = Path(__file__).resolve().parents[1] / "build"
VCD, GTKW = BUILD / "e2.vcd", BUILD / "e2.gtkw"


def _e2(args):
    paper = e2.paper_rows()
    if args.golden:
        rows = e2.replay()
        where = "the golden model (firmware_ref/eth/cycle.py)"
    else:
        rows = _e2_on_hdl()
        if rows is None:
            return 1
        where = ("the Amaranth chip (hdl/eth/chip.py), checked against the golden model\n"
                 "at every edge,")
    differences = e2.compare(rows, paper, hardware=not args.golden)
    print(f"Appendix E.2 replayed on {where} in the paper's column order")
    print("('!' marks a row that differs from the paper):")
    print()
    print(e2.format_table(rows, marks={d.time for d in differences}))
    print()
    if differences:
        print(f"{len(differences)} cells differ from the paper's trace; the first:")
        for difference in differences[:10]:
            print(f"  {difference}")
    else:
        unknown = sum(f == "u" for row in paper for f in row.fields)
        print(f"All {len(rows)} rows match the paper's trace in all {len(e2.COLUMNS)} "
              f"columns ({e2.TRACE.name}, scan defects repaired as documented).")
        if not args.golden:
            print(f"The paper's {unknown} 'u' cells (never-written registers) match "
                  f"whatever the chip holds there.")
    print()
    print(f"Chip moves in this session, think time at {args.clock:g} MHz:")
    for n, (ended, cycles) in enumerate(e2.think_times(rows), start=1):
        after = "the game is over" if ended.name == "FINISHED" else "the chip waits"
        print(f"  move {n}: {cycles} cycles = {cycles / args.clock:.2f} us, then {after}")
    print()
    _golden_waves()
    if not args.golden:
        print(f"Waves: {VCD.relative_to(BUILD.parent)} with the GTKWave view "
              f"{GTKW.name}; 'make waves' opens them.")
    print(f"Golden waves: {_golden().relative_to(BUILD.parent)}, same names as the "
          f"netlist's; 'make compare' checks the HDL's against them.")
    return 1 if differences else 0


def _golden():
    return BUILD / "e2_golden.vcd"


def _golden_waves():
    from hdl.eth.export import TOP
    from . import golden_waves, gtkw
    golden_waves.write_session(_golden(), e2.SESSION)
    gtkw.write(_golden(), scope=TOP)


def _e2_on_hdl():
    from . import lockstep      # Amaranth is imported only when the HDL is asked for
    try:
        return lockstep.simulate(lambda bench: lockstep.run(bench, e2.replaying(bench)),
                                 vcd=VCD, gtkw=GTKW)
    except lockstep.Mismatch as mismatch:
        print(f"The chip and the golden model disagree:\n{mismatch}", file=sys.stderr)
        return None


def _display():
    """Why GTKWave could not show a window here, or None if it may."""
    if sys.platform in ("darwin", "win32"):
        return None
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return None


def _how_to_open(vcd, view, why):
    def shown(path):
        path = Path(path).resolve()
        return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
    vcd, view = shown(vcd), shown(view)
    print(f"The waves of the E.2 session are in {vcd} and their view in {view}.")
    print(f"GTKWave cannot show them: {why}. To look at them, either")
    print("  - where there is a display (a desktop, or 'ssh -X' to this machine), run")
    print(f"    gtkwave {vcd} {view}")
    print("    (GTKWave: 'apt install gtkwave', or 'brew install gtkwave' on macOS)")
    print(f"  - or open {vcd} in Surfer (surfer-project.org, also in a browser): its")
    print("    signal tree holds the same blocks, ttt_chip.controller and the others.")
    return 0


def _waves(args):
    """Write the waves asked for (the netlist's only if they are missing or cannot be
    read: they take a Verilator build) and their view, and open it."""
    from .waves import WavesError
    if args.netlist:
        from . import netlist
        vcd = netlist.waves_path(args.sim)
        try:
            view = netlist.write_gtkw(vcd)
        except WavesError:
            status = netlist.main(["--sim", args.sim, "--tests", "e2_session"])
            if status:
                return status
            try:
                view = netlist.write_gtkw(vcd)
            except WavesError as error:
                raise cli.UserError(str(error)) from None
    elif args.golden:
        _golden_waves()
        vcd, view = _golden(), _golden().with_suffix(".gtkw")
    else:
        if _e2_on_hdl() is None:
            return 1
        vcd, view = VCD, GTKW
    viewer = shutil.which("gtkwave")
    if viewer is None:
        return _how_to_open(vcd, view, "it is not installed here (no gtkwave on the PATH)")
    why = _display()
    if why:
        return _how_to_open(vcd, view, why)
    # GTKWave that cannot open a display prints its usage and exits 0: say why instead.
    opened = subprocess.run([viewer, str(vcd), str(view)], capture_output=True, text=True)
    if "Could not initialize GTK" in opened.stderr:
        display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        return _how_to_open(vcd, view, f"it could not open the display {display}")
    if opened.returncode:
        sys.stderr.write(opened.stderr)
    return opened.returncode


def _games(args):
    report = games.survey()
    print(games.format_report(report, args.clock))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sim", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")
    e2_command = commands.add_parser("e2", help="replay the paper's E.2 session",
                                     description="Replay the paper's E.2 session.")
    e2_command.add_argument("--golden", action="store_true",
                            help="on the golden model alone, not the HDL")
    games_command = commands.add_parser("games", help="every game, and think times",
                                        description="Every game a user can play.")
    for command, run in ((e2_command, _e2), (games_command, _games)):
        command.add_argument("--clock", type=float, default=6.0, metavar="MHZ",
                             help="clock frequency for times (default: 6, the paper's)")
        command.set_defaults(run=run)
    waves = commands.add_parser("waves", help="open the E.2 waves",
                                description="Open the E.2 waves in GTKWave.")
    which = waves.add_mutually_exclusive_group()
    which.add_argument("--golden", action="store_true", help="the golden model's waves")
    which.add_argument("--netlist", action="store_true",
                       help="the exported netlist's waves from the cocotb run")
    waves.add_argument("--sim", default="verilator", choices=("verilator", "icarus"),
                       help="with --netlist: the simulator (default verilator)")
    waves.set_defaults(run=_waves)
    commands.add_parser("netlist", help="cocotb tests on the exported netlist", add_help=False)
    commands.add_parser("compare", help="compare two waveform files", add_help=False)
    commands.add_parser("verify", help="every game in lockstep", add_help=False)
    commands.add_parser("benchmark", help="measure every cost: BENCHMARKS.md", add_help=False)
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("netlist", "compare", "verify", "benchmark"):
        from importlib import import_module
        return import_module(f"sim.{argv[0]}").main(argv[1:])
    args = parser.parse_args(argv)
    if getattr(args, "clock", 1) <= 0:
        parser.error("--clock must be a positive frequency in MHz")
    return args.run(args)


if __name__ == "__main__":
    sys.exit(cli.run(main))
