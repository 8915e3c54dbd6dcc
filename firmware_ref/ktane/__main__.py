"""The expert's command line (docs/ktane.md):

    python -m firmware_ref.ktane start-row --digit 7 --parallel-port no --lit 1 --unlit 2
    python -m firmware_ref.ktane expect X83/XO9/OX2 X 5

`start-row` prints the starting row; `expect` prints ``PRESS LABEL NEXTROW`` (the label
of the key to press) or ``PASS ROW``. BOARD is the keypad as the defuser sees it, row
by row: ``X``, ``O``, and on each free key its label 1-9; or ``.`` on every free key
for the front panel, whose keys are labelled in reading order (docs/ktane.md). This
command line stands alone, not a verb of ``ttt``: the golden models sit below sim/ and
boards/ and import neither.
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


SEPARATORS = "/| "       # between rows or keys, as a user may copy the client's drawing
LABELS = "123456789"
BOARD_HELP = ("the keypad row by row as the defuser sees it: X, O and each free key's "
              "label, e.g. X83/XO9/OX2; or . on every free key for the front panel, "
              "whose keys are labelled in reading order, e.g. XO./.X./...")


def keypad(board):
    """The keypad of BOARD in reading order: ``"X"``, ``"O"`` or a free key's label.
    A board with ``.`` on every free key is the front panel's: free key k (1-9 in
    reading order) shows label k. Labels and dots together are refused: a dot's label
    would then be a guess."""
    text = "".join(c for c in board.upper() if c not in SEPARATORS)
    if len(text) != 9 or any(c not in "XO." + LABELS for c in text):
        raise UserError(f"{board!r} is not a board: nine keys row by row, each X, O or "
                        "the free key's label 1-9, e.g. X83/XO9/OX2 (or . on every free "
                        "key for the front panel, e.g. XO./.X./...)")
    free = [c for c in text if c not in "XO"]
    if not free:
        raise UserError("the board is full: the module is solved, nothing to press")
    if "." in free and set(free) != {"."}:
        raise UserError(f"{board!r} mixes labels and dots: write the label of every free "
                        "key, or . on every free key for the front panel")
    twice = sorted({c for c in free if c != "." and free.count(c) > 1})
    if twice:
        raise UserError(f"{board!r} shows label {twice[0]} on two keys: each label is on "
                        "one key")
    return [c if c in "XO" else k + 1 if c == "." else int(c) for k, c in enumerate(text)]


ABOUT = """\
The expert of the bomb module Tic-Tac-Toe of Keep Talking and Nobody Explodes:
its manual page as code, for the person who reads the page while the defuser
reads out the module.

  python -m firmware_ref.ktane start-row --digit 7 --parallel-port no --lit 1 --unlit 2
  python -m firmware_ref.ktane expect X83/XO9/OX2 X 5      # PRESS 8 7

start-row prints the chart's starting row for the bomb's edgework. expect prints
what the page says to press on the keypad: PRESS LABEL NEXTROW, the label of the
key to press and the row to go on at, or PASS ROW. A board it cannot read is
refused in one line, with exit status 2. Each answer is instant."""


def parser():
    top = argparse.ArgumentParser(prog="python -m firmware_ref.ktane", description=ABOUT,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True)
    rows = sub.add_parser("start-row", help="the starting row from the edgework",
                          description="The chart's starting row, 1-9, from the bomb's "
                          "edgework: the serial number's last digit, whether it has a "
                          "parallel port, and its lit and unlit indicators.")
    rows.add_argument("--digit", type=_digit, required=True,
                      help="the serial number's last digit")
    rows.add_argument("--parallel-port", choices=YES_NO, required=True,
                      help="whether the bomb has a parallel port")
    rows.add_argument("--lit", type=_count, required=True, help="lit indicators")
    rows.add_argument("--unlit", type=_count, required=True, help="unlit indicators")
    press = sub.add_parser(
        "expect", help="the press the page asks for: PRESS LABEL NEXTROW or PASS ROW",
        description="The press the page asks for: PRESS LABEL NEXTROW (press the key "
        "showing LABEL, then go on at NEXTROW) or PASS ROW (press PASS; go on at ROW "
        "with the new Up Next). When the module has placed a piece itself after two "
        "passes in a row, go on at the row after ROW; after a strike, at the starting "
        "row.")
    press.add_argument("board", help=BOARD_HELP)
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
