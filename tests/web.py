"""What the tests of the console in a browser share: the server started in the test's
process on a free port of this machine (`served`), and a page's side of its WebSocket
(`Page`), which says hello and reads the server's messages by kind."""

import asyncio
import contextlib
import json

import aiohttp

from boards.web import server
from boards.web.console import Console

__all__ = ["served", "Page", "origin"]

WAIT_S = 120            # a bound, not a timing: a loaded machine may be slow to answer


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


def origin(url):
    return url.rstrip("/")


class Page:
    """A page's WebSocket to the server at `url`: ``async with Page(url) as page``; it
    has said hello (with `session`, if given) and holds the welcome."""

    def __init__(self, url, session=None, headers=None):
        self.url, self.session = url, session
        self.progressed = []
        self.headers = {"Origin": origin(url)} if headers is None else headers

    async def __aenter__(self):
        self.http = aiohttp.ClientSession()
        try:
            self.socket = await self.http.ws_connect(self.url + "ws", headers=self.headers,
                                                     max_msg_size=0)
        except BaseException:
            await self.http.close()
            raise
        await self.send(kind="hello", **({"session": self.session} if self.session
                                         else {}))
        self.welcome = await self.receive()
        return self

    async def __aexit__(self, *exc):
        await self.socket.close()
        await self.http.close()

    async def send(self, **message):
        await self.socket.send_str(json.dumps(message))

    async def receive(self, progress=False):
        """The next message, as a dict; None when the server closed the socket. A
        `progress` message, which a long wait may bring before its answer at any time,
        is kept in `progressed` and passed over, unless `progress`."""
        while True:
            frame = await asyncio.wait_for(self.socket.receive(), WAIT_S)
            if frame.type != aiohttp.WSMsgType.TEXT:
                return None
            message = json.loads(frame.data)
            if progress or message["kind"] != "progress":
                return message
            self.progressed.append(message)

    async def act(self, do, **fields):
        """An action; the server's answer to it."""
        await self.send(kind="act", do=do, **fields)
        return await self.receive()
