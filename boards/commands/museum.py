"""``ttt museum``: every machine of the museum through every game."""

from firmware_ref.cli import positive_int

from . import options

SUMMARY = ("every museum machine through every game: lockstep, perfect play, think times, "
           "cost; build/museum.*")
MAKE = ("museum",)
ABOUT = """\
Play every machine of the museum through every game a person can play against
it: each core in lockstep with its golden model (compiled, or on Amaranth's
simulator where there is no C++ compiler), every machine move weighed against
perfect play, and the console's think time per move; and measure each core alone
on an iCE40 HX1K (Yosys and nextpnr, medians of five seeds, cached in
build/museum/cost/). It prints the table and writes build/museum.json,
build/museum.md (with "Where they lose": each position where a machine gives
away a game) and build/museum.png. A difference in lockstep is one line and exit
status 2, and then nothing is written.

All the machines took about 5 minutes on 2 cores: lockstep 39 s, scores 27 s,
and 40 place and route runs, which a second run does again only for a core that
changed. --no-cost leaves out Yosys and nextpnr. --machines picks some
(eth1990,firstfree), --seeds the seeds, --out where to write. make museum runs
it."""


def arguments(parser):
    parser.add_argument("--machines", type=lambda text: [n.strip() for n in text.split(",")],
                        metavar="NAME,...", help="these machines (keys of build/museum.json, "
                        "or game folders) instead of every built one")
    parser.add_argument("--seeds", type=positive_int, nargs="+", default=[1, 2, 3, 4, 5],
                        metavar="N", help="nextpnr seeds of the cost (default 1 2 3 4 5)")
    parser.add_argument("--no-cost", action="store_true",
                        help="leave out the cost (no Yosys or nextpnr run)")
    options.out(parser, "museum.json, .md and .png")


def run(args):
    from sim.reports import museum
    museum.run(args.machines, seeds=args.seeds, cost=not args.no_cost, out=args.out)
