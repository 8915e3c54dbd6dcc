"""The pages the console plays, each a session with a board of its own.

A page says ``hello`` with the session it had (the page keeps it for as long as the
browser's tab lives), so a page reloaded, or one whose connection dropped, finds its
board as it left it. One page holds a session at a time. A session whose page is gone
keeps its board for `idle_s` seconds, for a reload, then its board is closed. At most
`limit` sessions are open at once (each is a board in a box, some megabytes, and a real
board, ``--port``, is one); a new page that finds them all taken takes the place of the
one whose page has been gone longest, and is refused only while every one has its page.

A board answers frames one after another and blocks while it does. Each of a session's
boards is called through a worker of its own, one call at a time and in the order asked:
`Threaded`, a thread, where a server's event loop must never wait for a board; `Inline`,
the call made there and then, where there are no threads (a page that plays its board
itself). The page's own board and a match's two answer beside each other.
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
        """`function()` on the thread once it is done with every call asked of it; then
        the thread ends (a pool's idle thread would outlive the session)."""
        try:
            await self.run(function)
        finally:
            self._thread.shutdown(wait=False)


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
    """One page's board (opened on first use by `open_board()`), its other boards, the
    workers that call them (`worker()` makes each) and the page that holds it now."""

    def __init__(self, token, open_board, worker):
        self.token = token
        self._open_board = open_board
        self.board = None
        self.extra = {}             # more boards, by name (a match's machines, the chip)
        self.page = None
        self.left = time.monotonic()
        self._worker = worker
        self._workers = {None: worker()}    # by the name of the board each calls

    async def call(self, function, *args):
        """`function(*args)` through the worker of the page's own board; its result."""
        return await self._workers[None].run(function, *args)

    async def beside(self, name, function, *args):
        """`function(*args)` through the worker of board `name` of `extra`, beside the
        page's own: the page plays on while it works."""
        if name not in self._workers:
            self._workers[name] = self._worker()
        return await self._workers[name].run(function, *args)

    def opened(self):
        """The session's board, opened now if it is not yet (through its worker)."""
        if self.board is None:
            self.board = self._open_board()
        return self.board

    def another(self, name):
        """Another board of the same kind, kept under `name` (through its worker)."""
        if name not in self.extra:
            self.extra[name] = self._open_board()
        return self.extra[name]

    async def close(self):
        """Close the session's boards, once every worker is done with them."""
        for name, worker in list(self._workers.items()):
            if name is not None:
                await worker.finish(lambda: None)
        await self._workers[None].finish(self._closed)

    def _closed(self):
        for board in [self.board, *self.extra.values()]:
            if board is not None:
                board.close()
        self.board, self.extra = None, {}


class Sessions:
    """The sessions by their tokens: at most `limit`, each closed `idle_s` seconds after
    its page left or when a new page needs its place; `worker()` makes each session's
    workers."""

    def __init__(self, open_board, limit, idle_s, worker=Threaded):
        self._open_board, self.limit, self.idle_s = open_board, limit, idle_s
        self._worker = worker
        self._by_token = {}

    def __len__(self):
        return len(self._by_token)

    def find(self, token):
        """The session `token` names, or a new one: (session, resumed, given up), given
        up the session whose page has been gone longest, forgotten to make room (its
        boards are the caller's to close), or None. Full while every session has its
        page."""
        if token in self._by_token:
            return self._by_token[token], True, None
        given_up = None
        if len(self._by_token) >= self.limit:
            gone = [s for s in self._by_token.values() if s.page is None]
            if not gone:
                raise Full
            given_up = min(gone, key=lambda s: s.left)
            del self._by_token[given_up.token]
        session = Session(secrets.token_urlsafe(16), self._open_board, self._worker)
        self._by_token[session.token] = session
        return session, False, given_up

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
