"""Tactic-Toe's rules and the machine's planner on the command line (docs/tactic.md):

    python -m firmware_ref.tactic resolve ......... 1 237 271
    python -m firmware_ref.tactic plan ..X...O.O 2 X 137

`resolve BOARD ROUND PLAN_A PLAN_B` prints the board after the round and ``X``, ``O``,
``tie``, ``cats`` or ``open``; in round 2, ``--history-a`` and ``--history-b`` give
the players' round-1 plans, so that round 2's rule is checked in full (without them
only "three different places" is). `plan BOARD ROUND SIDE HISTORY` prints the
machine's plan for SIDE (``X``, player A, or ``O``, player B); HISTORY is SIDE's
round-1 plan or ``-``, ``--other`` the other player's. An illegal plan prints the
reason and exits 2. BOARD is nine of ``X``, ``O`` and ``.`` row by row.
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


def parser():
    top = argparse.ArgumentParser(prog="python -m firmware_ref.tactic",
                                  description="David Dickerson's Tactic-Toe: the resolver "
                                  "and the machine's planner.")
    sub = top.add_subparsers(dest="command", required=True)
    res = sub.add_parser("resolve", help="the board and result after a round")
    res.add_argument("board", type=_typed(parse_board))
    res.add_argument("round", type=_round)
    res.add_argument("plan_a", type=_typed(parse_plan), help="player A's (X) plan")
    res.add_argument("plan_b", type=_typed(parse_plan), help="player B's (O) plan")
    res.add_argument("--history-a", type=_typed(parse_plan), help="A's round-1 plan")
    res.add_argument("--history-b", type=_typed(parse_plan), help="B's round-1 plan")
    pln = sub.add_parser("plan", help="the machine's plan")
    pln.add_argument("board", type=_typed(parse_board))
    pln.add_argument("round", type=_round)
    pln.add_argument("side", type=str.upper, choices=("X", "O"))
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
