"""A page that clocks its chip shares the server's time with the others: while one page
floods its chip's clock with steps of the most edges a message may clock, its session
already long, another page's key, answered by its board in a box, waits at most MORE_MS
longer than on an idle server. Through the console's messages (boards/web/console.py),
each session calling its boards on a thread of its own, as under `make serve`
(boards/web/sessions.py's `Threaded`).

Python's collector runs on its own as objects pile up, and stops every thread while it
looks at each object: one of the keys meets a full collection, as a key on a long-lived
server does now and then. A chip that kept every frame as objects made it long."""

import asyncio
import gc
import json
import statistics
import threading
import time

from boards.web.console import Console
from sim.backends.watch import LIMIT

LONG = 200_000          # the flooding page's session before the keys, as the audit's
KEYS = 12               # keys timed idle, then as many while the chip is flooded
# What the flood and the collection may add to the slowest key: generous, for a loaded
# machine of two cores (a key takes 15 to 60 ms idle, a full collection of the server's
# own objects some 50 to 100 ms). With each edge clocked in Python and every frame kept
# as objects, the collection alone took 250 ms, and the key some 340.
MORE_MS = 200


async def _said(page, **message):
    return [json.loads(text) for text in await page.handle(json.dumps(message))]


async def _chip(page, do, **fields):
    [answer] = await _said(page, kind="chip", do=do, **fields)
    return answer


async def _key_ms(page, meanwhile=None):
    """A new game, then B2's answer from the board in a box, timed (ms); with
    `meanwhile` (a thread) started as the key is sent."""
    await _said(page, kind="act", do="new")
    began = time.perf_counter()
    if meanwhile is not None:
        meanwhile.start()
    [answer] = await _said(page, kind="act", do="key", place=4)
    assert answer["kind"] == "state" and answer["board"][4] == 2, answer
    return (time.perf_counter() - began) * 1000


async def _nothing(*_):
    pass


def _timed(function):
    began = time.perf_counter()
    function()
    return (time.perf_counter() - began) * 1000


def test_another_pages_key_waits_little_while_a_page_floods_its_chip():
    async def scenario():
        console = Console(("eth",), log=print)
        pages = [console.page(_nothing, _nothing) for _ in range(2)]
        flooding, playing = pages
        try:
            for page in pages:
                await _said(page, kind="hello")
            await _chip(flooding, "open")
            await _chip(flooding, "step")
            await _chip(flooding, "pin", pin="resetN", value=1)
            while (await _chip(flooding, "step", edges=LIMIT))["head"] < LONG:
                pass
            idle = [await _key_ms(playing) for _ in range(KEYS)]
            stop, steps = asyncio.Event(), []

            async def flood():
                while not stop.is_set():
                    began = time.perf_counter()
                    answer = await _chip(flooding, "step", edges=LIMIT)
                    if answer["kind"] == "error":       # the session is full: anew
                        await _chip(flooding, "new")
                    steps.append((time.perf_counter() - began) * 1000)
            clock = asyncio.create_task(flood())
            await asyncio.sleep(0.2)            # the flood under way
            busy = [await _key_ms(playing) for _ in range(KEYS - 1)]
            collected = []
            collecting = threading.Thread(
                target=lambda: collected.append(_timed(gc.collect)))
            busy.append(await _key_ms(playing, collecting))
            collecting.join()
            stop.set()
            await clock
            print(f"a key: idle median {statistics.median(idle):.0f} ms, worst "
                  f"{max(idle):.0f}; beside the flood median {statistics.median(busy):.0f} "
                  f"ms, worst {max(busy):.0f}; {len(steps)} steps of {LIMIT} edges, "
                  f"median {statistics.median(steps):.0f} ms; a full collection "
                  f"{collected[0]:.0f} ms")
            assert max(busy) < max(idle) + MORE_MS
        finally:
            for page in pages:
                page.left()
            await console.close()
    asyncio.run(scenario())
