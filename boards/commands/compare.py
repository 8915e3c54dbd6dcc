"""``ttt compare``: two waveform files compared at every clock edge."""

SUMMARY = "compare two waveform files at every clock edge"
MAKE = ("compare",)
ABOUT = """\
Compare two waveform files (VCD or FST) at every clock edge: EXPECTED is the
reference, ACTUAL the waves to check. Each file's design is the scope that holds
its clock (cp, or clk; ttt_chip in every file this project writes), and signals
are paired by their whole path below it. A signal with no partner is listed and
not compared, and x (unknown) bits on either side are not compared. It prints
the first difference (time, cycle, signal, expected, actual) and a summary, and
writes nothing. About a second for the E.2 waves.

Exit status 0 equal, 1 different or ACTUAL ending before EXPECTED, 2 the files
cannot be compared (missing, not a waveform, cut short, no clock, no signal in
common). --signals compares only some, --clock-signal names the clock. make
compare runs it on the golden model's E.2 waves against the Amaranth chip's
(make compare EXPECTED=... ACTUAL=... for others)."""


def arguments(parser):
    parser.add_argument("expected", help="the reference waves (.vcd or .fst)")
    parser.add_argument("actual", help="the waves to check (.vcd or .fst)")
    parser.add_argument("--signals", nargs="+", metavar="PATTERN",
                        help="compare only these (fnmatch patterns on the names below the "
                             "clock's scope, such as 'controller.*' or 'led')")
    parser.add_argument("--clock-signal", action="append", metavar="NAME",
                        help="the clock's name (default: cp or clk)")


def run(args):
    from sim.waves import compare
    return compare.run(args.expected, args.actual, signals=args.signals,
                       clocks=tuple(args.clock_signal or compare.CLOCKS))
