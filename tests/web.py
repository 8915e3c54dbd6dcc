"""What the tests of the console in a browser share: the server started in the test's
process on a free port of this machine (`served`), and a page's side of its WebSocket
(`Page`), which says hello and reads the server's messages by kind."""

import contextlib

from boards.web import server
from boards.web.classroom import WAIT_S, Pupil
from boards.web.console import Console

__all__ = ["served", "Page", "origin", "WAIT_S"]


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


class Page(Pupil):
    """A page's WebSocket to the server at `url` (boards/web/classroom.py's): ``async
    with Page(url) as page``; it has said hello (with `session`, if given) and holds the
    welcome; the first state is the test's to read."""

    def __init__(self, url, session=None, headers=None):
        super().__init__(url, session, headers, state=False)
