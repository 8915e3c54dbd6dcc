"""The console holds a classroom: `ttt serve` in its own process with N sessions, N - 2
pages each playing whole games while one page floods the chip's clock and one reloads
in a loop; every key answered, the flood and the reloads served, and once the pages
have left, the server's memory and threads back near where they began. A short lesson
in make test, a longer one in make test-slow (boards/web/classroom.py drives both)."""

import asyncio
import sys
import time

import pytest

from boards.web.classroom import Server, Unserved, lesson

if not sys.platform.startswith("linux"):
    pytest.skip("the server's memory is read from Linux's /proc", allow_module_level=True)

KEEP_S = 1                  # the grace a page's board gets after it leaves, here
# How far the server's memory may stay above where it began once every page has left:
# what the allocator keeps of freed memory, and never a page's chip history (each flood
# clocks hundreds of thousands of edges).
LEAK_MB = 40
FREED_S = 30                # a bound on the boards' closing, not a timing


def soak(sessions, games):
    with Server(sessions=sessions, keep=KEEP_S) as server:
        asyncio.run(lesson(server.url, 1))          # the board in a box loaded once
        time.sleep(KEEP_S + 1)
        rss, threads = server.rss_mb(), server.threads()
        taught = asyncio.run(lesson(server.url, sessions - 2, games=games, flooding=True,
                                    reloading=True))
        began = time.monotonic()
        while server.threads() > threads and time.monotonic() - began < FREED_S:
            time.sleep(0.2)
        return taught, (rss, server.rss_mb()), (threads, server.threads())


def held(sessions, games):
    taught, (rss, rss_after), (threads, threads_after) = soak(sessions, games)
    steps, reloads = taught["aside"]
    assert len(taught["moves"]) >= (sessions - 2) * games * 3     # 3 keys at least a game
    assert steps >= 1 and reloads >= 1
    assert threads_after <= threads, (threads, threads_after)
    assert rss_after < rss + LEAK_MB, (rss, rss_after)


def test_a_short_lesson_holds_and_leaves_nothing_behind():
    held(sessions=3, games=1)


@pytest.mark.slow
def test_a_long_lesson_holds_and_leaves_nothing_behind():
    held(sessions=8, games=6)


def test_a_server_that_does_not_start_is_said_with_its_last_lines():
    # make benchmark reports it as missing, in one line, rather than a traceback.
    with pytest.raises(Unserved, match=r"ttt serve did not start: .*nosuchgame"):
        with Server(games="nosuchgame"):
            pass
