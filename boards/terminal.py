"""Play the board from a terminal over its USB serial port: `python -m boards play`."""


from firmware_ref.alg import COMPUTER, HUMAN, coordinate, wins

from . import protocol
from .top import BAUD


__all__ = ["Link", "open_port", "play", "check_position"]

PLACES = {coordinate(k): k for k in range(9)}


class Link:
    """One board on a byte stream with ``write`` and ``readline`` (a serial port)."""

    def __init__(self, stream):
        self.stream = stream

    def command(self, frame):
        self.stream.write(frame)
        line = self.stream.readline()
        if not line.endswith(b"\n"):
            raise protocol.ProtocolError(f"no answer to {frame!r} (got {line!r}): is the "
                                         "board programmed, and is this its serial port?")
        return protocol.parse(line)


def open_port(port):
    import serial
    from serial.tools.list_ports import comports
    if not port:
        ports = ", ".join(p.device for p in comports()) or "none"
        raise SystemExit(f"error: say which serial port: make play-board PORT=/dev/ttyUSB1\n"
                         f"serial ports on this machine: {ports}") from None
    try:
        return serial.Serial(port, BAUD, timeout=2)
    except (serial.SerialException, OSError) as error:
        ports = ", ".join(p.device for p in comports()) or "none"
        raise SystemExit(f"error: cannot open the serial port {port}: {error}\n"
                         f"serial ports on this machine: {ports}") from None


def check_position(board):
    """Refuse positions no game reaches: the chip would play them, but not sensibly."""
    users, chips = board.count(HUMAN), board.count(COMPUTER)
    if abs(users - chips) > 1:
        raise ValueError(f"{users} user stones and {chips} chip stones: no game gets there")
    for side, name in ((HUMAN, "the user"), (COMPUTER, "the chip")):
        if wins(board, side):
            raise ValueError(f"{name} has already won on this board")
    return board


def show(status):
    rows = ["  " + " ".join(protocol.MARKS[v] for v in status.board[3 * r:3 * r + 3])
            + f"   {r + 1}" for r in range(3)]
    state = ("the chip won" if status.win else "draw" if status.fin
             else "your move" if status.prompt else "thinking")
    return "\n".join(["  A B C", *rows,
                      f"{state}; the chip's last move took {status.cycles} cycles; "
                      f"userbegins={int(status.userbegins)} piN={int(status.piN)}"])


HELP = """keys: A1 .. C3 (or 0 .. 8); new: new game; new XO.|...|... : new game from a position;
user / chip: who begins the next game; quit"""


def play(port, *, stream=None, read=input, write=print):
    link = Link(stream or open_port(port))
    write(HELP)
    status = link.command(protocol.STATUS)
    while True:
        write(show(status))
        try:
            words = read("> ").strip().split()
        except EOFError:
            return 0
        if not words:
            continue
        word = words[0].upper()
        try:
            if word in ("QUIT", "Q"):
                return 0
            elif word in PLACES or word in "012345678" and len(word) == 1:
                status = link.command(protocol.key(PLACES.get(word) if word in PLACES
                                                   else int(word)))
            elif word == "NEW":
                board = None
                if len(words) > 1:
                    text = "".join(c for c in "".join(words[1:]).upper() if c not in "|/")
                    if len(text) != 9 or any(c not in ".OX" for c in text):
                        raise ValueError("a position is 9 of . O X, e.g. XO.|...|...")
                    board = check_position([protocol.PLACES[c] for c in text])
                status = link.command(protocol.reset(board))
            elif word in ("USER", "CHIP"):
                status = link.command(protocol.userbegins(word == "USER"))
            else:
                write(HELP)
        except (ValueError, protocol.ProtocolError) as error:
            write(f"error: {error}")
