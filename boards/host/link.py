"""A board on its serial port, as every client of boards/host/ reaches it: the port
opened (a real one, or a board in a box's pseudo-terminal), frames sent and status lines
and the cartridge's own lines read back (docs/boards.md, "The host link"), and what goes
wrong on the way said in one line.

The clients import this module and protocol.py, never each other, so that clients.py may
import whichever a game's face in the catalogue names.
"""

import contextlib
import errno
import os

from firmware_ref.cli import UserError

from . import protocol
from ..gateware.rates import BAUD


__all__ = ["Link", "NoAnswer", "open_port", "open_box", "link_errors", "TIMEOUT"]

TIMEOUT = 2                 # seconds: a board answers in milliseconds


class NoAnswer(protocol.ProtocolError):
    """Nothing, or half a line, came back within the timeout."""


class Link(protocol.Exchange):
    """One board on a byte stream with ``write`` and ``readline`` (a serial port)."""

    def __init__(self, stream):
        self.stream = stream
        self.texts = []         # the cartridge's lines, not yet shown
        self.games = ()         # the board's games by number, once Console asked it

    def answer(self, frame):
        self.stream.write(frame)
        while True:
            line = self.stream.readline()
            if not line.endswith(b"\n"):
                raise NoAnswer(f"no answer to {frame!r} (got {line!r}): is the board "
                               "programmed, and is this its serial port?")
            if not line.startswith(protocol.TEXT_MARK):
                return protocol.parse(line)
            self.texts.append(line[1:].rstrip(b"\r\n").decode("ascii", "replace"))

    def line(self):
        """The cartridge's next line: one that came before an answer, else the next the
        board sends (a line said in answer to a frame follows the frame's answer)."""
        if self.texts:
            return self.texts.pop(0)
        line = self.stream.readline()
        if not line.endswith(b"\n"):
            raise NoAnswer(f"the cartridge's line did not come (got {line!r})")
        if not line.startswith(protocol.TEXT_MARK):
            raise protocol.ProtocolError(f"not a line of the cartridge's: {line!r}")
        return line[1:].rstrip(b"\r\n").decode("ascii", "replace")


@contextlib.contextmanager
def link_errors():
    """A board that answers what no board should, or a port that fails (pyserial's
    SerialException is an OSError: unplugged): one line, a UserError."""
    try:
        yield
    except protocol.ProtocolError as error:
        raise UserError(str(error)) from None
    except OSError as error:
        raise UserError(f"the serial port failed: {error}") from None


def _ports():
    from serial.tools.list_ports import comports
    return ", ".join(p.device for p in comports()) or "none"


def open_port(port, timeout=TIMEOUT):
    """The serial port `port` at the link's baud rate, or a one-line UserError."""
    import serial
    try:
        return serial.Serial(port, BAUD, timeout=timeout)
    except (serial.SerialException, OSError, ValueError) as error:
        # pyserial's text repeats the port and the OS's error; the OS's alone is enough.
        number = getattr(error, "errno", None)
        reason = os.strerror(number) if number else str(error)
        if number == errno.EACCES:
            reason += " (on Linux, join the dialout group)"
        raise UserError(f"cannot open the serial port {port}: {reason}; "
                        f"serial ports on this machine: {_ports()}") from None


def open_box(box, silence=0.3):
    """The port of a started board in a box (boards/box/box.py), opened with the box's
    wait, once the box has said its power-up lines (a cartridge's line), which are
    dropped whole: a pause in the middle of one (a box short of CPU) is not its end,
    else its rest would be read as the first frame's answer."""
    stream = open_port(box.port, box.TIMEOUT)
    stream.timeout = silence
    while said := stream.read(4096):
        # The rest of a line begun comes within the box's wait; after a whole line, a
        # silence ends them.
        stream.timeout = silence if said.endswith(b"\n") else box.TIMEOUT
    stream.timeout = box.TIMEOUT
    return stream
