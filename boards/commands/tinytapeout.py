"""``ttt tinytapeout``: the chip as a Tiny Tapeout project, and its cocotb test."""

from pathlib import Path

from firmware_ref.cli import UserError
from sim import BUILD

from . import options

SUMMARY = "write the chip as a Tiny Tapeout project: build/tinytapeout/"
MAKE = ("tinytapeout",)
ABOUT = """\
Write the 1990 chip as a Tiny Tapeout project, in the layout of TT's Verilog
template for its SkyWater 130 nm shuttles: info.yaml (title, author to fill,
clock, tiles, top module, sources, the 24 pins), src/ (the top tt_um_ttt_eth1990
and the chip, Verilog written from the Amaranth HDL), test/ (TT's tb.v and
Makefile, and a cocotb test.py that plays games against the golden model's
answers through the UART and through the chip's own pins) and docs/info.md.
About 3 seconds. --test then lints the sources with Verilator, as the hardening
flow's lint step does (an error fails; warnings are counted), and runs that
cocotb test as TT's workflow does (make in test/): on Icarus (iverilog on the
PATH), about 15 seconds, or --sim verilator (installed with the project; its
build takes half a minute); --every-game plays all the test's games. It prints
what it wrote, the lint's errors and warnings and each test's result; exit
status 1 if one fails. --out-dir writes elsewhere. make tinytapeout runs it
(make tinytapeout ARGS=--test)."""


def arguments(parser):
    parser.add_argument("--out-dir", default=BUILD / "tinytapeout", type=Path,
                        help="where to write the project (default: build/tinytapeout/)")
    parser.add_argument("--test", action="store_true",
                        help="then run its cocotb test, as TT's workflow does")
    parser.add_argument("--sim", default="icarus", choices=("icarus", "verilator"),
                        help="the test's simulator (default: icarus, as TT's workflow)")
    parser.add_argument("--every-game", action="store_true",
                        help="the test plays every game it holds, not one of each kind")


def run(args):
    from boards.tinytapeout import check, project, top
    try:
        paths = project.write(args.out_dir)
    except OSError as error:
        raise UserError(f"cannot write the project: {error.filename}: "
                        f"{error.strerror}") from None
    print(f"wrote {options.relative(args.out_dir)}/: "
          + ", ".join(str(path.relative_to(args.out_dir)) for path in paths))
    if not args.test:
        return None
    try:
        linted = check.lint(args.out_dir, top.TOP, project.SOURCES)
        result = check.run_test(args.out_dir, args.sim, every_game=args.every_game)
    except check.SimulatorMissing as missing:
        raise UserError(str(missing)) from None
    for error in linted.errors:
        print(f"LINT {error}")
    print(f"Verilator's lint: {len(linted.errors)} errors, "
          f"{sum(linted.warnings.values())} warnings ("
          + ", ".join(f"{kind} {count}" for kind, count in sorted(linted.warnings.items()))
          + ")")
    for failure in result.failed:
        print(f"FAIL {failure}")
    print(f"cocotb on {args.sim}: {result.passed} passed, {len(result.failed)} failed "
          f"(log: {options.relative(result.log)})")
    return 1 if result.failed or linted.errors else None
