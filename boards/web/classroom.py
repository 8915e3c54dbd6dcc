"""A class of pages without a browser: the console under the load of a classroom.

`ttt serve` runs as its own process, as a teacher runs it, so that its memory and its
threads are its own (read from /proc). Pages are aiohttp WebSockets that say hello and
speak the page's messages (docs/web.md, "The messages"): pupils each playing whole
games against the chip, one page that floods the chip's clock, one that reloads in a
loop. `make benchmark` reports the figures (`figures`); the soak tests hold them to
bounds (tests/test_soak.py). Linux only: the server's memory is read from /proc.
"""

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import threading
import time

import aiohttp

from sim.watch.watch import LIMIT
from sim.catalogue import CHIP

from .chip import greediest

__all__ = ["Unserved", "Server", "Pupil", "play", "flood", "reload", "lesson", "figures",
           "desk_keys", "DESKS", "WAIT_S"]

WAIT_S = 120                # a bound on one answer, not a timing: a loaded machine is slow
# A pupil's pause before each key in the class's figures, as a person takes (seconds,
# drawn from a seeded generator); the soak tests press at once, to load the server most.
THINK_S = (0.5, 2.0)
START_S = 300               # the server's first start may compile the board in a box
ADDRESS = re.compile(r"The console is at (http://\S+/) ")
# The desks a key against the chip is timed on (``ttt serve --game``): the chip alone,
# every machine of the museum, and four cartridges of different kinds.
DESKS = ("eth", "museum", "eth,ktane,tactic,ultimate")


class Unserved(Exception):
    """The server did not start, or did not answer a page as the page asked."""


class Server:
    """``ttt serve --no-browser`` for the chip, in a process of its own, with `options`
    (its command line's, e.g. ``sessions=32``): ``with Server(...) as server``."""

    def __init__(self, games=CHIP.name, **options):
        argv = [sys.executable, "-m", "boards", "serve", "--no-browser", "--game", games]
        for name, value in options.items():
            argv += [f"--{name.replace('_', '-')}", str(value)]
        self.argv, self.url, self.lines = argv, None, []
        self._started = threading.Event()

    def __enter__(self):
        self.process = subprocess.Popen(self.argv, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        # A thread reads every line the server says, so that its pipe never fills and
        # stops it, and the start is waited for with a limit whether it speaks or not.
        self._heard = threading.Thread(target=self._hear, daemon=True)
        self._heard.start()
        if not self._started.wait(START_S) or self.url is None:
            said = [text.strip() for text in self.lines if text.strip()]
            self.__exit__()
            raise Unserved("ttt serve did not start: " + (said[-1] if said else
                                                           "it said nothing"))
        return self

    def _hear(self):
        for line in self.process.stdout:
            self.lines.append(line)
            found = self.url is None and ADDRESS.search(line)
            if found:
                self.url = found.group(1)
                self._started.set()
        self._started.set()             # it ended: nothing more to wait for

    def __exit__(self, *exc):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)        # Ctrl-C, as a teacher ends it
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._heard.join()
        self.process.stdout.close()

    def status(self, field):
        """A line of the server's /proc status: VmRSS and VmHWM in MB, Threads."""
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                name, _, value = line.partition(":")
                if name == field:
                    number = int(value.split()[0])
                    return number / 1024 if value.strip().endswith("kB") else number
        raise KeyError(field)

    def rss_mb(self):
        return self.status("VmRSS")

    def threads(self):
        return self.status("Threads")


class Pupil:
    """One page's WebSocket: ``async with Pupil(url) as page``; it has said hello (with
    `session`, if given) and holds the welcome and, with `state`, the first state. A
    `progress` message, which a long wait may bring before its answer, is kept in
    `progressed` and passed over. `headers`: the page's own Origin unless given."""

    def __init__(self, url, session=None, headers=None, state=True):
        self.url, self.session, self._state = url, session, state
        self.headers = {"Origin": url.rstrip("/")} if headers is None else headers
        self.progressed = []
        self.state = None

    async def __aenter__(self):
        self.http = aiohttp.ClientSession()
        try:
            self.socket = await self.http.ws_connect(self.url + "ws", headers=self.headers,
                                                     max_msg_size=0)
            await self.send(kind="hello", **({"session": self.session} if self.session
                                             else {}))
            self.welcome = await self.receive()
            if self._state and self.welcome["kind"] == "welcome":
                self.state = await self.receive()
        except BaseException:
            await self.http.close()
            raise
        return self

    async def __aexit__(self, *exc):
        await self.socket.close()
        await self.http.close()

    async def send(self, **message):
        await self.socket.send_str(json.dumps(message))

    async def receive(self, progress=False):
        """The next message (a dict), a progress message only if `progress`; None when
        the server closed the socket."""
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

    async def ask(self, **message):
        """`message` sent; its answer and the milliseconds it took."""
        began = time.perf_counter()
        await self.send(**message)
        answer = await self.receive()
        return answer, (time.perf_counter() - began) * 1000


async def play(pupil, games=1, think=None):
    """`games` whole games against the chip, each key the first empty place, after a
    pause drawn from `think` (a random.Random) if given; the time of each move, in ms."""
    times, state = [], pupil.state
    for _ in range(games):
        while not state["over"]:
            if think is not None:
                await asyncio.sleep(think.uniform(*THINK_S))
            state, ms = await pupil.ask(kind="act", do="key", place=state["board"].index(0))
            if state["kind"] != "state":
                raise Unserved(f"a key was answered {state}")
            times.append(ms)
        state, _ = await pupil.ask(kind="act", do="new")
    pupil.state = state
    return times


async def flood(pupil, stop, under_way, edges=LIMIT):
    """The chip's clock asked for `edges` at a time until `stop` is set (a new chip
    each time the session holds all it may), `under_way` set once the chip is open;
    the answers."""
    await pupil.ask(kind="chip", do="open")
    under_way.set()
    answers = 0
    while not stop.is_set():
        answer, _ = await pupil.ask(kind="chip", do="step", edges=edges)
        if answer is None:
            raise Unserved("the server closed a page that clocked its chip")
        if answer["kind"] == "error":
            await pupil.ask(kind="chip", do="new")
        answers += 1
    return answers


async def reload(url, stop, under_way):
    """A page reloaded in a loop (its session kept) until `stop` is set, `under_way`
    set after the first; how often."""
    token, times = None, 0
    while not stop.is_set():
        async with Pupil(url, token) as page:
            if page.welcome["kind"] != "welcome":
                raise Unserved(f"a reload was refused: {page.welcome}")
            token = page.welcome["session"]
        times += 1
        under_way.set()
    return times


async def lesson(url, pupils, games=1, flooding=False, reloading=False, thinking=False):
    """`pupils` pages each playing `games` games at once (`thinking`: each pausing before
    its keys as a person does), beside a page that floods the chip's clock and one that
    reloads, if asked; every move's time in ms, and how much the flood and the reloads
    did."""
    stop = asyncio.Event()
    async with contextlib.AsyncExitStack() as pages:
        players = [await pages.enter_async_context(Pupil(url)) for _ in range(pupils)]
        for player in players:
            if player.welcome["kind"] != "welcome":
                raise Unserved(f"a pupil was refused: {player.welcome}")
        aside, under_way = [], []

        def beside(job, *args):
            under_way.append(asyncio.Event())
            aside.append(asyncio.create_task(job(*args, under_way[-1])))
        if flooding:
            beside(flood, await pages.enter_async_context(Pupil(url)), stop)
        if reloading:
            beside(reload, url, stop)
        # The flood and the reloads under way before the keys, however loaded the
        # machine (a job that fails first ends the wait with its error).
        for event, job in zip(under_way, aside):
            waited = asyncio.ensure_future(event.wait())
            await asyncio.wait([waited, job], return_when=asyncio.FIRST_COMPLETED)
            waited.cancel()
            if job.done():
                job.result()
        try:
            played = await asyncio.gather(*(
                play(p, games, random.Random(n) if thinking else None)
                for n, p in enumerate(players)))
        finally:
            stop.set()
        done = await asyncio.gather(*aside)
    return {"moves": [ms for times in played for ms in times], "aside": done}


def _ms(times):
    return {"median_ms": round(statistics.median(times), 1),
            "p95_ms": round(statistics.quantiles(times, n=20, method="inclusive")[-1], 1),
            "worst_ms": round(max(times), 1), "moves": len(times)}


def figures(pupils=30, sessions=32):
    """What `make benchmark` reports of the console under load, from ``ttt serve`` on
    this machine: `pupils` pages each playing a whole game, pausing before their keys
    as people do (the server's RSS before and after) and then pressing at the same
    instant, a page's keys while another floods the chip's clock, the most RSS one
    page can add, and a key against the chip on each of the desks `DESKS`."""
    with Server(sessions=sessions, keep=1) as server:
        asyncio.run(lesson(server.url, 1))      # the board in a box loaded once
        before = server.rss_mb()
        class_ = asyncio.run(lesson(server.url, pupils, thinking=True))
        after_play = server.rss_mb()
        time.sleep(3)                   # the pages' boards let go after their grace
        after = server.rss_mb()
        # The worst case beside it: every page's key at the same instant.
        rush = asyncio.run(lesson(server.url, pupils))
        time.sleep(3)
        flooded = asyncio.run(lesson(server.url, 1, games=3, flooding=True))
    with Server(sessions=2, keep=1) as server:
        asyncio.run(lesson(server.url, 1))
        alone = server.rss_mb()
        asyncio.run(_greedy(server.url))
        greedy = server.status("VmHWM") - alone
    return {"class": {"pupils": pupils, "sessions": sessions, "think_s": THINK_S,
                      **_ms(class_["moves"]),
                      "rss_before_mb": round(before, 1), "rss_playing_mb": round(after_play, 1),
                      "rss_after_mb": round(after, 1)},
            "rush": _ms(rush["moves"]),
            "flood": {"edges": LIMIT, "steps": flooded["aside"][0],
                      **_ms(flooded["moves"])},
            "one_page_mb": round(greedy, 1), "cores": os.cpu_count(),
            "desks": desk_keys()}


def desk_keys(desks=DESKS):
    """A key against the chip on each of `desks` (``ttt serve --game``), one page alone
    pressing and waiting for each answer: a game opened on each of the nine places
    (B3's search the slowest of all), then the first empty place each move, after one
    game unmeasured. Each desk's median, p95 and worst in ms."""
    found = {}
    for desk in desks:
        with Server(desk, sessions=2, keep=1) as server:
            found[desk] = _ms(asyncio.run(_chip_keys(server.url)))
    return found


async def _chip_keys(url):
    """The chip chosen on the console at `url`, and its games of `desk_keys`."""
    async with Pupil(url) as page:
        names = [game["name"] for game in page.welcome["games"]]
        page.state, _ = await page.ask(kind="game", number=names.index(CHIP.name))
        await play(page)
        times = []
        for place in range(9):
            state, ms = await page.ask(kind="act", do="key", place=place)
            times.append(ms)
            page.state = state
            times += await play(page)
        return times


async def _greedy(url):
    """One page asking the most of the server's memory (boards/web/chip.py's
    `greediest`)."""
    async with Pupil(url) as page:
        for message in greediest():
            await page.ask(kind="chip", **message)
