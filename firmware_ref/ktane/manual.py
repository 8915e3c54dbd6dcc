"""The expert: the module's manual page as code, and nothing else.

The expert knows what the page says and what the defuser sees: the edgework, the
keypad (each key shows its label, 1-9, until a piece covers it) and the "Up Next"
piece. It keeps the one thing the defuser must remember, the row of the chart.
Rows and labels here are the page's numbers, 1 to 9.

The module's own rules (firmware_ref/ktane/module.py) are written from the original
module's behaviour, not from this text, so that the expert defusing every module is
a check of one against the other.
"""

from ..cartridge import LINES

__all__ = ["CHART", "COLUMNS", "start_row", "Defuser", "expect"]

# Table 1, row by row: for more Xs, equal, more Os, placing an X then an O.
CHART = (
    (9, 3, 3, 9, 8, 1),
    (5, 6, 6, 7, 1, 2),
    (7, 8, 2, 1, 5, 8),
    (4, 5, 7, 8, 9, 6),
    (1, 4, 1, 6, 7, 3),
    (8, 7, 5, 2, 4, 4),
    (6, 1, 8, 4, 3, 9),
    (2, 2, 9, 5, 2, 5),
    (3, 9, 4, 3, 6, 7),
)
COLUMNS = (("more X", "X"), ("more X", "O"), ("equal", "X"), ("equal", "O"),
           ("more O", "X"), ("more O", "O"))


def start_row(digit, parallel_port, lit, unlit):
    """Rules 1-5: the starting row from the serial number's last digit, whether the
    bomb has a parallel port, and its lit and unlit indicators."""
    values = range(5, 10) if digit % 2 == 0 else range(1, 5)            # rule 1
    values = [v for v in values if v % 2 == (0 if parallel_port else 1)]   # rule 2
    if unlit > lit:
        return min(values)                                              # rule 3
    if lit > unlit:
        return max(values)                                              # rule 4
    return sum(values) // len(values)                                   # rule 5


def _column(keypad, up):
    xs, os = keypad.count("X"), keypad.count("O")
    balance = "more X" if xs > os else "equal" if xs == os else "more O"
    return COLUMNS.index((balance, up))


def _makes_line(keypad, key, up):
    return any(all(keypad[k] == up for k in line if k != key)
               for line in LINES if key in line)


def expect(keypad, up, row):
    """What the page says to press: ``("PRESS", label, next row)`` or ``("PASS", row)``.

    `keypad`: nine entries in reading order, each ``"X"``, ``"O"`` or the label the
    key shows; `up`: ``"X"`` or ``"O"``; `row`: 1-9."""
    column = _column(keypad, up)
    for step in range(9):                   # past row 9, go on at row 1
        here = (row - 1 + step) % 9 + 1
        label = CHART[here - 1][column]
        if label in keypad:                 # the label still shows: its key is free
            if _makes_line(keypad, keypad.index(label), up):
                return ("PASS", here)
            return ("PRESS", label, here % 9 + 1)
    raise ValueError("the keypad is full: the module is solved")


class Defuser:
    """A defuser with the page in hand, who remembers the row and whether the last
    press was a PASS that the module took."""

    def __init__(self, digit, parallel_port, lit, unlit):
        self.start = self.row = start_row(digit, parallel_port, lit, unlit)
        self.passed = False

    def press(self, keypad, up):
        """The press to make: a label 1-9, or ``"PASS"``; and the row it leads to."""
        answer = expect(keypad, up, self.row)
        if answer[0] == "PRESS":
            self.row, self.passed = answer[2], False
            return answer[1]
        if self.passed:
            # "Two consecutive passes": a piece goes on some free key; next row.
            self.row, self.passed = answer[1] % 9 + 1, False
        else:
            self.row, self.passed = answer[1], True
        return "PASS"

    def struck(self):
        """After a strike the row goes back to the start (a PASS before it still
        counts: the module keeps it, docs/ktane.md)."""
        self.row = self.start
