"""How long a person waits on the page: from a key's click to the frame that shows the
machine's answer on the LEDs, measured in a real browser (Chromium, driven by
Playwright), beside the time the board alone takes to answer the same frame.

`make benchmark` reports it (ttt passes the figures to the benchmark, which imports
nothing of the console), and the browser tests measure it the same way. The game
played opens with B3, the chip's slowest answer (15 007 clocks, docs/verification.md),
then takes the first empty place until the game is over.
"""

import asyncio
import shutil
import statistics
import threading
import time

from sim import catalogue
from sim.watch.watch import WORST

from . import words

__all__ = ["find_chromium", "Missing", "Served", "KEY_NAMES", "play_by_clicks", "click_to_led",
           "WORST", "CHIP_CYCLE", "TIMED_CLICK", "UNTIL", "LET_GO", "chip_panel", "cycle_is",
           "chip_step_ms", "chip_worst_run_ms", "in_browser", "DIE", "die_shown", "die_at",
           "die_step_ms"]

KEY_NAMES = words.board()["places"]     # the keys by name, as the page names them
# Chromium by the names a shell finds it on PATH (Debian's /usr/bin/chromium, a script
# that starts the browser, which Playwright drives as well): a machine whose PATH has
# none is a machine without it, as for a user.
CHROMIUM = ("chromium", "chromium-browser")
WAIT_MS = 60_000            # a bound on a page's answer, not a timing


class Missing(Exception):
    """Chromium or Playwright is not installed: its text says which, and how to get it."""


def find_chromium():
    """The path of this machine's Chromium, or Missing."""
    for name in CHROMIUM:
        found = shutil.which(name)
        if found:
            return found
    raise Missing("Chromium is not installed (Debian: apt-get install chromium)")


def playwright():
    """Playwright's synchronous API, or Missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise Missing("Playwright is not installed (it comes with the project's test "
                      "tools: pip install -e '.[test]')") from None
    return sync_playwright


class Served:
    """The server of `ttt serve` for `games`, on a free port of this machine, in a
    thread of its own: ``with Served(games) as url``."""

    def __init__(self, games=(catalogue.CHIP.name,), **options):
        from .console import Console
        from .server import compile_box
        compile_box(games, log=None)        # now, not when the first page asks
        self.console = Console(tuple(games), log=self._said, **options)
        self.said = []
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="served page",
                                        daemon=True)
        self.url = self.error = None

    def _said(self, line):
        self.said.append(line)

    def __enter__(self):
        self._thread.start()
        self._ready.wait()
        if self.error:
            raise self.error
        return self.url

    def __exit__(self, *exc):
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join()

    def _serve(self):
        asyncio.run(self._run())

    async def _run(self):
        from .server import start, stop
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        try:
            runner, self.url = await start(self.console)
        except Exception as error:     # said to the thread that waits for the address
            self.error = error
            self._ready.set()
            return
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await stop(self.console, runner)


def answered(page, count):
    """Wait until the page has shown the answers to `count` actions."""
    page.wait_for_function("n => window.ttt.timings.done.length >= n", arg=count,
                           timeout=WAIT_MS)


def leds(page):
    """What each key shows, read as a screen reader reads it: the buttons named A1 to
    C3 and their descriptions (``empty``, ``chip``, ``you``, ...), in place order."""
    return page.evaluate("""() => [...document.querySelectorAll('#view button.key')]
        .map((key) => document.getElementById(key.getAttribute('aria-describedby'))
                              .textContent)""")


def over(page):
    return page.get_by_role("status").filter(has_text="Game over").count() > 0


def play_by_clicks(page, first=WORST):
    """Play one game against the machine on `page` by clicking keys: `first`, then the
    first empty place each move, reading the LEDs after each answer. The page's timings
    of the game's moves."""
    before = page.evaluate("window.ttt.timings.done.length")
    done, place = before, first
    while True:
        page.get_by_role("button", name=KEY_NAMES[place], exact=True).click()
        done += 1
        answered(page, done)
        shown = leds(page)
        if over(page) or "empty" not in shown:
            break
        place = shown.index("empty")
    return page.evaluate("window.ttt.timings.done")[before:]


def box_alone(repeats=5):
    """The board in a box's own answer to B3 from the empty board, in ms: a frame over
    its pseudo-terminal and the status line back, as a terminal client times it. The
    median over `repeats` fresh boxes."""
    from boards.box.box import Box

    from ..host import protocol
    from ..host.link import Link, open_box
    times = []
    for _ in range(repeats):
        with Box((catalogue.CHIP.name,)) as box, open_box(box) as stream:
            link = Link(stream)
            link.command(protocol.STATUS, again=True)
            began = time.perf_counter()
            link.command(protocol.key(WORST))
            times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


# -- the chip's insides (static/chip.js) ------------------------------------------------

# Clicks a button of the chip's panel and waits, in the page, until it shows `shows`
# (its `cycle`, or any other cycle than before; and `nodes` boxes of the tree, if given)
# and a frame is drawn after it: the time a person waits, without the driver's round
# trips. Plain data, not code: the page's policy evaluates no text as script.
TIMED_CLICK = """async ([label, shows]) => {
    const button = [...document.querySelectorAll('#chip button')]
        .find((b) => b.getAttribute('aria-label') === label);
    const cycle = () => document.querySelector('#chip output[aria-label=cycle]')?.value;
    const before = cycle();
    const holds = () => (shows.cycle === undefined ? cycle() !== before
                                                  : cycle() === shows.cycle) &&
        (shows.nodes === undefined ||
         document.querySelectorAll('#chip svg.tree rect').length === shows.nodes);
    const began = performance.now();
    button.click();
    while (!holds()) await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - began;
}"""
# The cycle the chip's panel shows ("15 of 6499"), read in the page.
CHIP_CYCLE = "document.querySelector('#chip output[aria-label=cycle]')?.value"
# Two of its buttons by their accessible names (static/chip.js).
UNTIL, LET_GO = "run until it waits", "let go of every key"


def chip_panel(page):
    """Open the chip's insides on `page` and wait for its first frame."""
    page.get_by_role("button", name="The chip's insides").click()
    cycle_is(page, "0 of 0")


def cycle_is(page, text, timeout=WAIT_MS):
    """Wait until the chip's panel on `page` shows cycle `text` ("15 of 6499")."""
    page.wait_for_function(f"t => {CHIP_CYCLE} === t", arg=text, timeout=timeout)


def chip_step_ms(page, steps=20):
    """The time from a click on Step to the next cycle on the page, `steps` times (the
    panel open, the chip anywhere): each, in ms."""
    times = []
    for _ in range(steps):
        times.append(page.evaluate(TIMED_CLICK, ["step one edge", {}]))
    return times


# Clicks Step with the die shown (static/die.js) and waits, in the page, until the die's
# canvas shows another cycle and a frame is drawn after it.
TIMED_DIE_STEP = """async () => {
    const canvas = document.querySelector('#chip canvas.diecanvas');
    const step = [...document.querySelectorAll('#chip button')]
        .find((b) => b.getAttribute('aria-label') === 'step one edge');
    const before = canvas.dataset.cycle;
    const began = performance.now();
    step.click();
    while (canvas.dataset.cycle === before) await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - began;
}"""
DIE = "show the die, lit as the chip steps"     # the die's button (static/chip.js)
# The cycle the die's canvas shows, and whether it is still catching up.
DIE_CYCLE = "document.querySelector('#chip canvas.diecanvas')?.dataset.cycle"
DIE_BEHIND = "document.querySelector('#chip .diestatus')?.textContent.includes('catching')"


def die_shown(page, timeout=WAIT_MS):
    """Show the die on `page`'s open panel and wait until it is drawn at the chip's
    cycle (the first time, its layout read: a minute where qflow lays it out)."""
    page.get_by_role("button", name=DIE).click()
    die_at(page, page.evaluate(CHIP_CYCLE).split(" ")[0], timeout)


def die_at(page, cycle, timeout=WAIT_MS):
    """Wait until the die on `page` is drawn at `cycle` (a string), caught up."""
    page.wait_for_function(f"c => {DIE_CYCLE} === c && !{DIE_BEHIND}", arg=cycle,
                           timeout=timeout)


def die_step_ms(page, steps=20):
    """The time from a click on Step to the die drawn at the next cycle, `steps` times
    (the die shown): each, in ms."""
    return [page.evaluate(TIMED_DIE_STEP) for _ in range(steps)]


def chip_worst_run_ms(page):
    """A fresh chip on the open panel: reset, B3 held for the user's move, then the
    time from a click on 'Until it waits' to the whole search shown, its tree
    drawn with every node (15,007 clocks), in ms."""
    from firmware_ref.eth import alg
    board = [0] * 9
    board[WORST] = alg.HUMAN
    nodes = alg.move(board).nodes
    step = page.get_by_role("button", name="step one edge")
    page.get_by_role("button", name="a new chip from power-up").click()
    cycle_is(page, "0 of 0")
    step.click()
    cycle_is(page, "1 of 1")
    page.locator("#chip-resetN").check()
    page.get_by_role("button", name=f"hold key {KEY_NAMES[WORST]}").click()
    step.click()
    cycle_is(page, "2 of 2")
    step.click()
    cycle_is(page, "3 of 3")
    page.get_by_role("button", name=LET_GO).click()
    return page.evaluate(TIMED_CLICK, [UNTIL, {"cycle": "15010 of 15010", "nodes": nodes}])


def click_to_led(games=3, die=None):
    """The figures `make benchmark` reports: `games` games against the chip by clicks,
    each opening with the worst move, in Chromium on this machine, through make serve's
    server (with `die`, the die's description, its steps too). Missing without Chromium
    or Playwright."""
    with Served(die=die) as url:
        figures = in_browser(url, games, die=die is not None)
    return {**figures, "box_alone_worst_move_ms": box_alone()}


def in_browser(url, games=3, die=False):
    """The console's page at `url` (make serve's, or the static site's) timed in
    Chromium: `games` games against the chip by clicks, each opening with the worst
    move, and the chip's insides stepped and run through B3's search."""
    chromium, sync_playwright = find_chromium(), playwright()
    moves, worst, board_ms = [], [], []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium)
        try:
            for _ in range(games):
                page = browser.new_page()
                page.goto(url)
                timed = play_by_clicks(page)
                worst.append(timed[0]["ms"])
                board_ms += [t["board_ms"] for t in timed]
                moves += [t["ms"] for t in timed]
                page.close()
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(url)
            chip_panel(page)
            runs = [chip_worst_run_ms(page) for _ in range(3)]
            steps = chip_step_ms(page)
            if die:
                die_shown(page, timeout=120_000)
                die_steps = die_step_ms(page)
            page.close()
        finally:
            browser.close()
    return {"games": games, "moves": len(moves), "median_ms": statistics.median(moves),
            "worst_ms": max(moves), "board_median_ms": statistics.median(board_ms),
            "worst_move_ms": statistics.median(worst),
            "chip_step_median_ms": statistics.median(steps), "chip_steps": len(steps),
            "chip_step_worst_ms": max(steps),
            "chip_worst_run_median_ms": statistics.median(runs), "chip_runs": len(runs),
            **({"die_step_median_ms": statistics.median(die_steps), "die_steps": len(die_steps),
                "die_step_worst_ms": max(die_steps)} if die else {}),
            "browser": "Chromium " + browser.version}
