"""The board of nine places from a terminal: the client of every game that has none of
its own (boards/host/clients.py), on a board over its serial port (`ttt play-board`,
boards/host/console.py) or on the game's golden model (`make play GAME=firstfree`,
boards/host/golden.py).

Places are named as in `make play` (firmware_ref.eth.ttmain): a column A-C and a row
1-3. The ETH chip's `make play` is the paper's own main program (F.3).
"""

import functools

from firmware_ref.cli import UserError
from firmware_ref.eth.alg import wins
from firmware_ref.places import (BOTH, BY_MARK, BY_NAME, COMPUTER, EMPTY, HUMAN, MARKS,
                                 PLACES, coordinate, grid)
from hdl.turns import Turns
from sim import catalogue

from . import protocol
from .link import link_errors
from .prompt import Prompter, Quit


__all__ = ["play_board", "play_golden", "Session", "check_position", "show", "HELP",
           "named", "playing", "machine_moves"]

CHIPS = (COMPUTER, BOTH)            # places that hold a chip's stone


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


# The lamps and switch every cartridge shares (hdl/cartridge.py).
YOUR_MOVE, OVER, MACHINE_WON = 0, 1, 2
YOU_BEGIN = 0


@functools.cache
def _codes():
    return {entry.code: entry.name for entry in catalogue.games()}


def named(code):
    """The game (a folder of hdl/) whose cartridge's letter is `code`, or None."""
    return _codes().get(code)


def machine(status):
    """What the board calls its machine, from the cartridge named in `status`."""
    name = named(status.game)
    return catalogue.game(name).machine if name else "the machine"


def says_moves(status):
    """Whether the cartridge playing says each move of its machine in a line (a game of
    turns does, hdl/turns.py: ``B1`` after the answer that shows the move)."""
    name = named(status.game)
    return bool(name) and issubclass(catalogue.game(name).core(), Turns)


def machine_moves(link, before, status):
    """The machine's moves from board `before` to `status`, named A1..C3. A game of turns
    says its move in a line that follows the answer: that line is read from `link`
    here, so it is shown once, now, and must name the stone the board shows."""
    moves = [coordinate(k) for k in range(PLACES)
             if status.board[k] in CHIPS and before[k] not in CHIPS]
    if says_moves(status):
        for move in moves:
            said = link.line()
            if said != move:
                raise protocol.ProtocolError(f"{machine(status)} played {move} but "
                                             f"said {said!r}")
    return moves


def playing(games, status):
    """``game N: its title`` for the game playing on a board of several `games`."""
    name = named(status.game)
    return f"game {games.index(name)}: {catalogue.game(name).title}"


def show(status, games=()):
    """The board as `make play` draws it, with whose stone is which, and the state; on a
    board of several `games` (names by number), which of them plays."""
    legend = [f"{MARKS[HUMAN]}  yours (green on the front panel)",
              f"{MARKS[COMPUTER]}  {machine(status)}'s (red)",
              f"{MARKS[BOTH]}  both (after a position no game reaches)"]
    legend = legend if BOTH in status.board else legend[:2]
    state = ("game over" if status.lamps[OVER]
             else "your move" if status.lamps[YOUR_MOVE] else "thinking")
    begins = "you begin" if status.switches[YOU_BEGIN] else f"{machine(status)} begins"
    which = f"{playing(games, status)}; " if len(games) > 1 else ""
    return "\n".join([grid(status.board, legend), f"{which}{state}; next game: {begins}"])


def result(status):
    if wins(status.board, HUMAN):
        return "You won."
    return (f"{machine(status).capitalize()} won." if status.lamps[MACHINE_WON]
            else "A draw.")


HELP = """Type a place for your stone: a column A-C and a row 1-3, e.g. B2 (as in make play).
new: a new game;  new XO.|...|... : a new game from a position (X yours, O the machine's);
user / machine: who begins the next game;  help;  quit"""


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
        if word in BY_NAME:
            place = BY_NAME[word]
            if status.board[place] != EMPTY:
                self.write(f"{word} is taken.")
                return status
            mine = status.board.copy()
            mine[place] = HUMAN
            after = self.command(protocol.key(place))
            for move in machine_moves(self.link, mine, after):
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
        if len(text) != PLACES or any(c not in protocol.POSITION_MARKS for c in text):
            raise ValueError(f"a position is {PLACES} of {' '.join(protocol.POSITION_MARKS)}, "
                             "e.g. XO.|...|...")
        return check_position([BY_MARK[c] for c in text])

    def new_game(self, board=None):
        status = self.command(protocol.reset(board))
        for move in machine_moves(self.link, board or [EMPTY] * PLACES, status):
            self.write(f"{machine(status).capitalize()} opens at {move}.")
        return status

    def command(self, frame, again=False, quiet=False):
        """Send `frame`; the status after it. `again`: once more if it is refused.
        `quiet`: the cartridge's lines that came meanwhile are dropped, not shown."""
        try:
            status = self.link.command(frame, again=again)
        except protocol.Rejected as error:
            raise UserError(f"{error} ({frame!r}): is this the board's serial port?") from None
        for line in [] if quiet else self.link.texts:
            self.write(f"{machine(status).capitalize()} says: {line}")
        self.link.texts.clear()
        return status


def play_board(link, read, write):
    """A board of nine places over `link`, as boards/host/clients.py asks it."""
    return Session(link, read, write).run()


def play_golden(read, write, *, game, seed=None, clock=None):
    """`make play GAME=game`: the ETH chip as the paper's main program plays it (F.3, at
    `clock` MHz, its random counter from `seed`); any other game of nine places on its
    golden model, with the board's own client."""
    if catalogue.game(game).chip:
        from firmware_ref.eth import ttmain
        return ttmain.play(clock=clock, seed=seed)
    from .golden import GoldenLink
    with link_errors():
        return Session(GoldenLink(game), read, write).run()
