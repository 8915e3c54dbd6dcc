"""What `make benchmark` measures of the static site, every game's, served from this
machine (local.py) and opened in Chromium: what a first visit fetches, by part; the time
from opening the address to a playable panel; click to lights and the chip's insides,
as make serve's page is timed (boards/web/timing.py); and each desk's speed in
WebAssembly in the browser beside its native build, the board in a box's."""

import json
import statistics
import time

from boards.web import timing

from .local import Local

__all__ = ["figures", "PARTS"]

# What a first visit fetches, by part: the file's folder in the site, or its name.
PARTS = {"pyodide": "the Python runtime (Pyodide)", "python.zip": "the console's Python",
         "desks": "the first game's desk", "static": "the page",
         "index.html": "the page", "site.json": "the page"}
CLOCKS = 2_000_000          # desk clocks timed each way: about a second
# The desk clocked in the page, as worker.js clocks it: idle, no byte on its line.
DESK_SECONDS = """async ([file, clocks, bit]) => {
    const none = () => 52;
    const module = await WebAssembly.compileStreaming(fetch(file));
    const x = new WebAssembly.Instance(module, { wasi_snapshot_preview1:
        { fd_write: none, fd_seek: none, fd_close: none } }).exports;
    x._initialize();
    const box = x.box_create(bit), out = x.malloc(4096);
    x.box_run(box, 10000n, out, 4096);
    const began = performance.now();
    x.box_run(box, BigInt(clocks), out, 4096);
    return (performance.now() - began) / 1000;
}"""


def _part(url, address):
    first = address[len(url):].split("?")[0].split("/")[0] or "index.html"
    return PARTS.get(first, "other")


def _first_visit(browser, url):
    """A fresh visit: the seconds to a playable panel, the bytes fetched by part, and
    the seconds by which each part's largest file had been read (WebAssembly is
    compiled as it streams, so that this is its compile too)."""
    context = browser.new_context()
    fetched, finished = {}, {}
    context.on("response", lambda response: fetched.__setitem__(
        response.url, int(response.headers.get("content-length", 0))))
    page = context.new_page()
    began = time.perf_counter()
    context.on("requestfinished", lambda request: finished.__setitem__(
        request.url, time.perf_counter() - began))
    page.goto(url)
    page.wait_for_selector("#view[aria-busy=false]", timeout=timing.WAIT_MS)
    seconds = time.perf_counter() - began
    context.close()
    parts, largest, came = {}, {}, {}
    for address, size in fetched.items():
        part = _part(url, address)
        parts[part] = parts.get(part, 0) + size
        if address in finished and size >= largest.get(part, -1):
            largest[part], came[part] = size, finished[address]
    return seconds, parts, came


def _desk_speeds(browser, url, games):
    """Each game's desk in clocks per second: in Chromium, and natively (CXXRTL's C++
    through the system's compiler)."""
    from boards.box.box import CompiledDesk
    from boards.gateware.rates import BOX_BAUD, CLOCK_HZ
    page = browser.new_page()
    page.goto(url)
    rows = []
    for game in games:
        wasm = page.evaluate(DESK_SECONDS, [f"desks/{game}.wasm", CLOCKS, CLOCK_HZ / BOX_BAUD])
        desk = CompiledDesk((game,))
        desk.run(10_000)
        began = time.perf_counter()
        desk.run(CLOCKS)
        native = time.perf_counter() - began
        desk.close()
        rows.append({"game": game, "wasm_clocks_per_s": CLOCKS / wasm,
                     "native_clocks_per_s": CLOCKS / native})
    page.close()
    return rows


def figures(loads=3):
    """The site's figures (`loads` fresh visits timed), or Missing (timing's) without
    Chromium."""
    chromium, sync_playwright = timing.find_chromium(), timing.playwright()
    local = Local()
    with local as url:
        games = json.loads((local.folder / "site.json").read_text())["games"]
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium)
            try:
                visits = [_first_visit(browser, url) for _ in range(loads)]
                desks = _desk_speeds(browser, url, games)
            finally:
                browser.close()
        page = timing.in_browser(url)
    return {"loads": loads, "load_median_s": statistics.median(s for s, _, _ in visits),
            "first_visit_bytes": visits[0][1],
            "first_visit_came_s": {part: statistics.median(came[part] for _, _, came in visits
                                                           if part in came)
                                   for part in visits[0][2]},
            "desks": desks, "page": page}
