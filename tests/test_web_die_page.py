"""The die on the page, in a real browser (Debian's Chromium driven by Playwright,
tests/webpage.py), through make serve's server and the static site: shown beside the
chip's insides, lit as the chip steps and caught up with B3's search, its pins the HDL
chip's all along, a cell named by a click and by its name, a link that opens it at its
cycle, drawn in colours (not black), and looked at at a desk's size and a phone's.
Needs qflow for the layout (make die's), which the first page lays out (a minute): in
make test-builds with the rest of the flow, and skipped in one line without qflow."""

import re

import pytest

from boards.commands.serve import die as serve_die
from boards.web import timing
from sim.verification import die
from webpage import browser, console, context, look, mode, opened, watched  # noqa: F401

if die.missing():
    pytest.skip(f"{die.missing()}: the die's page tests skip", allow_module_level=True)

pytestmark = pytest.mark.build
LAID_OUT_MS = 180_000       # the first die asked lays the chip out (qflow, a minute)
# The pixels of the die's canvas: how many differ between two images of it, and how
# many colours one has (a die drawn black has one).
PIXELS = """(before) => {
    const canvas = document.querySelector('#chip canvas.diecanvas');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const sampled = [];
    for (let k = 0; k < data.length; k += 4 * 7) {
        sampled.push((data[k] << 16) | (data[k + 1] << 8) | data[k + 2]);
    }
    const changed = before ? sampled.filter((colour, k) => colour !== before[k]).length : 0;
    return { colours: new Set(sampled).size, changed, sampled };
}"""


@pytest.fixture(scope="module")
def dies(mode):
    with console(mode, ("eth",), die=serve_die) as url:
        yield url


def _cycle(page):
    return page.evaluate(timing.CHIP_CYCLE).split(" ")[0]


def test_the_die_lit_as_the_chip_steps_and_searches(browser, dies):
    page = opened(browser, dies)
    timing.chip_panel(page)
    timing.die_shown(page, timeout=LAID_OUT_MS)
    drawn = page.evaluate(PIXELS, None)
    assert drawn["colours"] > 8, "the die is drawn in too few colours"
    step = page.get_by_role("button", name="step one edge")
    step.click()
    timing.die_at(page, "1")
    page.locator("#chip-resetN").check()
    page.get_by_role("button", name="hold key B3").click()
    for n in ("2", "3"):
        step.click()
        timing.die_at(page, n)
    page.get_by_role("button", name=timing.LET_GO).click()
    page.get_by_role("button", name=timing.UNTIL).click()
    timing.cycle_is(page, "15010 of 15010", timeout=60_000)
    timing.die_at(page, "15010", timeout=120_000)
    assert page.locator("#chip section.die .differences").text_content() == ""
    assert re.fullmatch(r"The die at cycle 15010: \d+ of its 1\d{3} nets at 1\.",
                        page.locator("#chip .diestatus").text_content())
    after = page.evaluate(PIXELS, drawn["sampled"])
    assert after["changed"] > 100, "the die's wires did not change over the search"
    # A cell named by a click on it, and one by its name.
    canvas = page.locator("#chip canvas.diecanvas")
    box = canvas.bounding_box()
    canvas.click(position={"x": box["width"] * 0.3, "y": box["height"] * 0.4})
    said = page.locator("#chip .diecell").text_content()
    assert re.fullmatch(r"\w+_\d+, a [A-Z0-9]+ of [a-z.]+: (\w+=[01] \([^)]+\)(, )?)+, "
                        r"at cycle 15010\.", said), said
    page.locator("#die-cell").fill("DFFPOSX1_1")
    page.locator("#die-cell").press("Enter")
    assert page.locator("#chip .diecell").text_content().startswith(
        "DFFPOSX1_1, a DFFPOSX1 of ")
    plain = page.evaluate(PIXELS, None)
    page.get_by_label("the critical path").check()
    assert page.evaluate(PIXELS, plain["sampled"])["changed"] > 10     # its dashed line
    look(page, "insides-die", fits=("#chip canvas.diecanvas",))


def test_a_link_opens_the_die_at_its_cycle(browser, dies):
    page = opened(browser, dies)
    timing.chip_panel(page)
    timing.die_shown(page, timeout=LAID_OUT_MS)
    page.get_by_role("button", name="step one edge").click()
    timing.die_at(page, "1")
    page.locator("#chip-resetN").check()
    page.get_by_role("button", name="hold key B2").click()
    for n in ("2", "3", "4", "5"):
        page.get_by_role("button", name="step one edge").click()
        timing.die_at(page, n)
    page.get_by_role("button", name="back one edge").click()
    timing.die_at(page, "4")
    page.wait_for_function("() => location.hash.includes('cycle=4')")
    link = page.evaluate("location.hash")
    assert link.endswith("&cycle=4&die=1") and "die=true" not in link
    again = opened(browser, dies + link)
    timing.die_at(again, "4", timeout=60_000)
    assert _cycle(again) == "4"
    assert again.locator("#chip .diestatus").text_content().startswith("The die at cycle 4:")
