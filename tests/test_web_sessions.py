"""The console's sessions and its long jobs without a transport (boards/web/console.py,
sessions.py): a page gone gives its board up, to a new page at once and to nobody after
its grace; a page connected never does; what the page waits for is said as progress;
and a match stopped before it began leaves nothing behind. Over the WebSocket, the same
are test_web_server.py's."""

import asyncio
import gc
import re
import warnings
from pathlib import Path

import pytest

from boards.web import console as console_module
from boards.web.console import IDLE_S, Job
from desks import GAMES as SEVERAL
from web import Heard, inline, said

DOCS = Path(__file__).resolve().parents[1] / "docs" / "web.md"


async def hello(playing, **message):
    heard = Heard()
    page = playing.page(heard.push, heard.end)
    page.heard = heard
    return page, (await said(page, kind="hello", **message))[0]


def test_a_page_gone_gives_its_board_to_a_new_page_and_a_page_connected_never():
    async def scenario():
        playing = inline(limit=2)
        try:
            first, welcome_1 = await hello(playing)
            second, welcome_2 = await hello(playing)
            first.left()
            await asyncio.sleep(0.01)
            second.left()
            # Every session taken, none by a page connected: the one gone longest goes.
            third, welcome_3 = await hello(playing)
            assert welcome_3["kind"] == "welcome", welcome_3
            again, resumed = await hello(playing, session=welcome_2["session"])
            assert resumed["kind"] == "welcome" and resumed["resumed"]
            # Both sessions now have a page: the first's token finds none to take.
            late, refused = await hello(playing, session=welcome_1["session"])
            assert refused["kind"] == "error" and refused["final"], refused
            assert "all are taken" in refused["text"] and late.ended
            assert len(playing.sessions) == 2
        finally:
            await playing.close()
    asyncio.run(scenario())


def test_a_session_whose_page_left_is_closed_after_its_grace_and_the_docs_say_how_long():
    async def scenario():
        playing = inline(idle_s=0.2)
        try:
            page, _ = await hello(playing)
            page.left()
            await playing.sweep()
            assert len(playing.sessions) == 1       # kept for a reload
            await asyncio.sleep(0.3)
            await playing.sweep()
            assert len(playing.sessions) == 0
        finally:
            await playing.close()
    asyncio.run(scenario())
    assert 10 <= IDLE_S <= 30
    sessions = DOCS.read_text().split("## Sessions", 1)[1].split("\n## ", 1)[0]
    assert f"for {IDLE_S} seconds" in " ".join(sessions.split())


def progress_then(pushed, kind):
    """The progress pushed before the first message of `kind`, checked for its form."""
    first = next(n for n, m in enumerate(pushed) if m["kind"] == kind)
    shown = [m for m in pushed[:first] if m["kind"] == "progress"]
    for message in shown:
        assert set(message) <= {"kind", "doing", "step", "steps"}, message
        assert isinstance(message["doing"], str) and "\n" not in message["doing"]
        assert ("step" in message) == ("steps" in message), message
    return shown, pushed[first:]


def test_a_match_says_what_it_is_doing_until_its_first_move(monkeypatch):
    # Every job shown at once here (on the server, once it has taken half a second).
    monkeypatch.setattr(console_module, "PROGRESS_S", 0, raising=False)

    async def scenario():
        playing = inline(SEVERAL, pause_s=0)
        try:
            page, _ = await hello(playing)
            page.heard.pushed.clear()                   # the hello's own progress
            await said(page, kind="match", do="game", machines=[0, 1], opens=0, place=4)
            await asyncio.wait_for(page.match, 120)
            shown, after = progress_then(page.heard.pushed, "match")
            assert [m["doing"] for m in shown] == [
                "Opening the machines' boards", "Putting in the machines' cartridges",
                "Setting up the opening"]
            assert [(m["step"], m["steps"]) for m in shown] == [(1, 3), (2, 3), (3, 3)]
            # Each move waited for is said, and ended by the move.
            for message, then in zip(after, after[1:] + [None]):
                if message["kind"] == "progress":
                    assert re.match(r"^Waiting for the (chip|machine) to move$",
                                    message["doing"]) and then["kind"] == "match", message
            assert after[-1]["kind"] == "match" and after[-1]["done"]
            # The boards are kept: a second match is set up without opening them again.
            page.heard.pushed.clear()
            await said(page, kind="match", do="openings", machines=[1, 0])
            await page.heard.told("match", 120)         # its first move, not all 18
            shown, _ = progress_then(page.heard.pushed, "match")
            assert "Opening" not in " ".join(m["doing"] for m in shown)
            assert shown[-1]["doing"] == "Playing opening 1 of 18: the machine opens on A1"
        finally:
            page.left()
            await playing.close()
    asyncio.run(scenario())


def test_a_wait_is_said_before_its_answer(monkeypatch):
    monkeypatch.setattr(console_module, "PROGRESS_S", 0, raising=False)

    async def scenario():
        playing = inline()
        heard = Heard()
        page = playing.page(heard.push, heard.end)
        try:
            welcome, _ = await said(page, kind="hello")
            assert welcome["kind"] == "welcome"
            assert heard.pushed == [{"kind": "progress",
                                     "doing": "Opening the board in a box"}]
        finally:
            page.left()
            await playing.close()
    asyncio.run(scenario())


@pytest.mark.filterwarnings("error")
def test_a_match_stopped_before_it_began_leaves_no_coroutine_behind():
    async def scenario():
        playing = inline(SEVERAL, pause_s=0)
        try:
            page, _ = await hello(playing)
            await said(page, kind="match", do="game", machines=[0, 1])
            assert await said(page, kind="match", do="stop") == []
            page.left()
        finally:
            await playing.close()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asyncio.run(scenario())
        gc.collect()
    assert [str(w.message) for w in caught
            if re.search("never awaited", str(w.message))] == []


def test_only_a_wait_longer_than_its_threshold_is_said_and_then_each_step(monkeypatch):
    monkeypatch.setattr(console_module, "PROGRESS_S", 0.1)
    heard = Heard()

    async def scenario():
        async with Job(heard.push, "Quick"):
            await asyncio.sleep(0)
        async with Job(heard.push, "Slow", 1, 2) as job:
            await asyncio.sleep(0.3)
            await job.step("Slower", 2, 2)
        await asyncio.sleep(0.2)                        # nothing said after its end
    asyncio.run(scenario())
    assert heard.pushed == [{"kind": "progress", "doing": "Slow", "step": 1, "steps": 2},
                            {"kind": "progress", "doing": "Slower", "step": 2, "steps": 2}]
