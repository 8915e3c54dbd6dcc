"""The host's side of the serial protocol (docs/boards.md): frames out, status lines in.

Used by `ttt play-board` on a real board and by the tests on the simulated one.
Boards are lists of nine places as firmware_ref/places.py holds them (EMPTY, COMPUTER:
the machine's stone, HUMAN: the person's, BOTH), each written as its mark (`MARKS`) in
frames and status lines.
"""

from dataclasses import dataclass

from firmware_ref import places
from firmware_ref.eth.alg import check_board
from firmware_ref.places import BOTH, BY_MARK, MARKS
from hdl.cartridge import SWITCHES

from ..gateware.answer_text import TEXT_MARK


__all__ = ["Status", "ProtocolError", "Rejected", "Exchange", "key", "reset", "switch",
           "game", "text", "STATUS", "parse", "line", "TEXT_MARK", "TEXT_MAX",
           "POSITION_MARKS"]

STATUS = b"S\r"
TEXT_MAX = 9                # bytes in a text frame
LINE_LENGTH = 32            # a status line without its CR LF
# The marks of an R frame's places: a position entered holds no place with both stones.
POSITION_MARKS = "".join(mark for mark, held in BY_MARK.items() if held != BOTH)


class ProtocolError(ValueError):
    """The board sent a line that is not a status line."""


class Rejected(ProtocolError):
    """The board answered ``error``: it took the frame as malformed and did nothing."""


class Exchange:
    """What a client talks to: a board over its serial link (boards.host.link.Link), or a
    golden model answering as a board does (boards.host.golden.GoldenLink). A subclass
    answers one frame (`answer`); every client sends through `command`."""

    def answer(self, frame):
        """The status a board sends after `frame` (bytes), or Rejected."""
        raise NotImplementedError

    def command(self, frame, again=False):
        """The status after `frame`, or Rejected. `again`: sent once more if refused.
        The desk answers a frame that meets a line of the cartridge's after that line
        (docs/boards.md, "The host link"); a board flashed before it did refused such a
        frame, which `again` sends once more."""
        try:
            return self.answer(frame)
        except Rejected:
            if not again:
                raise
            return self.answer(frame)


@dataclass(frozen=True)
class Status:
    board: list             # the board the display shows, as firmware_ref.places holds it
    game: str               # the letter that names the cartridge playing
    lamps: tuple            # hdl.cartridge.LAMPS bools; their meaning is the cartridge's
    switches: tuple         # SWITCHES bools
    cycles: int             # the clocks the machine's last move took


def key(place):
    if place not in range(places.PLACES):
        raise ValueError(f"there is no key {place!r}: the keys are 0 to {places.PLACES - 1}")
    return f"K{place}\r".encode()


def reset(board=None):
    """A new game; `board`, if given, is the position it begins from."""
    if board is None:
        return b"R\r"
    return ("R" + "".join(MARKS[v] for v in check_board(board)) + "\r").encode()


def switch(number, on):
    if number not in range(SWITCHES):
        raise ValueError(f"there is no switch {number!r}: the switches are 0 to {SWITCHES - 1}")
    return f"W{number}{int(bool(on))}\r".encode()


def game(number):
    """Play cartridge `number` of the bitstream, from an empty board."""
    if number not in range(10):
        raise ValueError(f"there is no cartridge {number!r}: they are numbered 0 to 9")
    return f"G{number}\r".encode()


def text(data):
    """Bytes for the cartridge (up to TEXT_MAX, no CR or LF)."""
    if not 1 <= len(data) <= TEXT_MAX or any(b in b"\r\n" for b in data):
        raise ValueError(f"a text frame holds 1 to {TEXT_MAX} bytes, without CR or LF")
    return b"T" + bytes(data) + b"\r"


def parse(line):
    """A Status from one line the board sent (bytes or str, with or without CR LF)."""
    text = line.decode("ascii", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\r\n")
    if text == "error":
        raise Rejected("the board rejected the frame as malformed; nothing changed")
    fields = text.split(" ")
    try:
        rows = fields[0].split("|")
        board = [BY_MARK[c] for c in "".join(rows)]
        flags = {field[0]: field[1:] for field in fields[1:]}
        if (len(text) != LINE_LENGTH or [len(r) for r in rows] != [3, 3, 3]
                or list(flags) != list("glsc") or not flags["g"].isupper()):
            raise ValueError
        bits = {name: tuple({"0": False, "1": True}[c] for c in flags[name])
                for name in "ls"}
        cycles = int(flags["c"], 16)
    except (ValueError, KeyError, IndexError):
        raise ProtocolError(f"not a status line: {text!r}") from None
    return Status(board, flags["g"], bits["l"], bits["s"], cycles)


def line(status):
    """The status line a board sent for `status`, without CR LF: `parse`'s inverse, for
    a client that shows the line itself (the page of ttt serve)."""
    places = "".join(MARKS[v] for v in status.board)
    bits = {name: "".join("01"[on] for on in flags)
            for name, flags in (("l", status.lamps), ("s", status.switches))}
    return (f"{places[0:3]}|{places[3:6]}|{places[6:9]} g{status.game} l{bits['l']} "
            f"s{bits['s']} c{min(status.cycles, 0xFFFF):04X}")
