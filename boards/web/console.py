"""What the console's messages do, apart from how they travel (docs/web.md, "The
messages"): the sessions, the game playing and its view, two machines playing each
other, and the chip's insides.

A transport makes a `Page` for each page that connects (`Console.page`), hands it each
message the page sends, as its JSON text, and sends back what `Page.handle` returns.
What is said later, unasked, the page `push`es through the transport: a match's moves as
they are made, what a long wait is doing (`Job`), and, when the page's game went on in
another page, its last message, after which `end()` closes its connection. The server
(server.py) is one such transport, over aiohttp's WebSocket; nothing here knows sockets,
HTTP or threads: each of a session's boards is called through a worker of the kind the
console is given (sessions.py).
"""

import asyncio
import contextlib
import time

from firmware_ref.cli import UserError
from firmware_ref.places import coordinate

from . import chip, messages, relay, words
from .die import Source
from .board import Board, describe
from .messages import Invalid
from .sessions import Full, Sessions, Threaded

__all__ = ["Console", "Page", "Job", "SESSIONS", "IDLE_S", "PAUSE_S", "PROGRESS_S"]

IDLE_S = 20                 # a session outlives its page by this, for a reload
SESSIONS = 4                # pages played at once: a board in a box each
PAUSE_S = 0.6               # between two moves of a match shown move by move
PROGRESS_S = 0.5            # a wait longer than this is said on the page as progress
MATCH_BOARDS = ("match 0", "match 1")   # the machines' boards among a session's extra
# What the page waits for, by the message's kind (a chip's by what it does), said if it
# is long; a match, answered at once, says its own as it is played.
DOING = {"hello": "Opening the board in a box", "act": "Waiting for the board",
         "game": "Changing the cartridge", "chip": "Clocking the chip",
         "chip open": "Opening the chip's insides", "chip new": "Opening a new chip",
         "chip e2": "Clocking appendix E.1's session", "chip waves": "Writing the waves",
         "chip tree": "Drawing the search tree",
         "chip die": "Opening the die (laid out the first time: under a minute)"}


class Job:
    """What a page waits for: said on it as a `progress` message once the job has
    taken PROGRESS_S, and again at each `step` after that. The job's next message ends
    it on the page; ``async with Job(push, doing) as job``."""

    def __init__(self, push, doing, step=None, steps=None):
        self._push, self._timer, self.shown = push, None, False
        self._now = (doing, step, steps)

    async def __aenter__(self):
        if PROGRESS_S <= 0:
            await self._show()
        else:
            self._timer = asyncio.create_task(self._later(PROGRESS_S))
        return self

    async def __aexit__(self, *exc):
        if self._timer is not None:
            self._timer.cancel()

    async def _later(self, delay):
        await asyncio.sleep(delay)
        await self._show()

    async def _show(self):
        self.shown = True
        await self._push(messages.progress(*self._now))

    async def step(self, doing, step=None, steps=None):
        """The job is doing `doing` now (step `step` of `steps`)."""
        self._now = (doing, step, steps)
        if self.shown:
            await self._show()


class Console:
    """What the console keeps across its pages: the boards' games (a board in a box
    holding `games`, or the real board on serial port `port`, or `desks`, a desk for
    each game, as board.py says), the sessions, and `log`, where what went wrong inside
    is said in one line to whoever runs it. `worker()`: how each session calls its
    boards (sessions.py). `chip(random)`: the compiled chip the insides clock
    (boards/web/chip.py; None: sim.backends.compiled's); `die()`: the die's
    description the insides show it on (die.py; None: no die)."""

    def __init__(self, games, port=None, limit=SESSIONS, idle_s=IDLE_S, log=print,
                 pause_s=PAUSE_S, worker=Threaded, desks=None, chip=None, die=None):
        self.games, self.port, self.log, self.pause_s = games, port, log, pause_s
        self.chip = chip
        self.die = Source(die)
        self.sessions = Sessions(lambda: Board(games, port, desks), 1 if port else limit,
                                 idle_s, worker)

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
        the page plays on. A long wait is said on the page meanwhile (Job)."""
        try:
            message = messages.parse(text)
            kind = message["kind"]
            if kind != "hello" and self.session is None:
                raise Invalid("say hello first")
            doing = DOING.get(f"{kind} {message.get('do')}", DOING.get(kind))
            if kind == "hello" and self.console.port:
                doing = f"Opening the board on {self.console.port}"
            async with Job(self.push, doing) if doing else contextlib.nullcontext():
                return await getattr(self, f"on_{kind}")(message)
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
            session, resumed, given_up = sessions.find(message.get("session"))
        except Full:
            self.ended = True
            return [messages.error(
                f"The board on {console.port} is played in another tab: a real board "
                "serves one tab at a time." if console.port else
                f"This console plays {sessions.limit} page{'s' * (sessions.limit > 1)} "
                "at once, and all are taken: try again when one is closed.", final=True)]
        # Taken before anything is awaited: a hello beside this one with the same
        # session finds it this page's, and tells this page when it takes it.
        old, session.page, self.session = session.page, self, session
        if given_up is not None:
            await given_up.close()
        if old is not None:
            await old.gone("This game went on in another page.")
        try:
            board = await session.call(session.opened)
        except BaseException:
            # A board that cannot be opened (no compiler, a port that fails) is said
            # once, and the session is not kept.
            if session.page is self:
                sessions.drop(session)
                session.page = None
                await session.close()
            self.session = None
            raise
        if session.page is not self:
            return []                   # another page took it meanwhile, and said so
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
        view = await session.call(chip.act, session, message, self.console.chip,
                                  self.console.die)
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
        relay.check(self.session.board.games, numbers)
        opening = None
        if message["do"] == "game":
            opening = message.get("opens", 0), message.get("place", 4)
            relay.check_opening(*opening)
        # Set up and played after this answer, its progress and moves pushed: the page's
        # other messages are answered meanwhile.
        self.match = asyncio.create_task(self._match(numbers, opening))
        return []

    async def _match(self, numbers, opening):
        """A match's task: set up, then one game from `opening` (opener, place), or
        every opening. A board that fails is said, as for any message."""
        try:
            match = await self._set_up(numbers, opening)
            await (self._every_opening(match) if opening is None else
                   self._one_game(match))
        except asyncio.CancelledError:
            raise
        except (Invalid, UserError) as error:
            await self.push(messages.error(str(error)))
        except Exception as error:      # noqa: BLE001 -- a page never ends the console
            self.console.log(f"a match failed: {type(error).__name__}: {error}")
            await self.push(messages.error(f"the match failed ({type(error).__name__})"))

    def _on(self, machine, function, *args):
        """`function(*args)` on the thread of machine `machine`'s board."""
        return self.session.beside(MATCH_BOARDS[machine], function, *args)

    async def _set_up(self, numbers, opening):
        """The match of machines `numbers`, each board opened (once a session, then
        kept), given its cartridge and, for one game, set up for its opening: the two
        boards side by side, each step said on the page while it waits."""
        session, steps = self.session, 2 + (opening is not None)
        opens = any(name not in session.extra for name in MATCH_BOARDS)
        seating = "Putting in the machines' cartridges"
        async with Job(self.push, *(("Opening the machines' boards", 1) if opens else
                                    (seating, 2)), steps) as job:
            boards = await asyncio.gather(*(self._on(m, session.another, name)
                                            for m, name in enumerate(MATCH_BOARDS)))
            if opens:
                await job.step(seating, 2, steps)
            await asyncio.gather(*(self._on(m, relay.seat, boards[m], numbers[m])
                                   for m in (0, 1)))
            match = relay.Match(boards, numbers)    # both seated: nothing asked here
            if opening is not None:
                await job.step("Setting up the opening", 3, steps)
                await self._begin(match, *opening)
        return match

    async def _begin(self, match, opener, place):
        await asyncio.gather(*(self._on(m, match.set_up, m, opener, place) for m in (0, 1)))
        return match.began(opener, place)

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
            async with Job(self.push, f"Waiting for {match.names[match.mover]} to move"):
                await self._on(match.mover, match.step)

    async def _every_opening(self, match):
        """Every opening played out, the table pushed after each game."""
        games, count = [], len(relay.OPENINGS)
        for n, (opener, place) in enumerate(relay.OPENINGS, 1):
            doing = (f"Playing opening {n} of {count}: {match.names[opener]} opens on "
                     f"{coordinate(place)}")
            async with Job(self.push, doing, n, count):
                game = await self._begin(match, opener, place)
                while not game.over:
                    await self._on(match.mover, match.step)
            games.append(game)
            await self._pushed(match, mode="openings", games=[
                g.record(match.names) for g in games], score=match.score(games),
                done=len(games) == count)

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
