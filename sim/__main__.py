"""The project's command line: ``python -m sim <command>``.

    e2      replay the paper's E.2 session and compare it with the paper, row by row
    games   play every game a user can play against the chip and report its think times
"""

import argparse
import sys

from . import e2, games


def _e2(args):
    paper = e2.paper_rows()
    rows = e2.replay()
    differences = e2.compare(rows, paper)
    print("Appendix E.2 replayed on the golden model (firmware_ref/cycle.py),")
    print("in the paper's column order ('!' marks a row that differs from the paper):")
    print()
    print(e2.format_table(rows, marks={d.time for d in differences}))
    print()
    if differences:
        print(f"{len(differences)} cells differ from the paper's trace; the first:")
        for difference in differences[:10]:
            print(f"  {difference}")
    else:
        print(f"All {len(rows)} rows match the paper's trace in all {len(e2.COLUMNS)} "
              f"columns ({e2.TRACE.name}, scan defects repaired as documented).")
    print()
    print(f"Chip moves in this session, think time at {args.clock:g} MHz:")
    for n, (ended, cycles) in enumerate(e2.think_times(rows), start=1):
        after = "the game is over" if ended.name == "FINISHED" else "the chip waits"
        print(f"  move {n}: {cycles} cycles = {cycles / args.clock:.2f} us, then {after}")
    return 1 if differences else 0


def _games(args):
    report = games.survey()
    print(games.format_report(report, args.clock))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sim", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")
    for name, run, text in (("e2", _e2, "replay the paper's E.2 session"),
                            ("games", _games, "every game a user can play, and think times")):
        command = commands.add_parser(name, help=text, description=text)
        command.add_argument("--clock", type=float, default=6.0, metavar="MHZ",
                             help="clock frequency for times (default: 6, the paper's)")
        command.set_defaults(run=run)
    args = parser.parse_args(argv)
    if args.clock <= 0:
        parser.error("--clock must be a positive frequency in MHz")
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
