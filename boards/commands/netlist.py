"""``ttt netlist``: the cocotb tests of the exported netlist."""

import os

from firmware_ref.cli import positive_int

SUMMARY = "the cocotb tests of the exported netlist, with the E.2 session's waves"
MAKE = ("netlist",)
ABOUT = """\
Run the cocotb tests on the exported netlist, in lockstep with the golden model:
the E.2 session against the paper (e2_session), whole games (whole_games: by
default every game the user opens and every game the chip opens at A1) and
random key presses (random_keys). The netlist is exported afresh and built under
build/cocotb/SIMULATOR/, where each test's log goes; the E.2 session also writes
the netlist's waves, build/netlist_e2.vcd (Verilator) or
build/netlist_e2_icarus.fst (Icarus), for ttt waves --netlist. It prints a line
per test; exit status 1 if one fails. 79 s here on Verilator, its build
included, on two busy cores; --openings all plays all 1955 games (about a minute
on Verilator).

--sim picks the simulator: Verilator (installed with the project; it needs perl
and a C++ compiler) or Icarus Verilog (iverilog on the PATH). --tests runs some
of the three; --openings and --sessions size the games and random tests. make
netlist runs it (make netlist SIM=icarus)."""


def arguments(parser):
    from sim.backends import netlist
    from sim.bench import checks
    parser.add_argument("--sim", default=os.environ.get("SIM", "verilator"),
                        choices=netlist.SIMULATORS,
                        help="the simulator (default: $SIM or verilator)")
    parser.add_argument("--tests", nargs="+", choices=checks.TESTS, default=checks.TESTS)
    parser.add_argument("--openings", default=checks.OPENINGS, type=checks.openings_type,
                        help="openings of the games test: 'all', or a comma list of "
                             f"'user' and 0-7 (default: {checks.OPENINGS})")
    parser.add_argument("--sessions", type=positive_int, default=4,
                        help="random sessions of 1500 edges (default 4)")


def run(args):
    from sim.bench import checks
    return checks.run_tests(args.sim, args.tests, openings=args.openings,
                             sessions=args.sessions)
