"""The board behind one page: a board in a box (or a real board on its serial port),
its link, its games, and the view of the game playing (boards/web/views/).

Every method talks to the board and waits for it, some milliseconds a frame: the
session (sessions.py) calls them from a thread of its own, one at a time, never from
the server's event loop. A board that stops on the way (a box that died, a real board
unplugged) is said in one line, and the next call finds it again: a new box, or the
port opened again once it is back; either way its game begins anew.

A board in a box is a desk for each game (`desks`), as on the static site, where the
page clocks them itself (boards/site/): a desk holding one cartridge is smaller to
build and fetch, and clocks no cartridge but the one that plays, so that a desk of
twelve games answers a key as fast as a desk of one. The board opens the desk of the
game chosen; by default each is compiled for this machine (`native`).
"""

import contextlib

from firmware_ref.cli import UserError
from sim import catalogue

from ..host import protocol
from ..host.console import Console
from ..box.stream import DeskStream
from ..host.link import Link, link_errors, open_port
from ..host.terminal import named
from . import views
from .messages import Invalid
from .relay import plays_matches


__all__ = ["Board", "describe", "native"]


def native(game):
    """Game `game`'s desk compiled for this machine (boards/box/), as a stream."""
    from boards.box.box import CompiledDesk
    return DeskStream(CompiledDesk((game,)))


def describe(games):
    """The games as the page lists them: number, folder, title, machine, view (the
    page's module that draws it: the only modules the page loads), and whether it is a
    machine that plays in a match."""
    return [{"number": number, "name": name, "title": catalogue.game(name).title,
             "machine": catalogue.game(name).machine, "view": views.module(name).NAME,
             "match": plays_matches(name)}
            for number, name in enumerate(games)]


class Board:
    """A board and its games: with `port` the board on that serial port (its games are
    asked, as ttt play-board asks them), else a board in a box holding `games`, a desk
    for each, `desks(game)` the stream of game `game`'s (`native` by default)."""

    def __init__(self, games, port=None, desks=None):
        self.stream = None
        self.port, self.broken = port, False
        self.desks = None if port else desks or native
        self.games = tuple(games)
        self._desk = 0              # with desks: the game whose desk is open
        try:
            self._open(self.games)
            with link_errors():
                status = self.console.command(protocol.STATUS, quiet=True)
                # A board in a box holds the games it was built with; asking it for
                # them is two exchanges a game (9 s of the four-game desk's hello).
                if self.port:
                    self.games = self.console.ask_games(status)
                self.link.games = self._on_link()
                self.console.number = self.link.games.index(named(status.game))
                self.view = self._view()
        except BaseException:
            self.close()
            raise

    def _on_link(self):
        return (self.games[self._desk],) if self.desks else self.games

    def _open(self, games):
        if self.port:
            self.stream = open_port(self.port)
        else:
            self.stream = self.desks(games[self._desk])
        self.link = Link(self.stream)
        self.console = Console(self.link, None, None)

    def _view(self):
        view = views.module(self.games[self.number]).View(self.link,
                                                          self.games[self.number])
        view.begin()
        return view

    def _talking(self, do):
        """`do()`, the board found again first if it had stopped. A board that stops
        now is closed and said in one line (UserError); a frame it refuses is said."""
        try:
            if self.broken:
                self._found()
            return do()
        except protocol.Rejected as error:
            raise UserError(str(error)) from None
        except (OSError, protocol.ProtocolError) as error:
            self.close()
            self.broken = True
            where = f"The board on {self.port}" if self.port else "The board in a box"
            then = ("plug it back in, and the next move plays on, its game begun anew"
                    if self.port else "a new one opens at the next move, and the game "
                    "begins anew")
            raise UserError(f"{where} stopped answering ({_said(error)}): {then}.") from None

    def _found(self):
        """The board again: a new box, or the port once it is back, playing the game
        that was playing from its beginning."""
        number = self.console.number
        self.close()                    # what is left of a last try
        try:
            self._open(self.games)
        except UserError as error:
            self.close()
            raise UserError(f"The board is not back yet ({error}): plug it in, then play "
                            "on.") from None
        self.link.games, self.console.number = self._on_link(), number
        self.console.begin()
        self.view = self._view()
        self.broken = False
        title = catalogue.game(self.games[self.number]).title
        self.view.said.append(f"The board on {self.port} is back: {title} begins anew."
                              if self.port else
                              f"A new board in a box: {title} begins anew.")

    def describe(self, number):
        """Game `number` of the board's as the page lists it."""
        return describe(self.games)[number]

    @property
    def number(self):
        return self._desk if self.desks else self.console.number

    def play(self, number):
        """Game `number` of the board's, from an empty board, its switches as at
        power-up."""
        if number not in range(len(self.games)):
            raise Invalid(f"there is no game {number} on this board: its games are 0 to "
                          f"{len(self.games) - 1}")

        def begun():
            if not self.desks:
                self.console.number = number
            elif number != self._desk:      # another game's desk; its own game is 0
                self.close()
                self._desk = number
                self._open(self.games)
                self.link.games = self._on_link()
            self.console.begin()
            self.view = self._view()
        self._talking(begun)
        return self.state()

    def act(self, message):
        self._talking(lambda: self.view.act(message))
        return self.state()

    def state(self):
        return {"game": self.number, **self.view.state()}

    def close(self):
        if self.stream is not None:
            with contextlib.suppress(OSError):     # a port unplugged
                self.stream.close()
            self.stream = None


def _said(error):
    """`error` of a link as link_errors says it, in one line."""
    try:
        with link_errors():
            raise error
    except UserError as said:
        return str(said)
