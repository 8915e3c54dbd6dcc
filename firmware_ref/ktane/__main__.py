"""The expert's command line (docs/ktane.md):

    python -m firmware_ref.ktane start-row --digit 7 --parallel-port no --lit 1 --unlit 2
    python -m firmware_ref.ktane expect XO.X..O.. O 4

`start-row` prints the starting row; `expect` prints ``PRESS k NEXTROW`` (k the key in
reading order, 1-9: the panel's labels) or ``PASS ROW``. BOARD is nine of ``X``, ``O``
and ``.``, row by row (``/`` or ``|`` may separate the rows).
"""

import argparse
import sys

from ..cli import UserError, run
from .manual import expect, start_row

YES_NO = {"yes": True, "no": False}


def _count(text):
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a count (0, 1, 2 ...)")
    return int(text)


def _digit(text):
    if len(text) != 1 or not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a digit 0-9")
    return int(text)


def _row(text):
    if text not in [str(n) for n in range(1, 10)]:
        raise argparse.ArgumentTypeError(f"{text!r} is not a row 1-9")
    return int(text)


def keypad(board):
    """The keypad of BOARD with the panel's labels: a free key k shows k + 1."""
    text = "".join(c for c in board.upper() if c not in "/|")
    if len(text) != 9 or any(c not in "XO." for c in text):
        raise UserError(f"{board!r} is not a board: nine of X, O and . row by row, "
                        "e.g. XO./.X./...")
    if "." not in text:
        raise UserError("the board is full: the module is solved, nothing to press")
    return [c if c != "." else k + 1 for k, c in enumerate(text)]


def parser():
    top = argparse.ArgumentParser(prog="python -m firmware_ref.ktane",
                                  description="The expert of the Tic-Tac-Toe bomb module: "
                                  "seed 000's manual page as code.")
    sub = top.add_subparsers(dest="command", required=True)
    rows = sub.add_parser("start-row", help="the starting row from the edgework")
    rows.add_argument("--digit", type=_digit, required=True,
                      help="the serial number's last digit")
    rows.add_argument("--parallel-port", choices=YES_NO, required=True)
    rows.add_argument("--lit", type=_count, required=True, help="lit indicators")
    rows.add_argument("--unlit", type=_count, required=True, help="unlit indicators")
    press = sub.add_parser("expect", help="the press the page asks for")
    press.add_argument("board", help="nine of X O . row by row, e.g. XO./.X./...")
    press.add_argument("up", type=str.upper, choices=("X", "O"), help="the Up Next piece")
    press.add_argument("row", type=_row, help="the chart's row now, 1-9")
    return top


def main(argv=None):
    args = parser().parse_args(argv)
    if args.command == "start-row":
        print(start_row(args.digit, YES_NO[args.parallel_port], args.lit, args.unlit))
        return 0
    answer = expect(keypad(args.board), args.up, args.row)
    print(" ".join(map(str, answer)))
    return 0


if __name__ == "__main__":
    sys.exit(run(main))
