"""`ttt serve`: the console in a browser. An HTTP server on this machine serves the page
(boards/web/static/) and talks to it over one WebSocket per page, in the messages of
messages.py; behind each page is a board of its own (board.py), a board in a box unless
a real board's serial port is given.

The server answers only what it serves: the page and its files by name, nothing outside
the package's folder; a WebSocket only from its own page (a page of another site that
tries one is refused: it could otherwise play the board, or a real board, from the
visitor's browser); and only under the names this machine is reached by, so a name that
some other site points here is refused too. A page's message that is too long, not
JSON or of an unknown kind is answered with an error, and nothing a page sends stops
the server.
"""

import asyncio
import errno
import ipaddress
import logging
import os
import re
import sys
import time
import webbrowser
from pathlib import Path

from aiohttp import WSCloseCode, WSMsgType, web

from firmware_ref.cli import UserError

from . import chip, messages, relay
from .board import Board, describe
from .messages import Invalid
from .sessions import Full, Sessions

__all__ = ["serve", "start", "stop", "Console", "application", "STATIC", "LOOPBACK"]

STATIC = Path(__file__).with_name("static")
# The chip's blocks and wires, drawn once for the docs and the page's view of its insides.
FIGURE = Path(__file__).parents[2] / "docs" / "chip.svg"
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
         ".svg": "image/svg+xml"}
FILE_NAME = re.compile(r"^[a-z][a-z0-9_-]*\.(html|js|css|svg)$")
LOOPBACK = "127.0.0.1"
# A frame longer than this ends the page's connection (aiohttp closes it, code 1009);
# a shorter one over messages.LIMIT is answered with an error.
FRAME_LIMIT = 64 * 1024
IDLE_S = 600                # a session outlives its page by ten minutes
SESSIONS = 4                # pages played at once: a board in a box each
SWEEP_S = 10                # how often sessions are looked at for their age
SHUTDOWN_S = 2              # what a request still being answered gets at Ctrl-C
PAUSE_S = 0.6               # between two moves of a match shown move by move
HEADERS = {
    # The page loads only its own files and talks only to its own server.
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


CONSOLE = web.AppKey("console", object)


def _files():
    """The files the page is made of, by name: only these are served."""
    return {FIGURE.name: FIGURE} | {path.name: path for path in STATIC.iterdir()
                                    if path.is_file() and FILE_NAME.match(path.name)}


class Console:
    """What the server keeps: the boards' games, the sessions, the names it answers."""

    def __init__(self, games, port=None, limit=SESSIONS, idle_s=IDLE_S, log=print,
                 pause_s=PAUSE_S):
        self.games, self.port, self.log, self.pause_s = games, port, log, pause_s
        self.sessions = Sessions(lambda: Board(games, port), 1 if port else limit, idle_s)
        self.hosts = None           # the Host headers that name this server; None: any
        self.files = _files()
        self.sockets = set()        # the pages' open WebSockets


def _host_allowed(console, request):
    return console.hosts is None or request.host in console.hosts


def _origin_allowed(request):
    # A browser sends its page's origin with every WebSocket; only this server's own
    # page may open one.
    return request.headers.get("Origin") == f"http://{request.host}"


async def _page(request):
    return await _file(request, "index.html")


async def _static(request):
    return await _file(request, request.match_info["name"])


async def _file(request, name):
    console = request.app[CONSOLE]
    if not _host_allowed(console, request):
        return web.Response(status=421, text="this server does not answer to that name\n")
    path = console.files.get(name)
    if path is None:
        return web.Response(status=404, text="no such file\n")
    return web.Response(body=path.read_bytes(), content_type=TYPES[path.suffix],
                        charset="utf-8", headers=HEADERS)


async def _socket(request):
    console = request.app[CONSOLE]
    if not _host_allowed(console, request) or not _origin_allowed(request):
        return web.Response(status=403, text="only this server's own page may connect\n")
    socket = web.WebSocketResponse(max_msg_size=FRAME_LIMIT, heartbeat=30)
    await socket.prepare(request)
    page = Page(console, socket)
    console.sockets.add(socket)
    try:
        async for frame in socket:
            if frame.type == WSMsgType.TEXT:
                await page.received(frame.data)
            elif frame.type == WSMsgType.BINARY:
                await page.send(messages.error("messages are text: JSON objects"))
    finally:
        console.sockets.discard(socket)
        page.left()
    return socket


class Page:
    """One connected page: its socket and, once it said hello, its session."""

    def __init__(self, console, socket):
        self.console, self.socket = console, socket
        self.session = None
        self.match = None           # the task of the match being played, if any

    async def send(self, text):
        if not self.socket.closed:
            try:
                await self.socket.send_str(text)
            except ConnectionError:
                pass                # the page went as it was answered

    async def received(self, text):
        try:
            message = messages.parse(text)
            if message["kind"] != "hello" and self.session is None:
                raise Invalid("say hello first")
            await getattr(self, f"on_{message['kind']}")(message)
        except Invalid as error:
            await self.send(messages.error(str(error)))
        except UserError as error:      # the board failed: said, and the page goes on
            await self.send(messages.error(str(error)))
        except Exception as error:      # noqa: BLE001 -- a page never ends the server
            self.console.log(f"a page's message failed: {type(error).__name__}: {error}")
            await self.send(messages.error("the server could not do that "
                                           f"({type(error).__name__})"))

    async def on_hello(self, message):
        if self.session is not None:
            raise Invalid("hello comes once")
        sessions = self.console.sessions
        try:
            session, resumed = sessions.find(message.get("session"))
        except Full:
            text = (f"The board on {self.console.port} is played in another tab: a real "
                    "board serves one tab at a time." if self.console.port else
                    f"This console plays {sessions.limit} page{'s' * (sessions.limit > 1)} "
                    "at once, and all are taken: try again when one is closed.")
            await self.send(messages.error(text, final=True))
            await self.socket.close()
            return
        if session.socket is not None and session.socket is not self.socket:
            old = session.socket
            session.socket = None
            await _quietly(old.send_str(messages.error(
                "This game went on in another page.", final=True)))
            await _quietly(old.close())
        session.socket, self.session = self.socket, session
        try:
            board = await session.call(session.opened)
        except BaseException:
            # A board that cannot be opened (no compiler, a port that fails) is said
            # once, and the session is not kept.
            sessions.drop(session)
            self.session = session.socket = None
            await asyncio.get_running_loop().run_in_executor(None, session.close)
            raise
        await self.send(messages.encode(
            "welcome", session=session.token, resumed=resumed,
            games=describe(board.games), port=self.console.port))
        await self.send(messages.encode("state", **await session.call(board.state)))

    async def on_act(self, message):
        board = self.session.board
        began = time.perf_counter()
        state = await self.session.call(board.act, message)
        await self.send(messages.encode(
            "state", answers=message.get("id"),
            board_ms=round((time.perf_counter() - began) * 1000, 2), **state))

    async def on_game(self, message):
        board = self.session.board
        state = await self.session.call(board.play, message["number"])
        await self.send(messages.encode("state", **state))

    async def on_chip(self, message):
        session = self.session
        began = time.perf_counter()
        view = await session.call(chip.act, session, message)
        await self.send(messages.encode(
            "chip", server_ms=round((time.perf_counter() - began) * 1000, 2), **view))

    async def on_match(self, message):
        if self.match is not None:
            self.match.cancel()
            self.match = None
        if message["do"] == "stop":
            return
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
        self.match = asyncio.create_task(self._reported(playing))

    async def _reported(self, playing):
        """A match's task: a board that fails is said, as for any message."""
        try:
            await playing
        except asyncio.CancelledError:
            raise
        except (Invalid, UserError) as error:
            await self.send(messages.error(str(error)))
        except Exception as error:      # noqa: BLE001 -- a page never ends the server
            self.console.log(f"a match failed: {type(error).__name__}: {error}")
            await self.send(messages.error(f"the match failed ({type(error).__name__})"))

    def _sent(self, match, **fields):
        return self.send(messages.encode("match", names=match.names, titles=match.titles,
                                         **fields))

    async def _one_game(self, match):
        """One game, each move shown as it is made, a pause after each."""
        game = match.game
        while True:
            await self._sent(match, mode="game", game=game.record(match.names),
                             done=game.over)
            if game.over:
                return
            await asyncio.sleep(self.console.pause_s)
            await self.session.call(match.step)

    async def _every_opening(self, match):
        """Every opening played out, the table sent after each game."""
        games = []
        for opener, place in relay.OPENINGS:
            def played(opener=opener, place=place):
                match.begin(opener, place)
                while match.step() is not None:
                    pass
                return match.game
            games.append(await self.session.call(played))
            await self._sent(match, mode="openings", games=[
                g.record(match.names) for g in games], score=match.score(games),
                done=len(games) == len(relay.OPENINGS))

    def left(self):
        if self.match is not None:
            self.match.cancel()
        session = self.session
        if session is not None and session.socket is self.socket:
            session.socket = None
            session.left = time.monotonic()


async def _quietly(awaitable):
    try:
        await awaitable
    except (ConnectionError, RuntimeError):
        pass


async def _sweep(app):
    """Close the boards of sessions whose page left long ago."""
    console = app[CONSOLE]
    while True:
        await asyncio.sleep(max(0.05, min(SWEEP_S, console.sessions.idle_s / 2)))
        for session in console.sessions.stale():
            await asyncio.get_running_loop().run_in_executor(None, session.close)


def application(console):
    app = web.Application(client_max_size=FRAME_LIMIT)
    app[CONSOLE] = console
    app.router.add_get("/", _page)
    app.router.add_get("/ws", _socket)
    app.router.add_get("/static/{name}", _static)

    async def sweeping(app):
        task = asyncio.create_task(_sweep(app))
        yield
        task.cancel()
    app.cleanup_ctx.append(sweeping)
    return app


def is_loopback(host):
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(games, *, host=LOOPBACK, http_port=0, port=None, sessions=SESSIONS,
          idle_s=IDLE_S, browser=True, log=print):
    """Serve the console until Ctrl-C (KeyboardInterrupt): the board in a box holding
    `games` for each page, or the board on serial port `port`. `browser`: open the page
    in this machine's browser, where it has one."""
    if not is_loopback(host):
        log(f"warning: --host {host}: any machine that reaches this one may play the "
            "console, and the server has no password")
    if port is None:
        compile_box(games, log)
    else:
        # Said now, in one line, rather than to the first page that connects.
        from ..host.link import open_port
        open_port(port).close()
    console = Console(games, port, sessions, idle_s, log)
    asyncio.run(_run(console, host, http_port, browser))


def compile_box(games, log):
    """Build the board in a box now, once, rather than when the first page asks."""
    from sim.backends.compiled import BackendMissing, library

    from boards.box.box import design
    try:
        library(design(tuple(games)), log=log)
    except BackendMissing as error:
        raise UserError(f"the board in a box cannot be compiled: {error}") from None


class _OneLine(logging.Handler):
    """What aiohttp itself says (a malformed request, refused with 400) as one line to
    whoever runs the server, never a traceback."""

    def __init__(self, log):
        super().__init__(logging.WARNING)
        self.said = log

    def emit(self, record):
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            first = next((line.strip() for line in str(error).splitlines() if line.strip()),
                         "")
            text += f": {type(error).__name__}{f' ({first})' if first else ''}"
        self.said(text)


AIOHTTP = logging.getLogger("aiohttp")


async def start(console, host=LOOPBACK, http_port=0):
    """The server started for `console`: its runner (``stop`` stops it) and its
    address."""
    console.handler = _OneLine(console.log)
    # With a handler of its own, Python's last resort (a traceback on stderr) is not used.
    AIOHTTP.addHandler(console.handler)
    runner = web.AppRunner(application(console), handle_signals=False, access_log=None,
                           shutdown_timeout=SHUTDOWN_S)
    await runner.setup()
    site = web.TCPSite(runner, host, http_port)
    try:
        await site.start()
    except OSError as error:
        await runner.cleanup()
        AIOHTTP.removeHandler(console.handler)
        raise UserError(_bind_failed(host, http_port, error)) from None
    bound = runner.addresses[0][1]
    shown = f"[{host}]" if ":" in host else host
    if is_loopback(host):
        console.hosts = {f"{name}:{bound}" for name in
                         ("localhost", LOOPBACK, "[::1]", shown)}
    return runner, f"http://{shown}:{bound}/"


async def stop(console, runner):
    """Stop serving, then close every session's boards. The pages are told, and their
    sockets closed first: a page would otherwise hold the server open."""
    for socket in list(console.sockets):
        await _quietly(socket.close(code=WSCloseCode.GOING_AWAY,
                                    message=b"the console stopped"))
    await runner.cleanup()
    AIOHTTP.removeHandler(console.handler)
    for session in console.sessions.all():
        await asyncio.get_running_loop().run_in_executor(None, session.close)


async def _run(console, host, http_port, browser):
    runner, url = await start(console, host, http_port)
    try:
        what = (f"the board on {console.port}" if console.port else
                f"a board in a box for each page, holding {', '.join(console.games)}")
        console.log(f"The console is at {url} ({what}); Ctrl-C stops it.")
        sys.stdout.flush()
        if browser and has_a_display():
            # The browser is another program: this only asks the desktop to start it.
            await asyncio.get_running_loop().run_in_executor(None, webbrowser.open, url)
        await asyncio.Event().wait()
    finally:
        await stop(console, runner)


def has_a_display():
    """Whether a browser opened here would be seen: a desktop session (on Linux and the
    BSDs a display server; elsewhere there always is one). Without one, Python's
    webbrowser would start a text browser in this terminal, over the server's lines."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _bind_failed(host, http_port, error):
    if error.errno == errno.EADDRINUSE:
        return (f"port {http_port} of {host} is in use: --http-port N serves on another "
                "(0: any free one)")
    if error.errno == errno.EACCES:
        return f"port {http_port} needs root here: --http-port N serves on another"
    return f"cannot serve on {host} port {http_port}: {error.strerror or error}"
