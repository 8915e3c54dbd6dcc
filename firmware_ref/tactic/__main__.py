"""Tactic-Toe's rules and the machine's planner on the command line (docs/tactic.md):

    python -m firmware_ref.tactic resolve ......... 1 237 271
    python -m firmware_ref.tactic plan ..X...O.O 2 X 137

`resolve BOARD ROUND PLAN_A PLAN_B` prints the board after the round and ``X``, ``O``,
``tie``, ``cats`` or ``open``; in round 2, ``--history-a`` and ``--history-b`` give
the players' round-1 plans, so that round 2's rule is checked in full (without them
only "three different places" is). `plan BOARD ROUND SIDE HISTORY` prints the
machine's plan for SIDE (``X``, player A, or ``O``, player B); HISTORY is SIDE's
round-1 plan or ``-``, ``--other`` the other player's. An illegal plan prints the
reason and exits 2. BOARD is nine of ``X``, ``O`` and ``.`` row by row. This command
line stands alone, not a verb of ``ttt``: the golden models sit below sim/ and boards/
and import neither.
"""

import argparse
import sys

from ..cli import UserError, run
from .planner import plan
from .rules import O, X, IllegalPlan, check, parse_board, parse_plan, resolve, show_board


def _typed(parse):
    def convert(text):
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return convert


def _round(text):
    if text not in ("1", "2", "3"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a round 1-3")
    return int(text)


def _history(text):
    return None if text == "-" else parse_plan(text)


ABOUT = """\
David Dickerson's Tactic-Toe on the command line: its rules, which resolve a
round of two secret plans, and the machine's planner, as the board's referee and
planner play them.

  python -m firmware_ref.tactic resolve ......... 1 237 271     # O.X...O.. open
  python -m firmware_ref.tactic plan ......... 1 O -           # 193

A board is nine of X, O and . row by row; a plan is three places, each 1-9 row
by row (237). Player A is X, player B is O. An illegal plan is refused in one
line with the rule it breaks, and exit status 2, as is a board that cannot be
read. Each answer takes under a second."""

RESOLVE = """\
The board after a round and its result: X or O (that player has a line), tie
(both made one in the same step), cats (no line, and the game is over) or open.
ROUND is 1, 2 or 3, PLAN_A and PLAN_B the two players' plans. In round 2,
--history-a and --history-b give the players' round-1 plans, so that round 2's
rule (none of your round-1 places) is checked in full; without them only three
different places are asked for."""

PLAN = """\
The machine's plan for SIDE (X, player A, or O, player B) in ROUND: of its legal
plans, the one with the best mean score over every legal plan of the other
player (a win 1000, a loss -1000, else Baum's G of the board), the lowest plan
among equals. HISTORY is SIDE's round-1 plan, or - before it has one; --other
gives the other player's. About half a second in round 3, less before."""

BOARD = "nine of X, O and . row by row, e.g. ..X...O.O"
ROUND = "the round, 1-3"


def parser():
    top = argparse.ArgumentParser(prog="python -m firmware_ref.tactic", description=ABOUT,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True)
    res = sub.add_parser("resolve", help="the board and result after a round",
                         description=RESOLVE,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    res.add_argument("board", type=_typed(parse_board), help=BOARD)
    res.add_argument("round", type=_round, help=ROUND)
    res.add_argument("plan_a", type=_typed(parse_plan), help="player A's (X) plan")
    res.add_argument("plan_b", type=_typed(parse_plan), help="player B's (O) plan")
    res.add_argument("--history-a", type=_typed(parse_plan), help="A's round-1 plan")
    res.add_argument("--history-b", type=_typed(parse_plan), help="B's round-1 plan")
    pln = sub.add_parser("plan", help="the machine's plan", description=PLAN,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    pln.add_argument("board", type=_typed(parse_board), help=BOARD)
    pln.add_argument("round", type=_round, help=ROUND)
    pln.add_argument("side", type=str.upper, choices=("X", "O"),
                     help="the machine's side: X (player A) or O (player B)")
    pln.add_argument("history", type=_typed(_history), help="SIDE's round-1 plan or -")
    pln.add_argument("--other", type=_typed(parse_plan),
                     help="the other player's round-1 plan")
    return top


def main(argv=None):
    args = parser().parse_args(argv)
    if args.command == "resolve":
        for name, p, history in (("A", args.plan_a, args.history_a),
                                 ("B", args.plan_b, args.history_b)):
            if args.round == 2 and history is None:
                history = ()                # unknown: only "three different places"
            try:
                check(p, args.round, history)
            except IllegalPlan as error:
                raise UserError(f"player {name}'s plan is illegal: {error}") from None
        board, result = resolve(args.board, args.round, args.plan_a, args.plan_b)
        print(show_board(board), result)
        return 0
    side = X if args.side == "X" else O
    if args.round == 2 and args.history is None:
        raise UserError("round 2: give SIDE's round-1 plan as HISTORY")
    print("".join(map(str, plan(args.board, args.round, side, args.history, args.other))))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
