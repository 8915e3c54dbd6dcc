"""The host's side of the serial protocol (docs/boards.md): frames out, status lines in.

Used by `python -m boards play` on a real board and by the tests on the simulated one.
Boards are lists of 9 places as in firmware_ref.eth.alg (0 empty, 1 chip, 2 user).
"""

from dataclasses import dataclass

from firmware_ref.eth import alg
from firmware_ref.eth.alg import check_board


__all__ = ["Status", "ProtocolError", "Rejected", "key", "reset", "userbegins", "piN",
           "STATUS", "parse", "MARKS", "PLACES", "BOTH"]

BOTH = 3                    # both stones on one place (docs/boards.md)
MARKS = {**alg.MARKS, BOTH: "*"}
PLACES = {mark: value for value, mark in MARKS.items()}
STATUS = b"S\r"
LINE_LENGTH = 32            # a status line without its CR LF


class ProtocolError(ValueError):
    """The board sent a line that is not a status line."""


class Rejected(ProtocolError):
    """The board answered ``error``: it took the frame as malformed and did nothing."""


@dataclass(frozen=True)
class Status:
    board: list             # the latched board, as the display shows it
    prompt: bool
    fin: bool
    win: bool
    userbegins: bool
    piN: bool
    cycles: int             # the clocks the chip's last move took


def key(place):
    if place not in range(9):
        raise ValueError(f"there is no key {place!r}: the keys are 0 to 8")
    return f"K{place}\r".encode()


def reset(board=None):
    """A new game; `board`, if given, is entered as the chip's test mode allows (§4)."""
    if board is None:
        return b"R\r"
    return ("R" + "".join(MARKS[v] for v in check_board(board)) + "\r").encode()


def userbegins(on):
    return f"U{int(bool(on))}\r".encode()


def piN(on):
    return f"P{int(bool(on))}\r".encode()


def parse(line):
    """A Status from one line the board sent (bytes or str, with or without CR LF)."""
    text = line.decode("ascii", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\r\n")
    if text == "error":
        raise Rejected("the board rejected the frame as malformed; nothing changed")
    fields = text.split(" ")
    try:
        rows = fields[0].split("|")
        board = [PLACES[c] for c in "".join(rows)]
        flags = {field[0]: field[1:] for field in fields[1:]}
        if (len(text) != LINE_LENGTH or [len(r) for r in rows] != [3, 3, 3]
                or list(flags) != list("pfwunc")):
            raise ValueError
        bit = {name: {"0": False, "1": True}[flags[name]] for name in "pfwun"}
        cycles = int(flags["c"], 16)
    except (ValueError, KeyError, IndexError):
        raise ProtocolError(f"not a status line: {text!r}") from None
    return Status(board, bit["p"], bit["f"], bit["w"], bit["u"], bit["n"], cycles)
