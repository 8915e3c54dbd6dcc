"""The console in the page's Worker (boards/web/static/worker.js): the same `Console` as
`make serve`'s server (boards/web/console.py), one page, its boards desks compiled to
WebAssembly and clocked in the Worker (boards/site/wasm.py), each board's calls made
there and then, as a Worker has no threads. The Worker hands each message in as its
JSON text and posts back what comes out, answers and what is pushed alike."""

from boards.box.stream import DeskStream
from boards.web.console import Console
from boards.web.sessions import Inline

from . import wasm
from .die import die

__all__ = ["Transport"]


class Transport:
    """The page's console: `post(text)` sends the page a message."""

    def __init__(self, games, post):
        self.post = post
        self.console = Console(tuple(games), limit=1, worker=Inline, log=print,
                               desks=lambda game: DeskStream(wasm.Desk(game)),
                               chip=wasm.chip, die=die)
        self.page = self.console.page(self._push, self._end)

    async def _push(self, text):
        self.post(text)

    async def _end(self):
        pass                # the page's Worker ends with the page

    async def handle(self, text):
        for answer in await self.page.handle(text):
            self.post(answer)
