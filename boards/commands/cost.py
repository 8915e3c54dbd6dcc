"""``ttt cost``: logic cells and fmax per block of a board build."""

from firmware_ref.cli import positive_int

from . import options
from .bitstream import board, board_option

SUMMARY = "logic cells and fmax per block of a board build, medians over nextpnr seeds"
MAKE = ("cost",)
ABOUT = """\
Measure what each block of a board build costs in logic cells and fmax: the
chip, its adapter, the host link, the panel, the debouncers and the desk glue.
The board is built as ttt bitstream builds it, then placed and routed once per
nextpnr seed, with a second timing build per seed in which the chip has a clock
net of its own, so that nextpnr reports the chip's fmax apart from the rest's.
It prints the medians over the seeds and writes build/cost/BOARD/cost.md (those
tables) and cost.json (every number, per seed), beside the runs. A few minutes a
seed; --seeds picks them (default 1 to 5). --board and --game as for ttt
bitstream. make cost runs it; docs/boards.md (Cost) says how cells are given to
blocks."""


def arguments(parser):
    board_option(parser)
    options.game_option(parser, "the cartridge, or several, comma-separated")
    parser.add_argument("--seeds", type=positive_int, nargs="+", default=[1, 2, 3, 4, 5],
                        metavar="N", help="nextpnr seeds (default 1 2 3 4 5)")


def run(args):
    from ..builds import cost
    board(args.board)
    cost.run(args.board, args.game, args.seeds, log=lambda line: print(line, flush=True))
