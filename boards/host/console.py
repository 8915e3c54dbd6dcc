"""`ttt play-board`: a board from a terminal over a stream, and its games.

The stream is a board's USB serial port or the board in a box's pseudo-terminal,
opened exactly as a real port is; the verb (boards/commands/play_board.py) opens it, so
that the host's side knows nothing of how a board is made. A board with several games
(`GAME=eth,firstfree`) is asked for them when the session begins; `game` lists them and
`game N` plays game N, each game with the client its face in the catalogue names
(boards/host/clients.py; a game of nine places with boards/host/terminal.py's).
"""

from sim import catalogue

from . import clients, protocol
from .link import Link, link_errors
from .prompt import said, typed
from .terminal import named, playing


__all__ = ["Console", "play"]


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
    asked ``G1``, ``G2``, ... until one is refused (twice: `command`), then ``G0``, and
    the game that was playing begins anew. A board of one game refuses ``G1`` and
    nothing changes. A ``G`` that meets the line the game just chosen says (the bomb's
    new module) is answered after it, however quick the host. Every line typed passes
    here first: ``game`` lists the games, ``game N`` plays one, ``help`` names them
    too."""

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
        """The status after `frame`, sent once more if the board refuses it (as a board
        flashed before the desk held a frame that met a line did), or Rejected."""
        status = self.link.command(frame, again=True)
        if quiet:
            self.link.texts.clear()
        return status

    def begin(self):
        """Game `number` from an empty board, its switches as at power-up (the desk
        keeps them across games, and each game reads them its own way)."""
        status = self.command(protocol.STATUS, quiet=True)
        init = catalogue.game(self.link.games[self.number]).core().switch_init
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
                title = catalogue.game(games[self.number]).title
                self.write(f"game: this board's games;  game N: play game N (now game "
                           f"{self.number}: {title})")
            if words[:1] != ["GAME"]:
                return line
            if len(words) == 1:
                self.write("\n".join(
                    ["This board's games (game N plays one):"]
                    + [f"  {n}  {catalogue.game(name).title}"
                       + ("  <- playing" if n == self.number else "")
                       for n, name in enumerate(games)]))
            elif words[1].isdigit() and int(words[1]) < len(games):
                raise Switch(int(words[1]))
            else:
                held = (f"its games are 0 to {len(games) - 1}" if len(games) > 1
                        else "it holds one game, 0")
                self.write(f"There is no game {' '.join(line.split()[1:])} on this board: "
                           f"{held} (game lists them).")


def play(stream, *, read=typed, write=said):
    """Play the board on `stream`, opened (a serial port, or the board in a box's
    pseudo-terminal). Returns the exit status; errors are UserError, one line."""
    return Console(Link(stream), read, write).run() or 0
