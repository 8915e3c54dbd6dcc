"""The console's messages without a transport (boards/web/console.py): a page's messages
handed in as text and the answers read back, with no socket, no HTTP and no thread (each
session's board called inline, as a page that plays its board itself would): a game,
the errors, a session taken over by another page, the limit, and a match pushed move by
move. The same messages over the WebSocket are test_web_server.py's."""

import asyncio
import json
import subprocess
import sys

import pytest

from firmware_ref.eth import alg
from desks import GAMES as SEVERAL
from web import Heard, inline, said


def test_a_game_through_the_messages_with_no_transport_and_no_thread():
    async def scenario():
        playing = inline()
        heard = Heard()
        page = playing.page(heard.push, heard.end)
        try:
            assert await said(page, kind="act", do="key", place=4) == [
                {"kind": "error", "text": "say hello first"}]
            welcome, state = await said(page, kind="hello")
            assert welcome["kind"] == "welcome" and not welcome["resumed"]
            assert welcome["games"][0]["view"] == "nine" and welcome["games"][0]["match"]
            assert welcome["words"]["places"] == [alg.coordinate(k) for k in range(9)]
            assert state["kind"] == "state" and state["board"] == [0] * 9
            [answer] = await said(page, kind="act", do="key", place=4, id=3)
            assert answer["answers"] == 3 and answer["board"] == [1, 0, 0, 0, 2, 0, 0, 0, 0]
            [wrong] = await page.handle("not json")
            assert json.loads(wrong) == {"kind": "error", "text": "a message is a JSON "
                                                                  "object"}
            [again] = await said(page, kind="hello")
            assert again["text"] == "hello comes once"
            assert heard.pushed == [] and not page.ended
        finally:
            page.left()
            await playing.close()
    asyncio.run(scenario())


def test_a_session_taken_over_is_told_and_ended_and_the_limit_ends_a_page():
    async def scenario():
        playing = inline(limit=1)
        first, second, third = Heard(), Heard(), Heard()
        one = playing.page(first.push, first.end)
        try:
            welcome, _ = await said(one, kind="hello")
            two = playing.page(second.push, second.end)
            again, state = await said(two, kind="hello", session=welcome["session"])
            assert again["resumed"] and state["kind"] == "state"
            assert first.pushed == [{"kind": "error", "final": True,
                                     "text": "This game went on in another page."}]
            assert first.ended and one.ended and not two.ended
            three = playing.page(third.push, third.end)
            [full] = await said(three, kind="hello")
            assert full["final"] and "all are taken" in full["text"] and three.ended
            assert third.pushed == [] and not third.ended    # the transport ends it
        finally:
            await playing.close()
    asyncio.run(scenario())


def test_a_match_is_pushed_move_by_move_after_its_answer():
    async def scenario():
        playing = inline(SEVERAL, pause_s=0)
        heard = Heard()
        page = playing.page(heard.push, heard.end)
        try:
            await said(page, kind="hello")
            assert await said(page, kind="match", do="game", machines=[0, 1], opens=0,
                              place=4) == []
            await asyncio.wait_for(page.match, 120)
            moves = [m for m in heard.pushed if m["kind"] == "match"]
            assert len(moves) >= 3 and moves[-1]["done"] and not moves[0]["done"]
            assert moves[-1]["game"]["result"] == "The chip won."   # first free loses
            assert [len(m["game"]["moves"]) for m in moves] == list(range(1, len(moves) + 1))
        finally:
            page.left()
            await playing.close()
    asyncio.run(scenario())


def test_the_messages_logic_imports_no_transport():
    # What a second transport (a page that plays its board itself) would load.
    code = ("import sys, boards.web.console, boards.web.words; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'aiohttp'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out == "[]\n", out


def test_a_kind_that_is_not_a_string_is_named_and_the_limit_counts_bytes():
    from boards.web import messages
    for text in ('{"kind": ["act"]}', '{"kind": {"a": 1}}', '{"kind": 3}'):
        with pytest.raises(messages.Invalid, match="^a message's kind is a string, one of "
                           "hello, act,"):
            messages.parse(text)
    padded = '{"kind": "act", "do": "key", "pad": "%s"}'
    bare = len(padded % "")
    fits = padded % ("é" * ((messages.LIMIT - bare) // 2))     # 2 bytes a letter
    assert len(fits.encode()) in (messages.LIMIT, messages.LIMIT - 1)
    assert messages.parse(fits)["do"] == "key"
    over = padded % ("é" * ((messages.LIMIT - bare) // 2 + 1))
    assert len(over) < messages.LIMIT < len(over.encode())
    with pytest.raises(messages.Invalid, match="^a message holds at most 2048 bytes"):
        messages.parse(over)
