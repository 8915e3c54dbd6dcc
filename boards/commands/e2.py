"""``ttt e2``: the paper's sample session (appendix E.2) on the chip."""

from . import options

SUMMARY = ("replay the paper's E.2 session on the chip, against the paper and the golden "
           "model, and write its waves")
MAKE = ("sim",)
ABOUT = """\
Replay the sample session of Geiser and Marzetta's report (appendix E.2) on the
Amaranth chip, checked against the golden model at every clock edge, and compare
each of its 100 rows with the paper's trace. It prints the session in the
paper's columns ('!' marks a row that differs), the verdict and the chip's think
time for each of its moves, and writes the waves: build/e2.vcd with the GTKWave
view build/e2.gtkw, and the golden model's, build/e2_golden.vcd. About a second.
Exit status 1 if a row differs from the paper.

--golden replays the golden model alone; --clock gives the think times at
another clock. make sim runs it; make waves opens the waves."""


def arguments(parser):
    parser.add_argument("--golden", action="store_true",
                        help="on the golden model alone, not the HDL")
    options.clock(parser)


def run(args):
    from sim.bench import session
    return session.report(golden=args.golden, clock=args.clock)
