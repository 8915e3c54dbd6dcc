"""``ttt formal``: the chip's proofs and the equivalence of its netlists."""

SUMMARY = ("prove the chip's properties and the equivalence of its netlists with SBY and "
           "Yosys; build/formal/report.md")
MAKE = ("formal",)
ABOUT = """\
Prove properties of the chip for every input sequence with SBY, Yosys and Yices
(installed with the project): no stack overflow or underflow, no place 11, every
search ends, and the others docs/formal.md lists. Each input assumption is shown
needed by the failing trace found without it; each cover gets its shortest
trace; each mutant controller must be caught with a failing trace; and the RTL
is proven equal to the exported Verilog and to the synthesised and the placed
and routed chip of each board build (a board whose bitstream is missing or older
than the sources is built first). It writes build/formal/report.md and
report.json, and each job's files under build/formal/. Exit status 1 when a
property is not proven, a cover not reached, a mutant not caught or a netlist
not equal.

Every job runs on its own, --jobs N at once (default: the cores), the longest of
the last run first: about 5 minutes on 2 cores; the deep covers start from a
position a game reaches (docs/formal.md). --no-equiv leaves out the netlists.
make formal runs it (make formal ARGS=--no-covers)."""


def arguments(parser):
    parser.add_argument("--no-covers", action="store_true",
                        help="leave out the covers (the deep ones take minutes)")
    parser.add_argument("--no-mutants", action="store_true",
                        help="leave out the mutant controllers")
    parser.add_argument("--no-equiv", action="store_true",
                        help="leave out the equivalence of the netlists")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="jobs at once (default: the number of cores), the longest "
                             "of the last run first")


def run(args):
    from sim.verification.formal import proofs

    from ..builds import netlists
    return proofs.run(boards=netlists.boards(), covers=not args.no_covers,
                      mutated=not args.no_mutants, equivalence=not args.no_equiv,
                      workers=args.jobs)
