"""The server of make serve without a browser: the page's files and nothing else, the
WebSocket only from its own page, every malformed message answered with an error and
the server going on, a game against the chip through the messages, sessions found again
after a reload, and the limits. The board behind each page is the real board in a box."""

import ast
import asyncio
import re
import urllib.request

import aiohttp
import pytest
import yarl
from desks import GAMES as SEVERAL
from user import ROOT, interrupted
from web import WAIT_S, Page, origin, served

from boards.web import chip, messages, server
from boards.web.console import Console
from firmware_ref import cli
from firmware_ref.eth import alg
from sim import catalogue

NO_DISPLAY = {"DISPLAY": "", "WAYLAND_DISPLAY": ""}      # no browser to open
# What make itself says when the command it ran was interrupted.
MAKE_SAID = re.compile(r"^make: \*\*\* \[Makefile:\d+: serve\] (Interrupt|Error 130)$")


def run(scenario):
    return asyncio.run(scenario)


async def get(url, **headers):
    async with aiohttp.ClientSession() as http:
        async with http.get(url, headers=headers, allow_redirects=False) as answer:
            return answer.status, await answer.read(), answer.headers


def test_the_page_and_its_files_are_served_and_nothing_else():
    async def scenario():
        async with served() as (_, url):
            status, body, headers = await get(url)
            assert status == 200 and b"<!doctype html>" in body.lower()
            assert headers["Content-Type"].startswith("text/html")
            assert "default-src 'self'" in headers["Content-Security-Policy"]
            for name in server.files():
                assert (await get(url + "static/" + name))[0] == 200, name
            # Every view the catalogue names, which the page loads by that name.
            for entry in catalogue.games():
                view = f"static/{entry.face.view}.js"
                assert (await get(url + view))[0] == 200, view
            for path in ("static/server.py", "static/../server.py", "static/%2e%2e/server.py",
                         "static/..%2fserver.py", "static/", "static/.", "../board.py",
                         "static/index.html/", "etc/passwd", "static/%2fetc%2fpasswd",
                         "boards/web/server.py"):
                assert (await get(url + path))[0] == 404, path
            # A name that some other site points at this machine is not this server's.
            assert (await get(url, Host="evil.example:80"))[0] == 421
    run(scenario())


# Playwright runs a wait's bare expression through eval() each time it polls, which
# the policy above refuses; a function it runs as it is.
WAIT_CALLS = ("wait_for_function", "expect_function")


def waits_on_expressions(source):
    """The lines of source where a wait on the page is given an expression, not a
    function."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in WAIT_CALLS and node.args):
            first = node.args[0]
            parts = first.values if isinstance(first, ast.JoinedStr) else [first]
            text = "".join(part.value for part in parts if isinstance(part, ast.Constant))
            if not re.match(r"\s*(\(?[\w, ]*\)?\s*=>|function\b|async\b)", text):
                lines.append(node.lineno)
    return lines


def test_the_waits_on_the_page_are_functions_the_policy_lets_run():
    sources = [*(ROOT / "tests").glob("*.py"), *(ROOT / "boards/web").glob("*.py")]
    assert {path.name: waits_on_expressions(path.read_text())
            for path in sources if waits_on_expressions(path.read_text())} == {}
    assert waits_on_expressions(
        'page.wait_for_function(f"document.title === {t}")\n'
        'page.wait_for_function("t => document.title === t", arg=t)\n'
        'page.wait_for_function("() => document.hidden")\n') == [1]


def test_a_sessions_waves_are_streamed_by_their_folder_and_nothing_else(tmp_path,
                                                                         monkeypatch):
    """The waves of a session under WAVES_ROUTE/<folder>/<name>: both files, whole, as
    downloads with the page's headers, whatever their size; any other name or folder,
    a way out of the folder, or another host's name, refused."""
    monkeypatch.setattr(chip, "WAVES", tmp_path / "waves")
    folder = "Ab3_-xYz0123456Q"                         # as secrets.token_urlsafe writes
    written = tmp_path / "waves" / folder
    written.mkdir(parents=True)
    texts = {"chip.vcd": b"$timescale 1 ns $end\n" * 300_000,    # 6 MB: served whole
             "chip.gtkw": b'[dumpfile] "chip.vcd"\n'}
    for name, text in texts.items():
        (written / name).write_bytes(text)
    (written / "secret.txt").write_bytes(b"not the waves")
    (tmp_path / "waves" / "chip.vcd").write_bytes(b"outside a folder")
    (tmp_path / "waves" / ("B" * 16)).mkdir()

    async def scenario():
        async with served() as (_, url):
            for name, text in texts.items():
                status, body, headers = await get(f"{url}waves/{folder}/{name}")
                assert status == 200 and body == text, name
                assert headers["Content-Disposition"] == f'attachment; filename="{name}"'
                assert headers["Content-Type"].startswith("text/plain")
                for header, value in server.HEADERS.items():
                    assert headers[header] == value, header
            for path in (f"waves/{folder}/secret.txt", f"waves/{folder}/index.html",
                         f"waves/{folder}", f"waves/{folder}/", "waves/chip.vcd",
                         f"waves/{folder[:-1]}/chip.vcd", f"waves/{folder}x/chip.vcd",
                         f"waves/{'B' * 16}/chip.vcd", f"waves/{folder}/chip.vcd/",
                         f"waves/{folder}/%2e%2e", f"waves/{folder}/..%2fchip.vcd",
                         f"waves/{folder}/..%2f..%2f..%2fwaves%2f{folder}%2fchip.vcd",
                         "waves/%2e%2e/chip.vcd", "waves/..%2f..%2fboards%2fweb/server.py",
                         f"waves/{folder}/%2e%2e%2fsecret.txt", "waves/%2fetc/passwd", f"waves/{folder}%0a/chip.vcd",
                         f"static/../waves/{folder}/secret.txt"):
                status, _, _ = await get(yarl.URL(url + path, encoded=True))
                assert status == 404, path
            assert (await get(f"{url}waves/{folder}/chip.vcd", Host="evil.example:80"))[0] \
                == 421
    run(scenario())


def test_a_websocket_from_another_origin_is_refused():
    async def scenario():
        async with served() as (_, url):
            for headers in ({"Origin": "http://evil.example"}, {},
                            {"Origin": origin(url) + ".evil.example"}):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    async with Page(url, headers=headers):
                        pass
                assert refused.value.status == 403
    run(scenario())


def test_every_malformed_message_gets_an_error_and_the_server_goes_on():
    async def scenario():
        async with served() as (console, url):
            async with Page(url) as page:
                assert page.welcome["kind"] == "welcome"
                assert (await page.receive())["kind"] == "state"
                wrong = ["x" * (messages.LIMIT + 1), "not json", "[1, 2]", '"text"',
                         '{"kind": "launch"}', '{"kind": "act"}', '{"no": "kind"}',
                         '{"kind": "act", "do": "key"}',
                         '{"kind": "act", "do": "key", "place": 9}',
                         '{"kind": "act", "do": "key", "place": true}',
                         '{"kind": "act", "do": "explode"}', '{"kind": "game", "number": 5}',
                         '{"kind": "hello"}', "[" * 100_00, '{"kind": "act", "do": "new", '
                         '"position": "XXX|...|..."}']
                for text in wrong:
                    await page.socket.send_str(text)
                    answer = await page.receive()
                    assert answer["kind"] == "error", (text, answer)
                    assert "Traceback" not in answer["text"]
                await page.socket.send_bytes(b"\x00\x01")
                assert (await page.receive())["kind"] == "error"
                # Still playing: the chip answers B2 as it always does.
                after = await page.act("key", place=4)
                assert after["board"][0] == 1
            async with Page(url) as page:          # a frame too long ends its socket only
                await page.receive()
                await page.socket.send_str("x" * (server.FRAME_LIMIT + 1))
                assert (await page.receive()) is None
            async with Page(url) as page:
                assert page.welcome["kind"] == "welcome"
            assert console.said == []               # nothing failed in the server
    run(scenario())


def test_a_message_before_hello_is_refused():
    async def scenario():
        async with served() as (_, url):
            async with aiohttp.ClientSession() as http:
                async with http.ws_connect(url + "ws", headers={"Origin": origin(url)}) as ws:
                    await ws.send_json({"kind": "act", "do": "key", "place": 4})
                    assert (await ws.receive_json())["text"] == "say hello first"
    run(scenario())


def test_a_game_against_the_chip_through_the_messages():
    async def scenario():
        async with served() as (_, url):
            async with Page(url) as page:
                games = page.welcome["games"]
                assert [g["name"] for g in games] == ["eth"] and games[0]["view"] == "nine"
                state = await page.receive()
                assert state["board"] == [0] * 9 and state["state"] == "your move"
                after = await page.act("key", place=4, id=7)
                assert after["answers"] == 7 and after["board_ms"] > 0
                assert after["said"] == ["The chip plays A1; its move took 6496 clock "
                                         "cycles."]
                assert after["board"] == [1, 0, 0, 0, 2, 0, 0, 0, 0]
                taken = await page.act("key", place=0)
                assert taken["said"] == ["A1 is taken."] and taken["board"] == after["board"]
                for place in (8, 6, 5, 1, 7):
                    state = await page.act("key", place=place)
                    if state["over"]:
                        break
                assert state["over"] and state["result"] in ("The chip won.", "A draw.")
                fresh = await page.act("new", position="X..|.O.|...")
                assert fresh["board"] == [2, 0, 0, 0, 1, 0, 0, 0, 0] and not fresh["over"]
                off = await page.act("switch", number=0, on=False)
                assert off["switches"][0] is False and off["you_begin"] is False
                opened = await page.act("new")
                assert opened["said"][0].startswith("The chip opens at ")
    run(scenario())


def test_a_reloaded_page_finds_its_board_and_a_second_page_takes_it_over():
    async def scenario():
        async with served() as (_, url):
            async with Page(url) as first:
                await first.receive()
                await first.act("key", place=4)
                token = first.welcome["session"]
            async with Page(url, session=token) as again:
                assert again.welcome["resumed"] and again.welcome["session"] == token
                assert (await again.receive())["board"] == [1, 0, 0, 0, 2, 0, 0, 0, 0]
                async with Page(url, session=token) as other:
                    assert other.welcome["resumed"]
                    gone = await again.receive()
                    assert gone["kind"] == "error" and gone["final"]
                    assert gone["text"] == "This game went on in another page."
            async with Page(url, session="made-up") as new:
                assert not new.welcome["resumed"] and new.welcome["session"] != "made-up"
    run(scenario())


def test_the_limit_of_pages_and_the_boards_of_pages_gone():
    async def scenario():
        async with served(limit=1, idle_s=0.3) as (console, url):
            async with Page(url) as first:
                async with Page(url) as second:
                    refused = second.welcome
                    assert refused["kind"] == "error" and refused["final"]
                    assert "all are taken" in refused["text"]
                await first.receive()
            assert len(console.sessions) == 1
            for _ in range(100):                 # the sweep closes the board of a page gone
                if not len(console.sessions):
                    break
                await asyncio.sleep(0.1)
            assert len(console.sessions) == 0
            async with Page(url) as third:
                assert third.welcome["kind"] == "welcome"
    run(scenario())


def test_a_host_other_than_this_machine_is_warned_about(monkeypatch):
    said = []
    monkeypatch.setattr(server, "compile_box", lambda games, log: None)
    monkeypatch.setattr(server, "_run", lambda *args: asyncio.sleep(0))
    server.serve(("eth",), host="0.0.0.0", log=said.append)
    assert said == ["warning: --host 0.0.0.0: any machine that reaches this one may play "
                    "the console, and the server has no password"]
    said.clear()
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        server.serve(("eth",), host=host, log=said.append)
    assert said == []


def test_a_port_in_use_is_one_line():
    async def scenario():
        async with served() as (console, url):
            port = int(url.rstrip("/").rsplit(":", 1)[1])
            with pytest.raises(server.UserError, match=f"port {port} of 127.0.0.1 is in "
                               r"use: --http-port N serves on another \(0: any free one\)"):
                await server.start(Console(("eth",)), http_port=port)
    run(scenario())


def test_make_serve_prints_its_address_serves_the_page_and_ends_on_ctrl_c():
    # As a user runs it: make serve, the address read from its line (a free port),
    # the page fetched from there, then Ctrl-C at the terminal; no desktop here, so no
    # browser is opened.
    fetched = []

    def fetch(printed):
        url = re.search(r"The console is at (http://127\.0\.0\.1:\d+/) ", printed)[1]
        with urllib.request.urlopen(url, timeout=WAIT_S) as answer:
            fetched.append((answer.status, answer.read()))

    status, out = interrupted(["make", "serve"], ready=b"Ctrl-C stops it.",
                              meanwhile=fetch, env=NO_DISPLAY)
    assert fetched and fetched[0][0] == 200 and b"<!doctype html>" in fetched[0][1].lower()
    assert status == cli.INTERRUPTED, out
    lines = [line for line in out.replace("^C", "").splitlines() if line.strip()]
    address = next(n for n, line in enumerate(lines) if "The console is at" in line)
    after = [line for line in lines[address + 1:] if not MAKE_SAID.match(line)]
    assert after == ["interrupted"], out
    assert "Traceback" not in out


def test_the_benchmark_reports_the_browsers_figures_as_it_is_given_them():
    # make benchmark measures in Chromium through ttt (the console is above sim/);
    # the report says the figures, or why there are none.
    from sim.reports.benchmark import console, report
    figures = {"games": 3, "moves": 15, "median_ms": 44.5, "worst_ms": 90.4,
               "board_median_ms": 38.6, "worst_move_ms": 58.5,
               "box_alone_worst_move_ms": 58.8, "browser": "Chromium 156",
               "chip_step_median_ms": 9.6, "chip_steps": 20, "chip_step_worst_ms": 14.2,
               "chip_worst_run_median_ms": 625.4, "chip_runs": 3}
    measured = console.measured(lambda: figures, "", quick=False, log=lambda text: None)
    text = "\n".join(report.web_section(measured))
    assert "| median over 15 moves of 3 games | 44.5 ms | 38.6 ms |" in text
    assert "| B3 from the empty board (15,007 clocks), median | 58.5 ms | 58.8 ms" in text
    assert "| one edge stepped, median over 20 | 9.6 ms (slowest 14.2 ms) |" in text
    assert "| B3's search (15,007 clocks) run at full speed and its tree drawn, median " \
           "over 3 | 625 ms |" in text
    quick = console.measured(lambda: figures, "", quick=True, log=lambda text: None)
    assert report.web_section(quick)[-1] == "missing: not run with --quick"


def test_make_serve_game_serves_that_cartridge_and_a_missing_port_is_one_line():
    welcomed = []

    def hello(printed):
        url = re.search(r"The console is at (http://\S+/) ", printed)[1]

        async def welcome():
            async with Page(url) as page:
                welcomed.append(page.welcome)
        asyncio.run(welcome())

    status, out = interrupted(["make", "serve", "GAME=firstfree"], ready=b"Ctrl-C stops it.",
                              meanwhile=hello, env=NO_DISPLAY)
    assert status == cli.INTERRUPTED, out
    assert "with firstfree" in out
    assert [game["name"] for game in welcomed[0]["games"]] == ["firstfree"]
    with pytest.raises(cli.UserError, match="^cannot open the serial port /dev/ttyTTT9: "):
        server.serve(("eth",), port="/dev/ttyTTT9", log=print)


def test_a_malformed_request_is_refused_in_one_line_without_a_traceback():
    async def scenario():
        async with served() as (console, url):
            port = int(url.rstrip("/").rsplit(":", 1)[1])
            for request in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\n"
                            b"Content-Length: abc\r\n\r\n",
                            b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\n\r\n"):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(request)
                assert (await reader.read(12)).endswith(b" 400")
                writer.close()
            await asyncio.sleep(0.1)
            assert console.said and all("\n" not in line and "Traceback" not in line
                                        for line in console.said), console.said
            assert (await get(url))[0] == 200
    run(scenario())


def test_the_chip_clocked_by_hand_through_the_messages():
    """The chip's insides: reset, a key, a search run until the chip waits, back and
    forward through the history, a jump, and malformed chip messages refused."""
    async def scenario():
        async with served() as (_, url):
            async with Page(url) as page:
                await page.receive()                            # the panel's state

                async def chip(do, **fields):
                    await page.send(kind="chip", do=do, **fields)
                    answer = await page.receive()
                    assert answer["kind"] == "chip", answer
                    return answer
                opened = await chip("open")
                assert opened["cycle"] == 0 and opened["pins"]["resetN"] == 0
                reset = await chip("step")
                assert reset["cycle"] == 1 and reset["state"] == "justreset"
                await chip("pin", pin="resetN", value=1)
                waiting = await chip("step")
                assert waiting["state"] == "waiting" and waiting["values"]["prompt"] == 1
                await chip("key", place=4)
                registered = await chip("step")        # the keyboard register takes it
                assert registered["values"]["keyboard.keypressed"] == 1
                taken = await chip("step")
                assert taken["transition"] == ["waiting", "userjustmoved"]
                assert taken["read"]["keyboard.keypressed"] == 1
                assert "board.board" in taken["changed"]
                await chip("key", place=None)
                searched = await chip("until")
                # The chip's answer to the centre: A1 (place 0), in the 6496 cycles the
                # panel's game says.
                assert searched["clocked"] == 6496 and searched["state"] == "waiting"
                assert searched["values"]["board.board"] == 0b10_0000_0001
                assert searched["differences"] == {} and searched["server_ms"] > 0
                head = searched["head"]
                # The search's tree: alg.move's nodes for the board the chip answered.
                nodes = alg.move([0, 0, 0, 0, 2, 0, 0, 0, 0]).nodes
                assert searched["search"]["count"] == nodes
                grown = await chip("tree")
                assert len(grown["tree"]["nodes"]) == nodes
                assert grown["tree"]["begun"] == 4 and grown["tree"]["end"] == head
                back = await chip("back", edges=3)
                assert back["cycle"] == head - 3 and back["head"] == head
                again = await chip("step", edges=3)
                assert again["cycle"] == head and again["values"] == searched["values"]
                early = await chip("jump", cycle=5)
                assert early["cycle"] == 5 and early["state"] == "setboardi"
                for wrong in ({"do": "fly"}, {"do": "step", "edges": 0},
                              {"do": "key", "place": 9}, {"do": "pin", "pin": "cp"},
                              {"do": "jump", "cycle": -1}, {"do": "step", "edges": "1"}):
                    await page.send(kind="chip", **wrong)
                    answer = await page.receive()
                    assert answer["kind"] == "error" and "traceback" not in answer["text"]
                waves = (await chip("waves"))["waves"]
                assert waves["names"] == ["chip.vcd", "chip.gtkw"] and waves["cycles"] == head
                # Served from the page's folder at the paths the answer gives.
                vcd, gtkw = [await get(origin(url) + path) for path in waves["urls"]]
                assert vcd[0] == gtkw[0] == 200
                assert b"$scope module ttt_chip $end" in vcd[1]
                assert gtkw[1].count(b"[dumpfile]") == 1
                fresh = await chip("new")
                assert fresh["cycle"] == 0 and fresh["head"] == 0
    run(scenario())


def test_closed_pages_give_their_boards_to_the_next_page():
    async def scenario():
        async with served(limit=2) as (console, url):
            for _ in range(2):
                async with Page(url) as page:
                    assert page.welcome["kind"] == "welcome"
            async with Page(url) as page:
                assert page.welcome["kind"] == "welcome", page.welcome
            assert len(console.sessions) <= 2
    run(scenario())


def test_one_session_said_hello_to_at_once_from_three_pages_is_held_by_one():
    async def scenario():
        async with served() as (console, url):
            async with Page(url) as first:
                token = first.welcome["session"]
                pages = [Page(url, session=token) for _ in range(3)]
                await asyncio.gather(*(page.__aenter__() for page in pages))
                try:
                    kinds = sorted(page.welcome["kind"] for page in pages)
                    assert kinds == ["error", "error", "welcome"], kinds
                    for page in pages:
                        if page.welcome["kind"] == "error":
                            assert page.welcome["final"] and (await page.receive()) is None
                    while (told := await first.receive())["kind"] != "error":
                        pass
                    assert told["final"] and await first.receive() is None
                    [holder] = [p for p in pages if p.welcome["kind"] == "welcome"]
                    await holder.receive()                          # its state
                    assert (await holder.act("key", place=4))["board"][0] == 1
                finally:
                    for page in pages:
                        await page.__aexit__()
            assert console.said == []
    run(scenario())


def test_a_frame_of_64_kib_is_answered_and_one_byte_more_ends_the_connection():
    async def closes(url, size, compress):
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(url + "ws", headers={"Origin": origin(url)},
                                       compress=compress) as ws:
                await ws.send_json({"kind": "hello"})
                while (await ws.receive_json())["kind"] != "state":
                    pass                            # the progress and the welcome
                await ws.send_str("x" * size)
                answer = await asyncio.wait_for(ws.receive(), WAIT_S)
                if answer.type == aiohttp.WSMsgType.TEXT:
                    assert "at most 2048 bytes" in answer.json()["text"]
                    return None
                return ws.close_code

    async def scenario():
        async with served() as (console, url):
            for compress in (0, 15):                    # as a browser sends, deflated
                assert await closes(url, server.FRAME_LIMIT, compress) is None
                assert await closes(url, server.FRAME_LIMIT + 1, compress) == 1009
            assert server.FRAME_LIMIT == 65536 and console.said == []
    run(scenario())


def test_a_connection_that_sends_half_a_request_is_closed(monkeypatch):
    monkeypatch.setattr(server, "REQUEST_S", 1, raising=False)

    async def scenario():
        async with served() as (_, url):
            port = int(url.rstrip("/").rsplit(":", 1)[1])
            opened = []
            for _ in range(5):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                opened.append((reader, writer))
            for reader, writer in opened:
                assert await asyncio.wait_for(reader.read(), 5) == b""
                writer.close()
            assert (await get(url))[0] == 200
    run(scenario())


def test_a_match_shows_progress_and_the_page_plays_on_while_it_is_set_up(monkeypatch):
    from boards.web import console as console_module
    monkeypatch.setattr(console_module, "PROGRESS_S", 0, raising=False)

    async def scenario():
        async with served(SEVERAL, pause_s=0.05) as (_, url):
            async with Page(url) as page:
                await page.receive()
                await page.send(kind="match", do="game", machines=[0, 1])
                await page.send(kind="act", do="key", place=4, id=1)
                heard = []
                while not heard or heard[-1]["kind"] != "match":
                    heard.append(await page.receive(progress=True))
                # The key is answered while the machines' boards are opened, before the
                # match's first move, which ends the set-up's progress.
                kinds = [m["kind"] for m in heard]
                assert "state" in kinds and heard[kinds.index("state")]["answers"] == 1
                doing = [m["doing"] for m in heard if m["kind"] == "progress"]
                assert "Opening the machines' boards" in doing, heard
    run(scenario())
