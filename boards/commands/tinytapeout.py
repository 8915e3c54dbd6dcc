"""``ttt tinytapeout``: the chip as a Tiny Tapeout project, and its cocotb test."""

import subprocess
from pathlib import Path

from firmware_ref.cli import UserError
from sim import BUILD, ROOT

from . import options

SUMMARY = "write the chip as a Tiny Tapeout project: build/tinytapeout/"
MAKE = ("tinytapeout",)
ABOUT = """\
Write the 1990 chip as a Tiny Tapeout project, in the layout of TT's Verilog
template for its SkyWater 130 nm shuttles: info.yaml (title, the author, clock,
tiles, top module, sources, the 24 pins), src/ (the top tt_um_ttt_eth1990 and
the chip, Verilog written from the Amaranth HDL), test/ (TT's tb.v and Makefile,
and a cocotb test.py that plays games against the golden model's answers through
the UART and through the chip's own pins) and docs/info.md. TT's tools refuse a
project without an author: --author names one, else git's user.name of this
checkout is taken; with neither it writes nothing and says how. About 3 seconds.
--test then lints the sources with Verilator, as the hardening flow's lint step
does (an error fails; warnings are counted), and runs that cocotb test as TT's
workflow does (make in test/): on Icarus (iverilog on the PATH), about 15
seconds, or --sim verilator (installed with the project; its build takes half a
minute); --every-game plays all the test's games. It prints what it wrote, the
lint's errors and warnings and each test's result; exit status 1 if one fails.
--out-dir writes elsewhere. make tinytapeout runs it (make tinytapeout
AUTHOR="Ada Lovelace" ARGS=--test)."""
# What to do when no author is known, in the one line a user sees.
NO_AUTHOR = ("Tiny Tapeout needs an author for info.yaml: make tinytapeout "
             "AUTHOR='Your Name' (ttt tinytapeout --author 'Your Name'), or set git's "
             "user.name")


def arguments(parser):
    parser.add_argument("--out-dir", default=BUILD / "tinytapeout", type=Path,
                        help="where to write the project (default: build/tinytapeout/)")
    parser.add_argument("--author", help="info.yaml's author (default: git's user.name)")
    parser.add_argument("--test", action="store_true",
                        help="then run its cocotb test, as TT's workflow does")
    parser.add_argument("--sim", default="icarus", choices=("icarus", "verilator"),
                        help="the test's simulator (default: icarus, as TT's workflow)")
    parser.add_argument("--every-game", action="store_true",
                        help="the test plays every game it holds, not one of each kind")


def git_user_name():
    """The name git signs this checkout's commits with, or None (no git, no name)."""
    try:
        done = subprocess.run(["git", "config", "user.name"], cwd=ROOT,
                              capture_output=True, text=True)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def author(given):
    """info.yaml's author: `given` (--author), else git's user.name; a UserError that
    says how to give one when neither names anyone."""
    name = (given if given is not None else git_user_name() or "").strip()
    if not name:
        raise UserError(NO_AUTHOR)
    return name


def run(args):
    name = author(args.author)         # before anything is written
    from boards.tinytapeout import check, project, top
    try:
        paths = project.write(args.out_dir, name, log=print)
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
