"""Ultimate Tic-Tac-Toe's rules on the command line (docs/ultimate.md):

    python -m firmware_ref.ultimate legal BOARD LAST     # the legal moves, increasing
    python -m firmware_ref.ultimate winner BOARD         # X, O, draw or open
    python -m firmware_ref.ultimate move BOARD LAST      # the engine: move value nodes

BOARD is 81 of ``X``, ``O`` and ``.``: small board 1 first, each row by row. LAST is
the index 0-80 of the last move, or ``-`` (the player to move may go anywhere). This
command line stands alone, not a verb of ``ttt``: the golden models sit below sim/ and
boards/ and import neither.
"""

import argparse
import sys

from ..cli import UserError, run
from .engine import DEPTH, move
from .rules import parse


ABOUT = """\
Ultimate Tic-Tac-Toe on the command line: its rules, and the engine that the
cartridge's engine in hardware matches move for move.

  python -m firmware_ref.ultimate legal BOARD LAST     # the legal moves
  python -m firmware_ref.ultimate winner BOARD         # X, O, draw or open
  python -m firmware_ref.ultimate move BOARD LAST      # the engine: move value nodes

BOARD is 81 of X, O and ., small board 1 first, each row by row: cell i is cell
i % 9 of small board i // 9, and a move on cell c sends the other player to
small board c. LAST is the last move's cell, or - (the first move, or not
known: the player to move may play in any undecided board). A position no game
reaches is refused in one line, with exit status 2."""

MOVE = """\
The engine's move as a cell 0-80, its value for the player to move (a won game
is 1000000) and the positions it searched. It searches --depth plies with
alpha-beta, Baum's G scoring the small boards and the big one: about a second at
the default depth 4, 17 s at depth 6."""

BOARD = "81 of X, O and ., small board 1 first, each row by row"
LAST = "the last move's cell 0-80, or -"


def parser():
    top = argparse.ArgumentParser(prog="python -m firmware_ref.ultimate",
                                  description=ABOUT,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True)
    legal = sub.add_parser("legal", help="the legal moves, as cells 0-80, increasing",
                           description="The legal moves, as cells 0-80 in increasing "
                           "order.")
    legal.add_argument("board", help=BOARD)
    legal.add_argument("last", help=LAST)
    winner = sub.add_parser("winner", help="X, O, draw or open",
                            description="Who has won: X, O, draw (no move is left) or "
                            "open (the game goes on).")
    winner.add_argument("board", help=BOARD)
    engine = sub.add_parser("move", help="the engine's move, its value and the nodes",
                            description=MOVE,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    engine.add_argument("board", help=BOARD)
    engine.add_argument("last", help=LAST)
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
