"""Play the board from a terminal over its USB serial port: `ttt play-board`.

With no port it plays the board in a box (boards/box/box.py), over a pseudo-terminal opened
exactly as a real port is. Places are named as in `make play` (firmware_ref.eth.ttmain): a
column A-C and a row 1-3. A board with several games (`GAME=eth,firstfree`) is asked for
them when the session begins; `game` lists them and `game N` plays game N with its own
client (boards/host/clients.py). The same `Session` plays a game of turns on its golden
model (`make play GAME=firstfree`, boards/host/golden.py).
"""

import contextlib
import errno
import functools
import os
import sys

from firmware_ref.eth.alg import COMPUTER, EMPTY, HUMAN, coordinate, wins
from firmware_ref.cli import UserError
from hdl.turns import Turns
from sim.cartridges import bench as cartridges

from . import clients, protocol
from ..gateware.top import BAUD
from boards.builds.build import DEFAULT_GAMES


__all__ = ["Link", "NoAnswer", "open_port", "open_box", "play", "check_position", "show",
           "HELP", "Prompter", "Quit", "link_errors", "Session", "Console", "play_board",
           "play_golden"]

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
        self.games = ()         # the board's games by number, once Console asked it

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


@functools.cache
def _codes():
    return {cartridges.cartridge(name).code: name for name in cartridges.names()}


def named(code):
    """The game (a folder of hdl/) whose cartridge's letter is `code`, or None."""
    return _codes().get(code)


def machine(status):
    """What the board calls its machine, from the cartridge named in `status`."""
    name = named(status.game)
    return cartridges.cartridge(name).machine if name else "the machine"


def says_moves(status):
    """Whether the cartridge playing says each move of its machine in a line (a game of
    turns does, hdl/turns.py: ``B1`` after the answer that shows the move)."""
    name = named(status.game)
    return bool(name) and issubclass(cartridges.cartridge(name), Turns)


def playing(games, status):
    """``game N: its title`` for the game playing on a board of several `games`."""
    name = named(status.game)
    return f"game {games.index(name)}: {cartridges.cartridge(name).title}"


def show(status, games=()):
    """The board as `make play` draws it, with whose stone is which, and the state; on a
    board of several `games` (names by number), which of them plays."""
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
    which = f"{playing(games, status)}; " if len(games) > 1 else ""
    return "\n".join([*lines, f"{which}{state}; next game: {begins}"])


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
    """One terminal session on a board of nine places (the ETH chip, a game of turns);
    `link` is the board's Link, or a GoldenLink; `read(prompt)` (EOFError at the end)
    and `write(text)` are the terminal."""

    def __init__(self, link, read, write):
        self.link, self.read, self.write = link, read, write

    def run(self):
        # A line of the cartridge's may be on its way as this first frame ends (a board
        # in a box that has just started): the link refuses the frame and does nothing.
        # Lines sent before the session began are old news.
        status = self.command(protocol.STATUS, again=True, quiet=True)
        self.write(HELP)
        try:
            while True:
                self.write(show(status, self.link.games))
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
            for move in self.moves(mine, after):
                self.write(f"{machine(after).capitalize()} plays {move}; its move took "
                           f"{after.cycles} clock cycles.")
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
        for move in self.moves(board or [EMPTY] * 9, status):
            self.write(f"{machine(status).capitalize()} opens at {move}.")
        return status

    def moves(self, before, status):
        """The machine's moves from `before` to `status`, named A1..C3. A game of turns
        says its move in a line that follows the answer: that line is read here, so it
        is shown once, now, and must name the stone the board shows."""
        moves = [coordinate(k) for k in range(9)
                 if status.board[k] in CHIPS and before[k] not in CHIPS]
        if says_moves(status):
            for move in moves:
                said = self.link.line()
                if said != move:
                    raise protocol.ProtocolError(f"{machine(status)} played {move} but "
                                                 f"said {said!r}")
        return moves

    def command(self, frame, again=False, quiet=False):
        """Send `frame`; the status after it. `again`: once more if it is refused.
        `quiet`: the cartridge's lines that came meanwhile are dropped, not shown."""
        try:
            status = self.link.command(frame)
        except protocol.Rejected as error:
            if again:
                return self.command(frame, quiet=quiet)
            raise UserError(f"{error} ({frame!r}): is this the board's serial port?") from None
        for line in [] if quiet else self.link.texts:
            self.write(f"{machine(status).capitalize()} says: {line}")
        self.link.texts.clear()
        return status


class Switch(Exception):
    """The player chose game `number` of the board's."""

    def __init__(self, number):
        super().__init__(number)
        self.number = number


class Console:
    """A board and its games, each played by its own client (boards/host/clients.py);
    the board's `link`, and the terminal's `read` and `write`.

    The link tells the games: a ``G`` frame is refused for a number the board does not
    hold, and the status line names the game playing by its letter. So the board is
    asked ``G1``, ``G2``, ... until one is refused twice (once may be a frame that met a
    line of the cartridge's), then ``G0``, and the game that was playing begins anew. A
    board of one game refuses ``G1`` and nothing changes. Every line typed passes here
    first: ``game`` lists the games, ``game N`` plays one, ``help`` names them too."""

    def __init__(self, link, read, write):
        self.link, self.typed, self.write = link, read, write
        self.number = 0             # the game playing

    def run(self):
        with link_errors():
            status = self.command(protocol.STATUS, quiet=True)
            self.link.games = self.ask_games(status)
            self.number = self.link.games.index(named(status.game))
            if len(self.link.games) > 1:
                self.write(f"This board holds {len(self.link.games)} games, now "
                           f"{playing(self.link.games, status)}; game lists them.")
            while True:
                try:
                    return clients.client(self.link.games[self.number]).play_board(
                        self.link, self.read, self.write)
                except Switch as switch:
                    self.number = switch.number
                    self.write(f"Now {playing(self.link.games, self.begin())}.")

    def command(self, frame, quiet=False):
        """The status after `frame`, sent once more if the board refuses it, or Rejected
        (refused twice: a line of the cartridge's ends only one frame)."""
        try:
            status = self.link.command(frame)
        except protocol.Rejected:
            status = self.link.command(frame)
        if quiet:
            self.link.texts.clear()
        return status

    def begin(self):
        """Game `number` from an empty board, its switches as at power-up (the desk
        keeps them across games, and each game reads them its own way)."""
        status = self.command(protocol.STATUS, quiet=True)
        init = cartridges.cartridge(self.link.games[self.number]).switch_init
        for n, on in enumerate(status.switches):
            if on != bool(init >> n & 1):
                self.command(protocol.switch(n, not on), quiet=True)
        return self.command(protocol.game(self.number), quiet=True)

    def ask_games(self, status):
        """The board's games by number (folders of hdl/), from its answers to ``G``."""
        codes = {}
        for number in range(1, 10):
            try:
                codes[number] = self.command(protocol.game(number), quiet=True).game
            except protocol.Rejected:
                break
        if not codes:
            return (named(status.game),)
        codes[0] = self.command(protocol.game(0), quiet=True).game
        games = tuple(named(codes[n]) for n in sorted(codes))
        if None in games or len(set(games)) != len(games) or named(status.game) not in games:
            letters = "".join(codes[n] for n in sorted(codes))
            raise protocol.ProtocolError(f"the board's games are {letters} and it played "
                                         f"{status.game}: not games this client knows")
        # Back to the game that was playing, from the beginning.
        self.command(protocol.game(games.index(named(status.game))), quiet=True)
        return games

    def read(self, prompt):
        """A line typed for the client, after the lines about games."""
        games = self.link.games
        while True:
            line = self.typed(prompt)
            words = line.upper().split()
            if words[:1] == ["HELP"] and len(games) > 1:
                title = cartridges.cartridge(games[self.number]).title
                self.write(f"game: this board's games;  game N: play game N (now game "
                           f"{self.number}: {title})")
            if words[:1] != ["GAME"]:
                return line
            if len(words) == 1:
                self.write("\n".join(
                    ["This board's games (game N plays one):"]
                    + [f"  {n}  {cartridges.cartridge(name).title}"
                       + ("  <- playing" if n == self.number else "")
                       for n, name in enumerate(games)]))
            elif words[1].isdigit() and int(words[1]) < len(games):
                raise Switch(int(words[1]))
            else:
                held = (f"its games are 0 to {len(games) - 1}" if len(games) > 1
                        else "it holds one game, 0")
                self.write(f"There is no game {' '.join(line.split()[1:])} on this board: "
                           f"{held} (game lists them).")


def typed(prompt):
    """`input`, echoing what was read when it does not come from a terminal, so that a
    piped session reads as one typed by hand."""
    line = input(prompt)
    if not sys.stdin.isatty():
        print(line)
    return line


def play_board(link, read, write):
    """A board of nine places over `link` (boards/host/clients.py's table)."""
    return Session(link, read, write).run()


def play_golden(read, write, *, game, seed=None, clock=None):
    """`make play GAME=game`: the ETH chip as the paper's main program plays it (F.3, at
    `clock` MHz, its random counter from `seed`); any other game of nine places on its
    golden model, with the board's own client."""
    if game == "eth":
        from firmware_ref.eth import ttmain
        return ttmain.play(clock=clock, seed=seed)
    from .golden import GoldenLink
    with link_errors():
        return Session(GoldenLink(game), read, write).run()


def said(text):
    """`print`, seen at once even in a log or a pipe: a line may precede a long wait."""
    print(text, flush=True)


def open_box(box, silence=0.3):
    """The port of a started board in a box (boards/box/box.py), opened with the box's
    wait, once the box has said its power-up lines (a cartridge's line), which are
    dropped: a first frame that met a line being sent was answered in its middle."""
    stream = open_port(box.port, box.TIMEOUT)
    stream.timeout = silence
    while stream.read(4096):
        pass
    stream.timeout = box.TIMEOUT
    return stream


def play(port, *, stream=None, read=typed, write=said, games=DEFAULT_GAMES):
    """Play the board on serial port `port`, or on `stream`, or, with neither, the board
    in a box holding `games`. Returns the exit status; errors are UserError, one line."""
    if stream is not None:
        return Console(Link(stream), read, write).run() or 0
    if port:
        with open_port(port) as stream:
            return play(port, stream=stream, read=read, write=write)
    from sim.backends.compiled import BackendMissing

    from boards.box.box import Box
    try:
        box = Box(games, log=write)
    except BackendMissing as error:
        raise UserError(f"the board in a box cannot be compiled: {error}") from None
    with box:
        machines = " + ".join(cartridges.cartridge(name).machine for name in games)
        write(f"no PORT given: playing the board in a box (simulated desk + {machines}, "
              f"{box.port})")
        try:
            with open_box(box) as stream:
                return play(box.port, stream=stream, read=read, write=write)
        except UserError:
            if box.error:       # the client heard nothing because the box had stopped
                raise UserError(f"the board in a box stopped: {box.error}") from None
            raise
