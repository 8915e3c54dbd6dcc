"""The board of nine places and what a place holds: the one vocabulary of the golden
models and of everything above them. The cores keep their own widths (hdl may not
import firmware_ref; hdl/cartridge.py writes the same board as hardware).

- Places: `PLACES` of them, numbered 0..8 in reading order, row by row, as alg.c's loop
  visits them; place k is in row k // 3 and column k % 3. Each has a `NAMES` entry, a
  column A-C and a row 1-3, as the paper's main program (F.3) and ``make play`` name them
  (`coordinate`, and `BY_NAME` back).
- What a place holds: alg.c's ``enum place``, `EMPTY`, `COMPUTER` (the machine's stone)
  or `HUMAN` (the person's), or `BOTH` where a position entered says so (no game reaches
  it). A place is two bits, the machine's stone in the low one, so `BOTH` is the two;
  the console's LEDs light them `RED` and `GREEN`, the names the cartridges use.
- How each is printed: `MARKS` on the command line (``ttt move``) and in the host's
  status lines, `BY_MARK` back; `grid`, the board as ``make play`` draws it.
"""

__all__ = ["PLACES", "COLUMNS", "ROWS", "NAMES", "BY_NAME", "coordinate", "rows",
           "EMPTY", "COMPUTER", "HUMAN", "BOTH", "RED", "GREEN", "STONES",
           "MARKS", "BY_MARK", "RULE", "grid"]

PLACES = 9
COLUMNS, ROWS = "ABC", "123"
NAMES = tuple(column + row for row in ROWS for column in COLUMNS)     # A1 B1 C1 A2 ...
BY_NAME = {name: place for place, name in enumerate(NAMES)}

EMPTY, COMPUTER, HUMAN = 0, 1, 2
BOTH = COMPUTER | HUMAN
RED, GREEN = COMPUTER, HUMAN        # as the console's two-colour LEDs show them
STONES = (EMPTY, COMPUTER, HUMAN)   # what a place of a game holds (alg.c's enum place)

MARKS = {EMPTY: ".", COMPUTER: "O", HUMAN: "X", BOTH: "*"}
BY_MARK = {mark: held for held, mark in MARKS.items()}
RULE = "   +---+---+---+"             # between the rows of a drawn board


def coordinate(place):
    """The name of `place`, a column A-C and a row 1-3 (F.3's askmove)."""
    return NAMES[place]


def rows(board):
    """The three rows of `board` (nine places), top to bottom."""
    width = len(COLUMNS)
    return [board[start:start + width] for start in range(0, PLACES, width)]


def grid(board, aside=()):
    """`board` as ``make play`` draws it (F.3): columns A-C over rows 1-3 between rules,
    an empty place blank, anything a place cannot hold ``?``; `aside`, a text beside
    each of the first rows."""
    shown = {**MARKS, EMPTY: " "}
    lines = ["     " + "   ".join(COLUMNS), RULE]
    for number, (row, cells) in enumerate(zip(ROWS, rows(board))):
        text = " | ".join(shown.get(held, "?") for held in cells)
        beside = f"    {aside[number]}" if number < len(aside) else ""
        lines += [f" {row} | {text} |{beside}", RULE]
    return "\n".join(lines)
