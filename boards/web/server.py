"""`ttt serve`: the console in a browser. An HTTP server on this machine serves the page
(boards/web/static/) and carries its messages over one WebSocket per page: what they
do is console.py's, and this module is one transport around it.

The server answers only what it serves: the page and its files by name, nothing outside
the package's folder; a WebSocket only from its own page (a page of another site that
tries one is refused: it could otherwise play the board, or a real board, from the
visitor's browser); a session's waves by its folder's name, which only its page is
told (chip.py); and only under the names this machine is reached by, so a name that
some other site points here is refused too. A frame longer than FRAME_LIMIT ends its
page's connection; any other message that will not do is answered with an error
(console.py), and nothing a page sends stops the server.
"""

import asyncio
import errno
import ipaddress
import logging
import os
import re
import sys
import webbrowser
from pathlib import Path

from aiohttp import WSCloseCode, WSMsgType, web

from firmware_ref.cli import UserError

from . import chip, messages
from .console import IDLE_S, SESSIONS, Console

__all__ = ["serve", "start", "stop", "application", "STATIC", "LOOPBACK", "FRAME_LIMIT"]

STATIC = Path(__file__).with_name("static")
# The chip's blocks and wires, drawn once for the docs and the page's view of its insides.
FIGURE = Path(__file__).parents[2] / "docs" / "chip.svg"
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
         ".svg": "image/svg+xml"}
FILE_NAME = re.compile(r"^[a-z][a-z0-9_-]*\.(html|js|css|svg)$")
# A session's folder of waves: its token's first characters (secrets.token_urlsafe's).
WAVES_FOLDER = re.compile(rf"[A-Za-z0-9_-]{{{chip.FOLDER}}}")
LOOPBACK = "127.0.0.1"
NOT_OURS = "this server does not answer to that name\n"     # 421's text
# A message (its frames together) of more bytes than this ends the page's connection
# (code 1009); a shorter one over messages.LIMIT is answered with an error.
FRAME_LIMIT = 64 * 1024
TOO_BIG = f"a message holds at most {FRAME_LIMIT // 1024} KiB".encode()   # its close reason
SWEEP_S = 1                 # how often sessions are looked at for their age
# A connection that has not sent a whole request this long after it opened, or after
# its last answer, is closed: a page's own WebSocket, once open, is not.
REQUEST_S = 10
SHUTDOWN_S = 2              # what a request still being answered gets at Ctrl-C
HEADERS = {
    # The page loads only its own files and talks only to its own server.
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; "
                               "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


SERVED = web.AppKey("served", object)


def files():
    """The files the page is made of, by name: only these are served."""
    return {FIGURE.name: FIGURE} | {path.name: path for path in STATIC.iterdir()
                                    if path.is_file() and FILE_NAME.match(path.name)}


class Served:
    """What the server keeps beside the console: the names it answers to, its files,
    and the pages' open WebSockets."""

    def __init__(self, console):
        self.console = console
        self.hosts = None           # the Host headers that name this server; None: any
        self.files = files()
        self.sockets = set()
        self.handler = None         # aiohttp's lines, said to the console's log


def _host_allowed(served, request):
    return served.hosts is None or request.host in served.hosts


def _origin_allowed(request):
    # A browser sends its page's origin with every WebSocket; only this server's own
    # page may open one.
    return request.headers.get("Origin") == f"http://{request.host}"


async def _page(request):
    return await _file(request, "index.html")


async def _static(request):
    return await _file(request, request.match_info["name"])


async def _file(request, name):
    served = request.app[SERVED]
    if not _host_allowed(served, request):
        return web.Response(status=421, text=NOT_OURS)
    path = served.files.get(name)
    if path is None:
        return web.Response(status=404, text="no such file\n")
    return web.Response(body=path.read_bytes(), content_type=TYPES[path.suffix],
                        charset="utf-8", headers=HEADERS)


async def _waves(request):
    """A session's waves, streamed from its folder as a download."""
    served = request.app[SERVED]
    if not _host_allowed(served, request):
        return web.Response(status=421, text=NOT_OURS)
    folder, name = request.match_info["folder"], request.match_info["name"]
    path = chip.WAVES / folder / name
    if not WAVES_FOLDER.fullmatch(folder) or name not in chip.NAMES or not path.is_file():
        return web.Response(status=404, text="no such file\n")
    return web.FileResponse(path, headers={
        **HEADERS, "Content-Type": "text/plain; charset=utf-8",
        "Content-Disposition": f'attachment; filename="{name}"'})


async def _socket(request):
    served = request.app[SERVED]
    if not _host_allowed(served, request) or not _origin_allowed(request):
        return web.Response(status=403, text="only this server's own page may connect\n")
    # aiohttp refuses a frame of max_msg_size bytes, and lets a deflated one of as many
    # through: one more, and each is checked here as it comes.
    socket = web.WebSocketResponse(max_msg_size=FRAME_LIMIT + 1, heartbeat=30)
    await socket.prepare(request)

    async def push(text):
        if not socket.closed:
            try:
                await socket.send_str(text)
            except ConnectionError:
                pass                # the page went as it was answered

    page = served.console.page(push, lambda: _quietly(socket.close()))
    served.sockets.add(socket)
    try:
        async for frame in socket:
            if _size(frame) > FRAME_LIMIT:
                await socket.close(code=WSCloseCode.MESSAGE_TOO_BIG,
                                   message=TOO_BIG)
                break
            if frame.type == WSMsgType.TEXT:
                answers = await page.handle(frame.data)
            elif frame.type == WSMsgType.BINARY:
                answers = [messages.error("messages are text: JSON objects")]
            else:
                continue
            for text in answers:
                await push(text)
            if page.ended:
                await socket.close()
    finally:
        served.sockets.discard(socket)
        page.left()
    return socket


def _size(frame):
    """The bytes a text or binary `frame` carried (a text's are its UTF-8), else 0."""
    data = frame.data
    if frame.type == WSMsgType.TEXT:
        return len(data.encode())
    return len(data) if frame.type == WSMsgType.BINARY else 0


async def _quietly(awaitable):
    try:
        await awaitable
    except (ConnectionError, RuntimeError):
        pass


async def _sweep(app):
    """Close the boards of sessions whose page left long ago."""
    console = app[SERVED].console
    while True:
        await asyncio.sleep(max(0.05, min(SWEEP_S, console.sessions.idle_s / 4)))
        await console.sweep()


def application(console):
    """The server's routes for `console`."""
    app = web.Application(client_max_size=FRAME_LIMIT)
    app[SERVED] = Served(console)
    app.router.add_get("/", _page)
    app.router.add_get("/ws", _socket)
    app.router.add_get("/static/{name}", _static)
    app.router.add_get(chip.WAVES_ROUTE + "/{folder}/{name}", _waves)

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
          idle_s=IDLE_S, browser=True, log=print, die=None):
    """Serve the console until Ctrl-C (KeyboardInterrupt): the board in a box holding
    `games` for each page, or the board on serial port `port`. `browser`: open the page
    in this machine's browser, where it has one; `die()`: the die's description the
    chip's insides show (console.py)."""
    if not is_loopback(host):
        log(f"warning: --host {host}: any machine that reaches this one may play the "
            "console, and the server has no password")
    if port is None:
        compile_box(games, log)
    else:
        # Said now, in one line, rather than to the first page that connects.
        from ..host.link import open_port
        open_port(port).close()
    console = Console(games, port, sessions, idle_s, log, die=die)
    asyncio.run(_run(console, host, http_port, browser))


def compile_box(games, log):
    """Build the board in a box now, a desk for each game (board.py), once, rather than
    when a page first asks."""
    from sim.backends.compiled import BackendMissing, library

    from boards.box.box import design
    try:
        for game in games:
            library(design((game,)), log=log)
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
    app = application(console)
    served = app[SERVED]
    served.handler = _OneLine(console.log)
    # With a handler of its own, Python's last resort (a traceback on stderr) is not used.
    AIOHTTP.addHandler(served.handler)
    runner = web.AppRunner(app, handle_signals=False, access_log=None,
                           shutdown_timeout=SHUTDOWN_S, keepalive_timeout=REQUEST_S)
    await runner.setup()
    site = web.TCPSite(runner, host, http_port)
    try:
        await site.start()
    except OSError as error:
        await runner.cleanup()
        AIOHTTP.removeHandler(served.handler)
        raise UserError(_bind_failed(host, http_port, error)) from None
    bound = runner.addresses[0][1]
    shown = f"[{host}]" if ":" in host else host
    if is_loopback(host):
        served.hosts = {f"{name}:{bound}" for name in
                        ("localhost", LOOPBACK, "[::1]", shown)}
    return runner, f"http://{shown}:{bound}/"


async def stop(console, runner):
    """Stop serving, then close every session's boards. The pages are told, and their
    sockets closed first: a page would otherwise hold the server open."""
    served = runner.app[SERVED]
    for socket in list(served.sockets):
        await _quietly(socket.close(code=WSCloseCode.GOING_AWAY,
                                    message=b"the console stopped"))
    await runner.cleanup()
    AIOHTTP.removeHandler(served.handler)
    await console.close()


async def _run(console, host, http_port, browser):
    runner, url = await start(console, host, http_port)
    try:
        what = (f"the board on {console.port}" if console.port else
                f"a board in a box for each page, with {', '.join(console.games)}")
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
