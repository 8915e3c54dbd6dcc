"""What the tests of the console share: the server started in the test's process on a
free port of this machine (`served`), a page's side of its WebSocket (`Page`), which
says hello and reads the server's messages by kind, and without a transport a console
that calls its boards inline (`inline`), a page's messages handed to it (`said`) and
what it was told unasked (`Heard`)."""

import asyncio
import contextlib
import json

from boards.web import server
from boards.web.classroom import WAIT_S, Pupil
from boards.web.console import Console
from boards.web.sessions import Inline

__all__ = ["served", "Page", "origin", "WAIT_S", "Heard", "inline", "said"]


@contextlib.asynccontextmanager
async def served(games=("eth",), **options):
    """The server for `games` on 127.0.0.1, any free port: its Console and its address.
    Everything it opened is closed at the end."""
    said = []
    console = Console(tuple(games), log=said.append, **options)
    console.said = said
    runner, url = await server.start(console)
    try:
        yield console, url
    finally:
        await server.stop(console, runner)


class Heard:
    """What a page was told unasked, and whether its connection was ended."""

    def __init__(self):
        self.pushed, self.ended = [], False
        self._news = asyncio.Event()

    async def push(self, text):
        self.pushed.append(json.loads(text))
        self._news.set()

    async def told(self, kind, timeout_s):
        """Once a message of `kind` has been pushed (a match's first move, not its end)."""
        async def seen():
            while not any(message["kind"] == kind for message in self.pushed):
                self._news.clear()
                await self._news.wait()
        await asyncio.wait_for(seen(), timeout_s)

    async def end(self):
        self.ended = True


def inline(games=("eth",), **options):
    """A console with no transport, each session's boards called inline."""
    return Console(games, log=print, worker=Inline, **options)


async def said(page, **message):
    """What the console answers `message` from `page` (a console.py Page), as dicts."""
    return [json.loads(text) for text in await page.handle(json.dumps(message))]


def origin(url):
    return url.rstrip("/")


class Page(Pupil):
    """A page's WebSocket to the server at `url` (boards/web/classroom.py's): ``async
    with Page(url) as page``; it has said hello (with `session`, if given) and holds the
    welcome; the first state is the test's to read."""

    def __init__(self, url, session=None, headers=None):
        super().__init__(url, session, headers, state=False)
