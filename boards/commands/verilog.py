"""``ttt verilog``: the chip exported as Verilog and RTLIL."""

from pathlib import Path

from firmware_ref.cli import UserError
from sim import BUILD

from . import options

SUMMARY = "export the chip: build/ttt_chip.v and build/ttt_chip.il"
MAKE = ("verilog",)
ABOUT = """\
Export the chip as a netlist for other tools: build/ttt_chip.v (Verilog) and
build/ttt_chip.il (Yosys's RTLIL), top module ttt_chip. Its ports are the
paper's pins, its clock is cp and resetN its only reset; the blocks of the
paper's figure 2 are its modules (ttt_chip.controller, ttt_chip.board,
ttt_chip.stack, ...), and its registers start at their power-up values. About a
second. --out-dir writes elsewhere; --random sets the power-up value of the
random counter. make verilog runs it."""


def arguments(parser):
    parser.add_argument("--out-dir", default=BUILD, type=Path,
                        help="where to write ttt_chip.v and ttt_chip.il (default: build/)")
    parser.add_argument("--random", type=int, default=0, choices=range(8), metavar="N",
                        help="power-up value 0-7 of the random counter (default 0)")


def run(args):
    from hdl.eth import export
    try:
        paths = export.write(args.out_dir, random_init=args.random)
    except OSError as error:
        raise UserError(f"cannot write the netlist: {error.filename}: "
                        f"{error.strerror}") from None
    for path in paths:
        print(f"wrote {options.relative(path)}")
