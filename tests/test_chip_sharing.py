"""A page that clocks its chip shares the server's time with the others. Python's
collector runs on its own as objects pile up, and stops every thread while it looks at
each of them: a chip that kept every frame as objects (400,066 more after 200,000
cycles) made a full collection take 250 ms, and another page's key wait 340 ms. So a
page's session, however long, adds next to no objects for the collector (its frames are
arrays). Beside it, while one page floods its chip's clock with steps of the most edges
a message may clock, another page's key is answered by its board in a box, and the keys'
times idle and beside the flood are printed (make benchmark reports them: a timing is
a figure, not a test). Through the console's messages (boards/web/console.py), each
session calling its boards on a thread of its own, as under `make serve`."""

import asyncio
import gc
import statistics
import threading
import time

from boards.web.console import Console
from sim.watch.watch import LIMIT
from web import said

LONG = 200_000          # the flooding page's session before the keys, as the audit's
KEYS = 12               # keys timed idle, then as many while the chip is flooded
# Objects the collector tracks that a session of LONG cycles may add: its history is
# arrays, whatever its length (some 170 here).
TRACKED = 10_000


async def _chip(page, do, **fields):
    [answer] = await said(page, kind="chip", do=do, **fields)
    return answer


async def _key_ms(page, meanwhile=None):
    """A new game, then B2's answer from the board in a box, timed (ms); with
    `meanwhile` (a thread) started as the key is sent."""
    await said(page, kind="act", do="new")
    began = time.perf_counter()
    if meanwhile is not None:
        meanwhile.start()
    [answer] = await said(page, kind="act", do="key", place=4)
    assert answer["kind"] == "state" and answer["board"][4] == 2, answer
    return (time.perf_counter() - began) * 1000


async def _nothing(*_):
    pass


def _timed(function):
    began = time.perf_counter()
    function()
    return (time.perf_counter() - began) * 1000


def test_a_long_session_adds_nothing_to_collect_and_another_pages_keys_are_answered():
    async def scenario():
        console = Console(("eth",), log=print)
        pages = [console.page(_nothing, _nothing) for _ in range(2)]
        flooding, playing = pages
        try:
            for page in pages:
                await said(page, kind="hello")
            await _chip(flooding, "open")
            await _chip(flooding, "step")
            await _chip(flooding, "pin", pin="resetN", value=1)
            gc.collect()
            tracked = len(gc.get_objects())
            while (await _chip(flooding, "step", edges=LIMIT))["head"] < LONG:
                pass
            gc.collect()
            assert len(gc.get_objects()) - tracked < TRACKED
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
            assert len(busy) == len(idle) == KEYS and steps     # every key answered
        finally:
            for page in pages:
                page.left()
            await console.close()
    asyncio.run(scenario())
