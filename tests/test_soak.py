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


@pytest.mark.early     # a server, a lesson and its pages' goodbyes
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


def _saying(*code):
    """A Server whose program is Python's `code` rather than ttt serve. It takes Ctrl-C
    as ttt serve does, whatever the test's process left it (a worker may ignore it)."""
    server = Server()
    server.argv = [sys.executable, "-c", "\n".join([
        "import signal",
        "signal.signal(signal.SIGINT, signal.default_int_handler)",
        "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})", *code])]
    return server


def test_a_server_that_says_much_is_heard_whole_and_never_stopped_by_its_pipe():
    # Each line is read as it comes: 200 kB said before the address, and 200 kB after
    # it, more than a pipe holds, and the server still ends when told.
    lines = ["import time",
             "for k in range(2000): print('x' * 100, flush=True)",
             "print('The console is at http://127.0.0.1:1/ (Ctrl-C ends it)', flush=True)",
             "for k in range(2000): print('y' * 100, flush=True)",
             "print('all said', flush=True)",
             "time.sleep(60)"]
    with _saying(*lines) as server:
        assert server.url == "http://127.0.0.1:1/"
        began = time.monotonic()
        while not any("all said" in line for line in server.lines):
            assert time.monotonic() - began < FREED_S, "the server's output stopped"
            time.sleep(0.05)
    assert server.process.returncode is not None


def test_a_server_that_says_nothing_is_given_up_after_the_start_limit(monkeypatch):
    monkeypatch.setattr("boards.web.classroom.START_S", 1)
    with pytest.raises(Unserved, match="ttt serve did not start: it said nothing"):
        with _saying("import time", "time.sleep(60)"):
            pass


def test_a_key_against_the_chip_is_timed_on_a_desk_of_several_games():
    # make benchmark's keys against each desk (classroom.desk_keys): the chip chosen on a
    # desk where it is not the first game, a game opened on each of the nine places, each
    # played to its end: every key of them answered and timed.
    from boards.web.classroom import desk_keys
    (desk, figures), = desk_keys(("firstfree,eth",)).items()
    assert desk == "firstfree,eth"
    assert figures["moves"] >= 9 * 3 and 0 < figures["median_ms"] <= figures["worst_ms"]
