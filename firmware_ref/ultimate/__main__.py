"""Ultimate Tic-Tac-Toe's rules on the command line (docs/ultimate.md):

    python -m firmware_ref.ultimate legal BOARD LAST     # the legal moves, increasing
    python -m firmware_ref.ultimate winner BOARD         # X, O, draw or open
    python -m firmware_ref.ultimate move BOARD LAST      # the engine: move value nodes

BOARD is 81 of ``X``, ``O`` and ``.``: small board 1 first, each row by row. LAST is
the index 0-80 of the last move, or ``-`` (the player to move may go anywhere).
"""

import argparse
import sys

from ..cli import UserError, run
from .engine import DEPTH, move
from .rules import parse


def parser():
    top = argparse.ArgumentParser(prog="python -m firmware_ref.ultimate",
                                  description="Ultimate Tic-Tac-Toe: the rules and "
                                  "the engine.")
    sub = top.add_subparsers(dest="command", required=True)
    legal = sub.add_parser("legal", help="the legal moves, as cells 0-80, increasing")
    legal.add_argument("board")
    legal.add_argument("last", help="the last move's cell 0-80, or -")
    winner = sub.add_parser("winner", help="X, O, draw or open")
    winner.add_argument("board")
    engine = sub.add_parser("move", help="the engine's move, its value and the nodes")
    engine.add_argument("board")
    engine.add_argument("last", help="the last move's cell 0-80, or -")
    engine.add_argument("--depth", type=int, default=DEPTH, choices=range(1, 9),
                        metavar="1-8", help=f"plies searched (default {DEPTH})")
    return top


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        position = parse(args.board, getattr(args, "last", "-"))
    except ValueError as error:
        raise UserError(str(error)) from None
    if args.command == "legal":
        print(" ".join(map(str, position.legal())))
    elif args.command == "winner":
        print(position.winner())
    else:
        if not position.legal():
            raise UserError(f"the game is over ({position.winner()}): no move")
        print(*move(position, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
