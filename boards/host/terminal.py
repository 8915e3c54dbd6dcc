"""Play the board from a terminal over its USB serial port: `ttt play-board`.

With no port it plays the board in a box (boards/tools/box.py), over a pseudo-terminal opened
exactly as a real port is. Places are named as in `make play` (firmware_ref.eth.ttmain): a
column A-C and a row 1-3.
"""

import contextlib
import errno
import os
import sys

from firmware_ref.eth.alg import COMPUTER, EMPTY, HUMAN, coordinate, wins
from firmware_ref.cli import UserError
from sim import cartridges

from . import protocol
from ..gateware.top import BAUD
from ..tools.build import DEFAULT_GAMES


__all__ = ["Link", "NoAnswer", "open_port", "play", "check_position", "show", "HELP",
           "Prompter", "Quit", "link_errors"]

PLACES = {coordinate(k): k for k in range(9)}
TIMEOUT = 2                 # seconds: a board answers in milliseconds
CHIPS = (COMPUTER, protocol.BOTH)   # places that hold a chip's stone


class NoAnswer(protocol.ProtocolError):
    """Nothing, or half a line, came back within the timeout."""


class Link:
    """One board on a byte stream with ``write`` and ``readline`` (a serial port)."""

    def __init__(self, stream):
        self.stream = stream
        self.texts = []         # the cartridge's lines, not yet shown

    def command(self, frame):
        self.stream.write(frame)
        while True:
            line = self.stream.readline()
            if not line.endswith(b"\n"):
                raise NoAnswer(f"no answer to {frame!r} (got {line!r}): is the board "
                               "programmed, and is this its serial port?")
            if not line.startswith(protocol.TEXT_MARK):
                return protocol.parse(line)
            self.texts.append(line[1:].rstrip(b"\r\n").decode("ascii", "replace"))


def _ports():
    from serial.tools.list_ports import comports
    return ", ".join(p.device for p in comports()) or "none"


def open_port(port):
    """The serial port `port` at the link's baud rate, or a one-line UserError."""
    import serial
    try:
        return serial.Serial(port, BAUD, timeout=TIMEOUT)
    except (serial.SerialException, OSError, ValueError) as error:
        # pyserial's text repeats the port and the OS's error; the OS's alone is enough.
        number = getattr(error, "errno", None)
        reason = os.strerror(number) if number else str(error)
        if number == errno.EACCES:
            reason += " (on Linux, join the dialout group)"
        raise UserError(f"cannot open the serial port {port}: {reason}; "
                        f"serial ports on this machine: {_ports()}") from None


def check_position(board):
    """Refuse positions no game reaches: the machine would play them, but not sensibly."""
    users, chips = board.count(HUMAN), board.count(COMPUTER)
    if abs(users - chips) > 1:
        raise ValueError(f"{users} of your stones and {chips} of the machine's: no game "
                         "gets there")
    for side, name in ((HUMAN, "you have"), (COMPUTER, "the machine has")):
        if wins(board, side):
            raise ValueError(f"{name} already won on this board")
    return board


RULE = "   +---+---+---+"
# The lamps and switch every cartridge shares (hdl/cartridge.py).
YOUR_MOVE, OVER, MACHINE_WON = 0, 1, 2
YOU_BEGIN = 0


def machine(status):
    """What the board calls its machine, from the cartridge named in `status`."""
    for name in cartridges.names():
        game = cartridges.cartridge(name)
        if game.code == status.game:
            return game.machine
    return "the machine"


def show(status):
    """The board as `make play` draws it, with whose stone is which, and the state."""
    marks = {**protocol.MARKS, EMPTY: " "}
    legend = [f"{protocol.MARKS[HUMAN]}  yours (green on the front panel)",
              f"{protocol.MARKS[COMPUTER]}  {machine(status)}'s (red)",
              f"{protocol.MARKS[protocol.BOTH]}  both (after a position no game reaches)"]
    legend = legend if protocol.BOTH in status.board else legend[:2]
    lines = ["     A   B   C", RULE]
    for row in range(3):
        cells = " | ".join(marks[status.board[3 * row + col]] for col in range(3))
        aside = f"    {legend[row]}" if row < len(legend) else ""
        lines += [f" {row + 1} | {cells} |{aside}", RULE]
    state = ("game over" if status.lamps[OVER]
             else "your move" if status.lamps[YOUR_MOVE] else "thinking")
    begins = "you begin" if status.switches[YOU_BEGIN] else f"{machine(status)} begins"
    return "\n".join([*lines, f"{state}; next game: {begins}"])


def result(status):
    if wins(status.board, HUMAN):
        return "You won."
    return (f"{machine(status).capitalize()} won." if status.lamps[MACHINE_WON]
            else "A draw.")


HELP = """Type a place for your stone: a column A-C and a row 1-3, e.g. B2 (as in make play).
new: a new game;  new XO.|...|... : a new game from a position (X yours, O the machine's);
user / machine: who begins the next game;  help;  quit"""
YES_NO = {"Y": True, "YES": True, "N": False, "NO": False}
QUIT = ("QUIT", "Q")


class Quit(Exception):
    """The player's input ended, or they typed quit."""


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


class Prompter:
    """Questions on a terminal, `read(prompt)` (EOFError at the end) and `write(text)`:
    the board's session and Ultimate's client ask through it."""

    def ask(self, prompt):
        try:
            line = self.read(prompt)
        except EOFError:
            self.write("")
            raise Quit from None
        if line.strip().upper() in QUIT:
            raise Quit
        return line

    def yes(self, question):
        while True:
            answer = self.ask(f"{question} (Y/N) ").strip().upper()
            if answer in YES_NO:
                return YES_NO[answer]
            self.write("Please answer Y or N.")


class Session(Prompter):
    """One terminal session on one board; `read(prompt)` (EOFError at the end) and
    `write(text)` are the terminal."""

    def __init__(self, link, read, write):
        self.link, self.read, self.write = link, read, write

    def run(self):
        # A line of the cartridge's may be on its way as this first frame ends (a board
        # in a box that has just started): the link refuses the frame and does nothing.
        # Lines sent before the session began are old news.
        status = self.command(protocol.STATUS, again=True, quiet=True)
        if status.game == cartridges.cartridge("ktane").code:
            from .bomb import play_board        # the bomb module has its own client
            return play_board(self.link, self.read, self.write)
        if status.game == cartridges.cartridge("tactic").code:
            from .tactic import play_board      # and so has Tactic-Toe
            return play_board(self.link, self.read, self.write)
        if status.game == cartridges.cartridge("ultimate").code:
            from .ultimate import play_board    # and Ultimate Tic-Tac-Toe
            return play_board(self.link, self.read, self.write)
        self.write(HELP)
        try:
            while True:
                self.write(show(status))
                if status.lamps[OVER]:
                    self.write(result(status))
                    if not self.yes("Do you want to play again?"):
                        return
                    self.command(protocol.switch(YOU_BEGIN,
                                                 self.yes("Do you want to play first?")))
                    status = self.new_game()
                    continue
                words = self.ask("> ").split()
                status = self.act(words, status) if words else status
        except Quit:
            return

    def act(self, words, status):
        """Do what the player typed; return the board's status after it."""
        word = words[0].upper()
        if word in PLACES:
            place = PLACES[word]
            if status.board[place] != EMPTY:
                self.write(f"{word} is taken.")
                return status
            mine = status.board.copy()
            mine[place] = HUMAN
            after = self.command(protocol.key(place))
            for k in self.chips_moves(mine, after):
                self.write(f"{machine(after).capitalize()} plays {coordinate(k)}; its move "
                           f"took {after.cycles} clock cycles.")
            return after
        if word == "NEW":
            try:
                board = self.position(words[1:]) if len(words) > 1 else None
            except ValueError as error:
                self.write(f"That position won't do: {error}.")
                return status
            return self.new_game(board)
        if word in ("USER", "CHIP", "MACHINE"):
            return self.command(protocol.switch(YOU_BEGIN, word == "USER"))
        if word != "HELP":
            self.write(f"{words[0]!r} is neither a place nor a command.")
        self.write(HELP)
        return status

    @staticmethod
    def position(words):
        text = "".join(c for c in "".join(words).upper() if c not in "|/")
        if len(text) != 9 or any(c not in ".OX" for c in text):
            raise ValueError("a position is 9 of . O X, e.g. XO.|...|...")
        return check_position([protocol.PLACES[c] for c in text])

    def new_game(self, board=None):
        status = self.command(protocol.reset(board))
        for k in self.chips_moves(board or [EMPTY] * 9, status):
            self.write(f"{machine(status).capitalize()} opens at {coordinate(k)}.")
        return status

    @staticmethod
    def chips_moves(before, status):
        return [k for k in range(9) if status.board[k] in CHIPS and before[k] not in CHIPS]

    def command(self, frame, again=False, quiet=False):
        """Send `frame`; the status after it. `again`: once more if it is refused.
        `quiet`: the cartridge's lines that came meanwhile are dropped, not shown."""
        try:
            status = self.link.command(frame)
            for line in [] if quiet else self.link.texts:
                self.write(f"{machine(status).capitalize()} says: {line}")
            self.link.texts.clear()
            return status
        except protocol.Rejected as error:
            if again:
                return self.command(frame, quiet=quiet)
            raise UserError(f"{error} ({frame!r}): is this the board's serial port?") from None
        except protocol.ProtocolError as error:
            raise UserError(str(error)) from None
        except OSError as error:    # pyserial's SerialException is one: unplugged
            raise UserError(f"the serial port failed: {error}") from None


def typed(prompt):
    """`input`, echoing what was read when it does not come from a terminal, so that a
    piped session reads as one typed by hand."""
    line = input(prompt)
    if not sys.stdin.isatty():
        print(line)
    return line


def play(port, *, stream=None, read=typed, write=print, games=DEFAULT_GAMES):
    """Play the board on serial port `port`, or on `stream`, or, with neither, the board
    in a box holding `games`. Returns the exit status; errors are UserError, one line."""
    if stream is not None:
        return Session(Link(stream), read, write).run() or 0
    if port:
        with open_port(port) as stream:
            return play(port, stream=stream, read=read, write=write)
    from sim.compiled import BackendMissing

    from ..tools.box import Box
    try:
        box = Box(games, log=write)
    except BackendMissing as error:
        raise UserError(f"the board in a box cannot be compiled: {error}") from None
    with box:
        machines = " + ".join(cartridges.cartridge(name).machine for name in games)
        write(f"no PORT given: playing the board in a box (simulated desk + {machines}, "
              f"{box.port})")
        try:
            with open_port(box.port) as stream:
                return play(box.port, stream=stream, read=read, write=write)
        except UserError:
            if box.error:       # the client heard nothing because the box had stopped
                raise UserError(f"the board in a box stopped: {box.error}") from None
            raise
