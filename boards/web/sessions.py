"""The pages the console plays, each a session with a board of its own.

A page says ``hello`` with the session it had (the page keeps it for as long as the
browser's tab lives), so a page reloaded, or one whose connection dropped, finds its
board as it left it. A session whose page is gone is kept for `idle_s` seconds, then
its board is closed. At most `limit` sessions are open at once: each is a board in a
box, some megabytes, and a real board (``--port``) is one.

A board answers frames one after another and blocks while it does. Each session's
calls to its boards go through its worker, one at a time and in the order asked:
`Threaded`, a thread of the session's own, where a server's event loop must never wait
for a board; `Inline`, the call made there and then, where there are no threads (a page
that plays its board itself).
"""

import asyncio
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

__all__ = ["Session", "Sessions", "Full", "Threaded", "Inline"]


class Full(Exception):
    """Every session is taken."""


class Threaded:
    """A session's calls on a thread of its own, beside the event loop."""

    def __init__(self):
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="page session")

    async def run(self, function, *args):
        return await asyncio.get_running_loop().run_in_executor(self._thread, function,
                                                                *args)

    async def finish(self, function):
        """`function()` once the thread is done with every call asked of it."""
        def finished():
            self._thread.shutdown(wait=True)
            function()
        await asyncio.get_running_loop().run_in_executor(None, finished)


class Inline:
    """A session's calls made where they are asked, one at a time."""

    def __init__(self):
        self._turn = asyncio.Lock()

    async def run(self, function, *args):
        async with self._turn:
            return function(*args)

    async def finish(self, function):
        async with self._turn:
            function()


class Session:
    """One page's board (opened on first use by `open_board()`), its worker and the
    page that plays it now."""

    def __init__(self, token, open_board, worker):
        self.token = token
        self._open_board = open_board
        self.board = None
        self.extra = {}             # more boards, by name (a match's second machine)
        self.page = None
        self.left = time.monotonic()
        self._worker = worker

    async def call(self, function, *args):
        """`function(*args)` through the session's worker; its result."""
        return await self._worker.run(function, *args)

    def opened(self):
        """The session's board, opened now if it is not yet (through the worker)."""
        if self.board is None:
            self.board = self._open_board()
        return self.board

    def another(self, name):
        """Another board of the same kind, kept under `name` (through the worker)."""
        if name not in self.extra:
            self.extra[name] = self._open_board()
        return self.extra[name]

    async def close(self):
        """Close the session's boards, once its worker is done with them."""
        await self._worker.finish(self._closed)

    def _closed(self):
        for board in [self.board, *self.extra.values()]:
            if board is not None:
                board.close()
        self.board, self.extra = None, {}


class Sessions:
    """The sessions by their tokens: at most `limit`, each closed `idle_s` seconds after
    its page left; `worker()` makes each session's worker."""

    def __init__(self, open_board, limit, idle_s, worker=Threaded):
        self._open_board, self.limit, self.idle_s = open_board, limit, idle_s
        self._worker = worker
        self._by_token = {}

    def __len__(self):
        return len(self._by_token)

    def find(self, token):
        """The session `token` names, or a new one (Full when none is free)."""
        if token in self._by_token:
            return self._by_token[token], True
        if len(self._by_token) >= self.limit:
            raise Full
        session = Session(secrets.token_urlsafe(16), self._open_board, self._worker())
        self._by_token[session.token] = session
        return session, False

    def stale(self):
        """The sessions whose page left more than `idle_s` seconds ago, forgotten."""
        now = time.monotonic()
        gone = [s for s in self._by_token.values()
                if s.page is None and now - s.left > self.idle_s]
        for session in gone:
            del self._by_token[session.token]
        return gone

    def drop(self, session):
        self._by_token.pop(session.token, None)

    def all(self):
        every = list(self._by_token.values())
        self._by_token.clear()
        return every
