"""What the console's messages do, apart from how they travel (docs/web.md, "The
messages"): the sessions, the game playing and its view, two machines playing each
other, and the chip's insides.

A transport makes a `Page` for each page that connects (`Console.page`), hands it each
message the page sends, as its JSON text, and sends back what `Page.handle` returns.
What is said later, unasked, the page `push`es through the transport: a match's moves as
they are made, and, when the page's game went on in another page, its last message, after
which `end()` closes its connection. The server (server.py) is one such transport, over
aiohttp's WebSocket; nothing here knows sockets, HTTP or threads: each session's board is
called through the worker the console is given (sessions.py).
"""

import asyncio
import time

from firmware_ref.cli import UserError

from . import chip, messages, relay, words
from .board import Board, describe
from .messages import Invalid
from .sessions import Full, Sessions, Threaded

__all__ = ["Console", "Page", "SESSIONS", "IDLE_S", "PAUSE_S"]

IDLE_S = 600                # a session outlives its page by ten minutes
SESSIONS = 4                # pages played at once: a board in a box each
PAUSE_S = 0.6               # between two moves of a match shown move by move


class Console:
    """What the console keeps across its pages: the boards' games (a board in a box
    holding `games`, or the real board on serial port `port`), the sessions, and `log`,
    where what went wrong inside is said in one line to whoever runs it. `worker()`:
    how each session calls its boards (sessions.py)."""

    def __init__(self, games, port=None, limit=SESSIONS, idle_s=IDLE_S, log=print,
                 pause_s=PAUSE_S, worker=Threaded):
        self.games, self.port, self.log, self.pause_s = games, port, log, pause_s
        self.sessions = Sessions(lambda: Board(games, port), 1 if port else limit, idle_s,
                                 worker)

    def page(self, push, end):
        """A page that has just connected. `push(text)` sends it a message unasked and
        `end()` closes its connection (both awaited)."""
        return Page(self, push, end)

    async def sweep(self):
        """Close the boards of sessions whose page left long ago."""
        for session in self.sessions.stale():
            await session.close()

    async def close(self):
        """Close every session's boards: the console stops."""
        for session in self.sessions.all():
            await session.close()


class Page:
    """One connected page and, once it said hello, its session. `ended`: the page has
    had its last message, and its transport closes it."""

    def __init__(self, console, push, end):
        self.console, self.push, self.end = console, push, end
        self.session = None
        self.match = None           # the task of the match being played, if any
        self.ended = False

    async def handle(self, text):
        """The messages (JSON texts) that answer `text`, a message from the page. A
        message that will not do, or a board that fails, is answered with an error, and
        the page plays on."""
        try:
            message = messages.parse(text)
            if message["kind"] != "hello" and self.session is None:
                raise Invalid("say hello first")
            return await getattr(self, f"on_{message['kind']}")(message)
        except (Invalid, UserError) as error:   # UserError: the board failed, said
            return [messages.error(str(error))]
        except Exception as error:      # noqa: BLE001 -- a page never ends the console
            self.console.log(f"a page's message failed: {type(error).__name__}: {error}")
            return [messages.error("the server could not do that "
                                   f"({type(error).__name__})")]

    async def on_hello(self, message):
        if self.session is not None:
            raise Invalid("hello comes once")
        console, sessions = self.console, self.console.sessions
        try:
            session, resumed = sessions.find(message.get("session"))
        except Full:
            self.ended = True
            return [messages.error(
                f"The board on {console.port} is played in another tab: a real board "
                "serves one tab at a time." if console.port else
                f"This console plays {sessions.limit} page{'s' * (sessions.limit > 1)} "
                "at once, and all are taken: try again when one is closed.", final=True)]
        old = session.page
        if old is not None and old is not self:
            session.page = None
            await old.gone("This game went on in another page.")
        session.page, self.session = self, session
        try:
            board = await session.call(session.opened)
        except BaseException:
            # A board that cannot be opened (no compiler, a port that fails) is said
            # once, and the session is not kept.
            sessions.drop(session)
            self.session = session.page = None
            await session.close()
            raise
        return [messages.encode("welcome", session=session.token, resumed=resumed,
                                games=describe(board.games), port=console.port,
                                words=words.board()),
                messages.encode("state", **await session.call(board.state))]

    async def gone(self, text):
        """The page's session went to another page: `text` is its last message."""
        self.ended = True
        await self.push(messages.error(text, final=True))
        await self.end()

    async def on_act(self, message):
        board = self.session.board
        began = time.perf_counter()
        state = await self.session.call(board.act, message)
        return [messages.encode("state", answers=message.get("id"),
                                board_ms=_ms_since(began), **state)]

    async def on_game(self, message):
        board = self.session.board
        state = await self.session.call(board.play, message["number"])
        return [messages.encode("state", **state)]

    async def on_chip(self, message):
        session = self.session
        began = time.perf_counter()
        view = await session.call(chip.act, session, message)
        return [messages.encode("chip", server_ms=_ms_since(began), **view)]

    async def on_match(self, message):
        if self.match is not None:
            self.match.cancel()
            self.match = None
        if message["do"] == "stop":
            return []
        if message["do"] not in ("game", "openings"):
            raise Invalid("match: do is game, openings or stop")
        if self.console.port:
            raise Invalid(f"match: two machines need two boards in a box, and this server "
                          f"plays the board on {self.console.port}")
        numbers = message.get("machines")
        if not (isinstance(numbers, list) and len(numbers) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in numbers)):
            raise Invalid("match: machines is two game numbers, e.g. [0, 1]")
        session = self.session

        def matched():
            boards = [session.another(f"match {m}") for m in (0, 1)]
            return relay.Match(boards, numbers)
        match = await session.call(matched)
        if message["do"] == "game":
            opens, place = message.get("opens", 0), message.get("place", 4)
            await session.call(match.begin, opens, place)
            playing = self._one_game(match)
        else:
            playing = self._every_opening(match)
        # Played on after this answer: its moves are pushed as they are made.
        self.match = asyncio.create_task(self._reported(playing))
        return []

    async def _reported(self, playing):
        """A match's task: a board that fails is said, as for any message."""
        try:
            await playing
        except asyncio.CancelledError:
            raise
        except (Invalid, UserError) as error:
            await self.push(messages.error(str(error)))
        except Exception as error:      # noqa: BLE001 -- a page never ends the console
            self.console.log(f"a match failed: {type(error).__name__}: {error}")
            await self.push(messages.error(f"the match failed ({type(error).__name__})"))

    def _pushed(self, match, **fields):
        return self.push(messages.encode("match", names=match.names, titles=match.titles,
                                         **fields))

    async def _one_game(self, match):
        """One game, each move shown as it is made, a pause after each."""
        game = match.game
        while True:
            await self._pushed(match, mode="game", game=game.record(match.names),
                               done=game.over)
            if game.over:
                return
            await asyncio.sleep(self.console.pause_s)
            await self.session.call(match.step)

    async def _every_opening(self, match):
        """Every opening played out, the table pushed after each game."""
        games = []
        for opener, place in relay.OPENINGS:
            games.append(await self.session.call(match.played, opener, place))
            await self._pushed(match, mode="openings", games=[
                g.record(match.names) for g in games], score=match.score(games),
                done=len(games) == len(relay.OPENINGS))

    def left(self):
        """The page's connection ended: its match stops, and its session waits for it."""
        if self.match is not None:
            self.match.cancel()
        session = self.session
        if session is not None and session.page is self:
            session.page = None
            session.left = time.monotonic()


def _ms_since(began):
    return round((time.perf_counter() - began) * 1000, 2)
