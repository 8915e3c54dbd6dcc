"""What the browser tests of make serve's page share (test_web_page.py, the views of the
games; test_web_chip_page.py, the chip's insides): one Chromium for a module, pages
opened under the page's own Content-Security-Policy and watched for what goes wrong on
them, and each view looked at as a person would, at a desk's screen and a phone's.

- Every page a test opens is watched: an error said in its console, an error its
  scripts did not catch, and a violation of its policy (the `securitypolicyviolation`
  event, said in the console by a script the driver adds to each page, as the page's
  policy does not govern the driver's own scripts). After each test, a page with any
  of them fails it; a test that makes an error on purpose takes it off
  (`page.problems`).
- `look(page, name)`: the view at 1366x768 and at 390x844, a screenshot of each into
  build/web/<name>-<size>.png; nothing wider than the phone's screen, nothing spilling
  out of its box, on the desk's screen each part it names whole on the screen; and no
  serious or critical violation of axe-core's rules.

Every test of a page runs twice, against the console of `make serve` and against the
static site of `make site` served from this machine (`console(mode, games)`, the fixture
`mode`): the same page, its messages carried by a WebSocket or to a Worker of its own.
Without npm or Zig the site's runs skip, in one line.

Without Chromium or Playwright the modules that import this skip, in one line.
"""

import importlib.util
import re
import shutil

import pytest

from boards.web import timing
from sim import BUILD

__all__ = ["browser", "watched", "context", "opened", "key", "look", "axe", "console", "mode",
           "MODES", "DESK", "PHONE", "SHOTS"]

SHOTS = BUILD / "web"
DESK = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

try:
    CHROMIUM = timing.find_chromium()
    SYNC_PLAYWRIGHT = timing.playwright()
    from axe_playwright_python.base import AXE_SCRIPT      # axe-core's own script
except timing.Missing as missing:
    pytest.skip(f"{missing}: the page's tests skip", allow_module_level=True)
except ImportError:
    pytest.skip("axe-playwright-python is not installed (it comes with the project's test "
                "tools: pip install -e '.[test]'): the page's tests skip",
                allow_module_level=True)

# The page's two transports: make serve's WebSocket, the static site's Worker.
MODES = ("serve", "site")


def _site_missing():
    if shutil.which("npm") is None:
        return "npm is not installed (Debian: npm), and make site fetches Pyodide with it"
    if importlib.util.find_spec("ziglang") is None:
        return "Zig is not installed (pip install ziglang), and make site compiles with it"
    return None


def console(mode, games, **options):
    """The console of `games` in `mode`: make serve's server in this process (with
    `options`), or the static site of those games, served from this machine. A site
    that cannot be built here skips the test, in one line."""
    if mode == "serve":
        return timing.Served(tuple(games), **options)
    missing = _site_missing()
    if missing:
        pytest.skip(f"{missing}: the static site's run of this test skips")
    from boards.site.local import Local
    return Local(tuple(games))


@pytest.fixture(scope="module", params=MODES)
def mode(request):
    """Which console the module's pages play: each test runs against both."""
    return request.param


# Added to every page before its own scripts: a violation of its policy is an error.
WATCH = """document.addEventListener("securitypolicyviolation", (event) => console.error(
    `Content-Security-Policy: ${event.violatedDirective} blocked ` +
    `${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`));"""

_pages, _contexts = [], []       # what the test running now opened


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with SYNC_PLAYWRIGHT() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def watched():
    """Every page the test opened, closed after it; a page that said an error fails it."""
    _pages.clear()
    _contexts.clear()
    yield
    problems = {f"page {n} ({page.url})": page.problems
                for n, page in enumerate(_pages) if page.problems}
    for made in _contexts:
        made.close()
    assert not problems, problems


def _watch(page):
    page.problems = []
    page.on("console", lambda line: page.problems.append(line.text)
            if line.type == "error" else None)
    page.on("pageerror", lambda error: page.problems.append(f"uncaught: {error}"))
    _pages.append(page)


def context(browser, size=DESK, **options):
    """A context of the browser under the pages' own policy; each page in it watched."""
    made = browser.new_context(viewport=size, **options)
    made.add_init_script(WATCH)
    made.on("page", _watch)
    _contexts.append(made)
    return made


def opened(browser, url, within_ms=timing.WAIT_MS, **options):
    """A page of the console, once it has drawn its first state (its board in a box
    opened: a bound, `within_ms`, not a timing)."""
    page = context(browser, **options).new_page()
    page.goto(url)
    page.wait_for_selector("#view[aria-busy=false]", timeout=within_ms)
    return page


def key(page, place):
    """The key of `place` (A1 to C3): its name is the place, after what its face shows
    where it shows one (a bomb's label, Tactic-Toe's place number)."""
    return page.locator("#view").get_by_role("button", name=re.compile(rf"(^| ){place}$"))


# Every element shown whose content spills out of its box (its overflow visible), by a
# short name and what it holds; a scroll container's content scrolls and is not counted,
# nor is a form control's own text, which it clips.
SPILLING = """() => {
    const found = [];
    for (const node of document.body.querySelectorAll("*")) {
        if (!node.getClientRects().length || node.closest(".hidden") ||
            node instanceof SVGElement && node.ownerSVGElement ||
            node.matches("select, input, textarea")) continue;
        const style = getComputedStyle(node);
        const across = style.overflowX === "visible" && node.clientWidth > 0 &&
            node.scrollWidth > node.clientWidth + 1;
        const down = style.overflowY === "visible" && node.clientHeight > 0 &&
            node.scrollHeight > node.clientHeight + 1;
        if (across || down) {
            found.push(`${node.tagName.toLowerCase()}.${[...node.classList].join(".")}` +
                       `${node.id ? "#" + node.id : ""} ${across ? "across" : "down"}: ` +
                       `${node.textContent.trim().slice(0, 30)}`);
        }
    }
    return found;
}"""
# The box of each element a selector names that is shown, in the page's pixels.
BOXES = """(selector) => [...document.querySelectorAll(selector)]
    .filter((node) => node.getClientRects().length)
    .map((node) => { const box = node.getBoundingClientRect();
                     return { width: box.width, height: box.height }; })"""
# axe-core's experimental rule that the audit named (a name that holds what the
# control shows) is off by default: it is asked for.
AXE_OPTIONS = {"resultTypes": ["violations"],
               "rules": {"label-content-name-mismatch": {"enabled": True}}}


def axe(page):
    """axe-core's serious and critical violations on `page`, each in one line. Its
    script is given to the page through the driver, which the page's policy does not
    govern (the policy stays as served; the watch sees anything it blocks)."""
    if not page.evaluate("() => 'axe' in window"):
        page.evaluate(AXE_SCRIPT)
    found = page.evaluate("(options) => axe.run(document, options)", AXE_OPTIONS)
    return [f"{v['id']} ({v['impact']}): {v['help']}: " +
            ", ".join(str(node["target"]) for node in v["nodes"][:4])
            for v in found["violations"] if v["impact"] in ("serious", "critical")]


def look(page, name, fits=("#view .console",)):
    """The view on `page` as a person sees it, at a desk's screen and a phone's (module
    docstring). `fits`: the parts that must each be whole on the desk's screen."""
    # The static site's page is shot beside make serve's, to be looked at both.
    if page.evaluate("() => !!document.querySelector('meta[name=console-transport]')"):
        name += "-site"
    for size in (DESK, PHONE):
        page.set_viewport_size(size)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")
        page.screenshot(path=SHOTS / f"{name}-{size['width']}x{size['height']}.png",
                        full_page=True)
        at = f"{name} at {size['width']}x{size['height']}"
        spilling = page.evaluate(SPILLING)
        assert spilling == [], f"{at}: spilling out of their boxes: {spilling}"
        if size is PHONE:
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= size["width"], f"{at}: the page is {wide} px wide"
        else:
            for selector in fits:
                boxes = page.evaluate(BOXES, selector)
                assert boxes and all(box["width"] <= size["width"] and
                                     box["height"] <= size["height"] for box in boxes), \
                    f"{at}: {selector} is {boxes}, not whole on the screen"
        violations = axe(page)
        assert violations == [], f"{at}: axe-core: {violations}"
    page.set_viewport_size(DESK)
