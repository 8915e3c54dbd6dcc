"""The board behind one page: a board in a box (or a real board on its serial port),
its link, its games, and the view of the game playing (boards/web/views/).

Every method talks to the board and waits for it, some milliseconds a frame: the
session (sessions.py) calls them from a thread of its own, one at a time, never from
the server's event loop.
"""

from sim import catalogue

from ..host import protocol
from ..host.console import Console
from ..host.link import Link, link_errors, open_box, open_port
from ..host.terminal import named
from . import views
from .messages import Invalid
from .relay import plays_matches


__all__ = ["Board", "describe"]


def describe(games):
    """The games as the page lists them: number, folder, title, machine, view (the
    page's module that draws it: the only modules the page loads), and whether it is a
    machine that plays in a match."""
    return [{"number": number, "name": name, "title": catalogue.game(name).title,
             "machine": catalogue.game(name).machine, "view": views.module(name).NAME,
             "match": plays_matches(name)}
            for number, name in enumerate(games)]


class Board:
    """A board and its games: the board in a box holding `games`, or with `port` the
    board on that serial port (its games are asked, as ttt play-board asks them)."""

    def __init__(self, games, port=None):
        self.box = self.stream = None
        try:
            if port:
                self.stream = open_port(port)
            else:
                from boards.box.box import Box
                self.box = Box(games).__enter__()
                self.stream = open_box(self.box)
            self.link = Link(self.stream)
            self.console = Console(self.link, None, None)
            with link_errors():
                status = self.console.command(protocol.STATUS, quiet=True)
                self.games = self.link.games = self.console.ask_games(status)
            self.console.number = self.games.index(named(status.game))
            self.view = self._view()
        except BaseException:
            self.close()
            raise

    def _view(self):
        view = views.module(self.games[self.console.number]).View(
            self.link, self.games[self.console.number])
        with link_errors():
            view.begin()
        return view

    def describe(self, number):
        """Game `number` of the board's as the page lists it."""
        return describe(self.games)[number]

    @property
    def number(self):
        return self.console.number

    def play(self, number):
        """Game `number` of the board's, from an empty board, its switches as at
        power-up."""
        if number not in range(len(self.games)):
            raise Invalid(f"there is no game {number} on this board: its games are 0 to "
                          f"{len(self.games) - 1}")
        self.console.number = number
        with link_errors():
            self.console.begin()
        self.view = self._view()
        return self.state()

    def act(self, message):
        with link_errors():
            self.view.act(message)
        return self.state()

    def state(self):
        return {"game": self.number, **self.view.state()}

    def close(self):
        if self.stream is not None:
            self.stream.close()
            self.stream = None
        if self.box is not None:
            self.box.close()
            self.box = None
