"""The static site of make site (boards/site/): a board of a desk per game, as the
page's Worker plays it, here on the desks' native builds; the Python the Worker is
given; what a built site holds, and that Python's own http.server serves it as the page
needs (both building desks with Zig: make test-slow); and that a machine without npm is
told so in one line. The page played on the site: every browser test
(tests/webpage.py's `mode`)."""

import json
import re
import os
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from sim import BUILD

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("eth", "firstfree")
needs_npm = pytest.mark.skipif(shutil.which("npm") is None,
                               reason="npm is not installed (Debian: npm): make site "
                                      "fetches Pyodide with it")


@pytest.fixture(scope="module")
def site():
    from boards.site.build import build
    folder = BUILD / "sites" / "-".join(GAMES)
    build(GAMES, out=folder, log=lambda text: None)
    return folder


def test_a_board_of_a_desk_per_game_opens_the_desk_of_the_game_chosen():
    """boards/web/board.py with `desks`, each a desk's line with no thread
    (boards/box/stream.py): what the page's Worker does with the WebAssembly desks."""
    from boards.box.box import CompiledDesk
    from boards.box.stream import DeskStream
    from boards.web.board import Board
    opened = []

    def desks(game):
        opened.append(game)
        return DeskStream(CompiledDesk((game,)))
    board = Board(("eth", "firstfree"), desks=desks)
    try:
        assert opened == ["eth"] and board.state()["name"] == "eth"
        state = board.act({"kind": "act", "do": "key", "place": 4})     # B2
        assert state["board"][4] and state["board"][0], state       # the chip plays A1
        state = board.play(1)
        assert opened == ["eth", "firstfree"] and state["game"] == 1
        assert state["name"] == "firstfree" and not any(state["board"])
        state = board.act({"kind": "act", "do": "key", "place": 4})
        assert state["board"][0] and "3 clock cycles" in " ".join(state["said"]), state
        state = board.play(1)           # the same game again: its desk kept, begun anew
        assert opened == ["eth", "firstfree"] and not any(state["board"]), state
        assert board.play(0)["name"] == "eth" and opened[-1] == "eth"
    finally:
        board.close()


def test_the_workers_python_needs_no_numpy_and_holds_what_the_console_imports():
    done = subprocess.run([sys.executable, "-m", "boards.site.modules"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    names = {path for _, path in json.loads(done.stdout)}
    for needed in ("boards/site/page.py", "boards/web/views/bomb.py",
                   "firmware_ref/ultimate/rules.py", "sim/chip/e2.py", "sim/chip/view.py",
                   "sim/chip/e2_trace.txt", "amaranth/hdl/__init__.py"):
        assert needed in names, needed
    assert not [n for n in names if n.startswith(("numpy/", "aiohttp/", "serial/"))]
    assert "boards/web/server.py" not in names


@pytest.mark.slow
@needs_npm
def test_the_site_holds_the_page_the_runtime_the_python_and_a_desk_per_game(site):
    page = (site / "index.html").read_text()
    static = (ROOT / "boards/web/static/index.html").read_text()
    assert page.replace('<meta name="console-transport" content="worker">\n', "") == static
    assert (site / "static/worker.js").read_bytes() == \
        (ROOT / "boards/web/static/worker.js").read_bytes()
    described = json.loads((site / "site.json").read_text())
    assert described["games"] == list(GAMES)
    files = {str(p.relative_to(site)): p.stat().st_size for p in site.rglob("*")
             if p.is_file() and p.name != "site.json"}
    assert described["bytes"] == files
    for game in GAMES:
        assert (site / "desks" / f"{game}.wasm").read_bytes()[:4] == b"\0asm"
    assert (site / "chip.wasm").read_bytes()[:4] == b"\0asm"
    names = zipfile.ZipFile(site / "python.zip").namelist()
    for needed in ("boards/site/page.py", "boards/web/console.py", "firmware_ref/eth/cycle.py",
                   "sim/watch/watch.py", "sim/chip/e2_trace.txt", "amaranth/__init__.py"):
        assert needed in names, needed
    # What the browser has none of is not shipped, nor what the page never runs.
    assert not [n for n in names if n.startswith(("numpy/", "aiohttp/", "tests/"))
                or n.endswith(".so")]
    assert "boards/web/server.py" not in names and "sim/verification/verify.py" not in names


@pytest.mark.slow
@needs_npm
def test_python3_m_http_server_in_the_sites_folder_serves_it(site):
    """The documented line, as typed (port 8000): the page, its module Worker's files as
    JavaScript and the desks as WebAssembly, which the browser compiles only so."""
    server = subprocess.Popen(["python3", "-m", "http.server"], cwd=site,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        said = server.stdout.readline().decode()
        if "port 8000" not in said:
            pytest.skip(f"port 8000 is taken here: {said.strip()}")
        for path, kind in (("", "text/html"), ("pyodide/pyodide.mjs", "javascript"),
                           ("static/worker.js", "javascript"),
                           ("desks/eth.wasm", "application/wasm")):
            for _ in range(50):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:8000/{path}") as got:
                        assert kind in got.headers["Content-Type"], (path, got.headers)
                        break
                except ConnectionError:
                    time.sleep(0.1)
    finally:
        server.terminate()
        server.wait()
        server.stdout.close()


def test_make_site_without_npm_says_so_in_one_line(tmp_path):
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}
    done = subprocess.run([sys.executable, "-m", "boards", "site", "--out", str(tmp_path)],
                          capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 2, done
    assert done.stderr.strip().splitlines() == [
        "error: make site fetches Pyodide with Node's npm, which is not installed "
        "(Debian: apt-get install npm)"], done.stderr
    assert not (tmp_path / "site").exists()


def test_the_page_names_its_files_relative_to_itself():
    """A static host may serve the site from a folder (GitHub Pages' project sites:
    /<repository>/): the page and its scripts reach their files by relative addresses,
    but for make serve's own WebSocket."""
    static = ROOT / "boards/web/static"
    page = (static / "index.html").read_text()
    assert not re.findall(r'(?:href|src)="/', page), page
    for script in static.glob("*.js"):
        absolute = re.findall(r"""(?:fetch|URL|import)\(\s*["'`]/(\w*)""",
                              script.read_text())
        assert absolute in ([], ["ws"]), (script.name, absolute)
