"""``ttt benchmark``: every cost of the project measured side by side."""

from firmware_ref.cli import positive_int

from . import options

SUMMARY = "measure every cost side by side: build/BENCHMARKS.md and build/benchmark.json"
MAKE = ("benchmark",)
ABOUT = """\
Measure every cost of the project side by side on this machine: the cycles per
second of each way to simulate the chip (the golden model, Amaranth's simulator,
cocotb on Verilator and on Icarus, the compiled chip, and their batch modes),
the time of every game in lockstep on each of them, the chip's think time on
every position a user can reach, for each board built with make bitstream its
logic cells, flip-flops, fmax and worst time per move, and the time from a key's
click to the LEDs' answer on make serve's page in Chromium (where Chromium is
installed), beside the board in a box's own time, the same on the static site of
make site (where npm is installed: what a first visit fetches, the time to a
playable panel, each desk's WebAssembly speed beside its native build), and make
serve under a classroom's load (30 pages each playing a game, a page's keys while another
floods the chip's clock, the most memory one page can take). It writes
build/BENCHMARKS.md, build/benchmark.json (every run) and a histogram of the
think times, build/benchmark/think_times.png. Targets are reported as ratios:
nothing fails because the machine is slow.

Each figure is the median of --repeats runs (the slow exhaustive runs once; a
full run takes minutes, longer when the golden recordings and builds are not yet
cached). --quick runs a small workload once, with no exhaustive runs and no
browser (seconds once cached); --icarus-games also times every
game on Icarus (slow); --out writes elsewhere. The committed BENCHMARKS.md is a
copy of one run. make benchmark runs it."""


def arguments(parser):
    parser.add_argument("--repeats", type=positive_int, default=5,
                        help="runs of each fast measurement (default 5); medians reported")
    parser.add_argument("--quick", action="store_true",
                        help="a small workload, one run, no slow exhaustive runs")
    parser.add_argument("--icarus-games", action="store_true",
                        help="also time every game on cocotb + Icarus (slow)")
    options.out(parser, "BENCHMARKS.md")


def run(args):
    from sim.reports import benchmark

    from ..builds import netlists
    from ..gateware.boards import BOARDS
    return benchmark.run(repeats=args.repeats, quick=args.quick,
                         icarus_games=args.icarus_games,
                         boards=netlists.boards(benchmarked=True),
                         built=[netlists.board(name) for name in BOARDS],
                         web=click_to_led, classroom=classroom, site=site,
                         tinytapeout=tinytapeout, out=args.out)


def tinytapeout():
    """The Tiny Tapeout top's module and RTLIL, for its cells and tiles."""
    from ..tinytapeout import top
    return top.TOP, top.netlist("rtlil")


def click_to_led():
    """The console in a browser, click to lights (and the die's steps, where qflow lays
    it out), or why not."""
    from sim.verification import die as layouts

    from ..web import timing
    from .serve import die
    try:
        return timing.click_to_led(die=None if layouts.missing() else die)
    except timing.Missing as missing:
        return {"missing": str(missing)}


def classroom():
    """make serve under a classroom's load (boards/web/classroom.py)."""
    from ..web import classroom
    try:
        return classroom.figures()
    except (classroom.Unserved, OSError, TimeoutError) as error:     # OSError: no /proc
        return {"missing": f"make serve could not be measured: {error}"}


def site():
    """The static site in a browser (boards/site/figures.py), or why not."""
    from ..web import timing
    from firmware_ref.cli import UserError
    try:
        from ..site import figures
        return figures.figures()
    except (timing.Missing, UserError) as missing:     # UserError: no npm, no Zig
        return {"missing": f"the static site could not be measured: {missing}"}
