"""``ttt engines``: the Ultimate engine in Python, compiled and in hardware,
timed side by side."""

from firmware_ref.cli import positive_int

from . import options

SUMMARY = "time the Ultimate engine in Python, compiled and in hardware, side by side"
MAKE = ()
ABOUT = """\
The Ultimate Tic-Tac-Toe engine three ways, timed side by side on the same
positions of random games: in Python (the golden engine), compiled from C++, and
with --fmax the engine in hardware, run in Amaranth's simulator and timed by its
clocks at that frequency. All must give the same move, value and nodes; a
difference is one line and exit status 1. It prints a table of nodes, seconds
and nodes a second. The compiled engine is built the first time, under build/.
10 s here for the default 100 positions, build included; the hardware engine's
simulation is the slow part, 55 s for --positions 10 (2 busy cores)."""


def arguments(parser):
    from firmware_ref.ultimate import engine
    parser.add_argument("--positions", type=positive_int, default=100,
                        help="positions of random games (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="their seed (default 1)")
    parser.add_argument("--depth", type=positive_int, default=engine.DEPTH,
                        help=f"plies searched (default {engine.DEPTH})")
    parser.add_argument("--fmax", type=options.megahertz, metavar="MHZ",
                        help="the hardware engine too, timed at this clock (MHz)")


def run(args):
    from sim.reports import ultimate_ref
    return ultimate_ref.run(args.positions, args.seed, args.depth, args.fmax)
