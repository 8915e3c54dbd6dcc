"""Links to a moment (docs/web.md, "Links to a moment"), in a real browser (Debian's
Chromium driven by Playwright, tests/webpage.py): moves played, the link copied with
the page's button, and opened in a page of its own, which plays it again through the
messages and shows the same board; the chip's insides at the same cycle with the same
values; another cartridge by its name and an act by its fields; a link pasted into an
open page; and a link that will not do said in one line, never in the console.

Every test runs twice (tests/webpage.py's `mode`): on make serve's page, its messages
over a WebSocket, and on the static site's, its console in the page's Worker."""

import re

import pytest

from boards.web.timing import KEY_NAMES, answered, leds
from webpage import browser, console, context, key, look, mode, opened, watched  # noqa: F401

CLIPBOARD = ["clipboard-read", "clipboard-write"]
# What the chip's insides show, each value by its accessible name.
CHIP_VALUES = """() => Object.fromEntries(
    [...document.querySelectorAll('#chip output[aria-label]')]
        .map((out) => [out.getAttribute('aria-label'), out.value]))"""
CHIP_CYCLE = "document.querySelector('#chip output[aria-label=cycle]')?.value"


@pytest.fixture(scope="module")
def served(mode):
    """The page's address, in each mode (tests/webpage.py): make serve's, the site's."""
    with console(mode, ("eth", "tactic"), limit=8) as url:
        yield url


def copied(page):
    """The page's link, copied by its button (a person's way): the page's address."""
    page.get_by_role("button", name="Copy link").click()
    page.get_by_role("status").filter(has_text="Copied").wait_for()
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == page.url, (link, page.url)
    return link


def opened_at(browser, link, **options):
    """A page of its own (a session and a board of its own) opened at `link`, once the
    link has been played."""
    page = opened(browser, link, **options)
    page.evaluate("() => window.ttt.links.settled")
    return page


def board(page):
    """What a person sees of a game of nine places: the LEDs, the lamps, the status
    line, the moves and their think times."""
    return {"leds": leds(page), "line": page.locator(".line code").text_content(),
            "lamps": page.locator(".lamps [role=img]").evaluate_all(
                "lamps => lamps.map((l) => l.getAttribute('aria-label'))"),
            "moves": page.locator(".think tbody").text_content()}


def error_line(page):
    alert = page.locator("#error")
    return None if alert.is_hidden() else alert.text_content()


def play(page, places):
    """Click each of `places` in turn, each once the last has been answered."""
    for n, place in enumerate(places, start=1):
        key(page, place).click()
        answered(page, n)


def test_a_link_opens_the_same_board(browser, mode, served):
    """Two moves, the switch and a new game the chip opens by chance, then a move: the
    link names each act, and opened in another page shows the same board; a reload
    finds it as it was, without playing the link again."""
    page = opened_at(browser, served, permissions=CLIPBOARD)
    assert re.fullmatch(r".*#game=eth&check=[0-9a-z]+", page.url), page.url
    play(page, ["B3", "C1"])
    page.get_by_role("switch", name="userbegins").click()
    page.get_by_role("button", name="New game").click()
    answered(page, 4)
    place = leds(page).index("empty")
    play_on = KEY_NAMES[place]
    key(page, play_on).click()
    answered(page, 5)
    link = copied(page)
    assert re.fullmatch(rf".*#game=eth&acts=B3,C1,switch\(number=0;on=false\),new,"
                        rf"{play_on}&check=[0-9a-z]+", link), link
    seen = board(page)
    other = opened_at(browser, link)
    assert board(other) == seen
    assert error_line(other) is None
    assert "the link's moment" in other.locator("#connection").text_content()
    assert other.url == link
    other.reload()
    other.wait_for_selector("#view[aria-busy=false]")
    other.evaluate("() => window.ttt.links.settled")
    assert board(other) == seen
    # make serve's session outlives the reload; on the site the page's console starts
    # anew with the page, and plays the link again, to the same board.
    again = "the same board as before" if mode == "serve" else "the link's moment"
    assert again in other.locator("#connection").text_content()
    look(page, "links")


def test_a_link_opens_the_chips_insides_at_the_same_cycle(browser, served):
    """The chip reset, a key held, the search run until it waits, then back through
    its history: the link opens the insides at that cycle with every value the same."""
    page = opened(browser, served, permissions=CLIPBOARD)
    page.get_by_role("button", name="The chip's insides").click()
    cycle = lambda text: page.wait_for_function(f"t => {CHIP_CYCLE} === t", arg=text)
    cycle("0 of 0")
    page.get_by_role("button", name="step one edge").click()
    cycle("1 of 1")
    page.locator("#chip-resetN").check()
    page.get_by_role("button", name="hold key B2").click()
    page.wait_for_function("() => document.querySelector('#chip-resetN').checked")
    page.get_by_role("button", name="step one edge").click()
    cycle("2 of 2")
    page.get_by_role("button", name="step one edge").click()
    cycle("3 of 3")
    page.get_by_role("button", name="let go of every key").click()
    page.get_by_role("button", name="run until it waits").click()
    cycle("6499 of 6499")
    page.get_by_label("cycle to jump to").fill("40")
    page.get_by_role("button", name="Jump", exact=True).click()
    cycle("40 of 6499")
    page.get_by_role("button", name="back one edge").click()
    cycle("39 of 6499")
    link = copied(page)
    assert re.search(r"&chip=step\(edges=1\),pin\(pin=resetN;value=1\),B2,step\(edges=2\),"
                     r"key\(place=null\),until&cycle=39$", link), link
    values = page.evaluate(CHIP_VALUES)
    other = opened_at(browser, link)
    assert other.evaluate(CHIP_CYCLE) == "39 of 6499"
    assert other.evaluate(CHIP_VALUES) == values
    assert other.get_by_role("button", name="The chip's insides") \
        .get_attribute("aria-expanded") == "true"
    assert error_line(other) is None
    # The insides hidden: the link has them closed.
    page.get_by_role("button", name="The chip's insides").click()
    assert "cycle=" not in copied(page)


def test_another_cartridge_by_its_name_and_an_act_by_its_fields(browser, served):
    """Tactic-Toe chosen in the list, a plan revealed: the link names the cartridge
    by its folder and the plan by its field; opened, the same round is shown."""
    page = opened(browser, served, permissions=CLIPBOARD)
    page.get_by_label("Cartridge", exact=True).select_option("1")
    page.get_by_text("Round 1: Your (X) plan.").wait_for()
    for place in ("B1", "A3", "C3"):             # places 2, 7, 9
        key(page, place).click()
    page.get_by_role("button", name="Reveal").click()
    answered(page, 1)
    rounds = page.locator(".rounds")
    rounds.filter(has_text="Round 1: X planned 2 7 9").wait_for()
    link = copied(page)
    assert re.fullmatch(r".*#game=tactic&acts=plan\(a='279'\)&check=[0-9a-z]+", link), link
    other = opened_at(browser, link)
    assert other.locator(".rounds").text_content() == rounds.text_content()
    assert other.get_by_label("Cartridge", exact=True).input_value() == "1"
    assert error_line(other) is None


def test_a_link_pasted_into_an_open_page_is_played(browser, served):
    page = opened(browser, served)
    page.evaluate("() => { location.hash = 'game=eth&acts=B2,C3'; }")
    page.wait_for_function("() => location.hash.includes('acts=B2,C3&check=')")
    shown = leds(page)
    assert shown[4] == "you" and shown[8] == "you" and shown.count("chip") == 2, shown
    assert re.fullmatch(r".*#game=eth&acts=B2,C3&check=[0-9a-z]+", page.url), page.url


@pytest.mark.parametrize("fragment, said, played", [
    ("game=nosuch&acts=B2",
     "This link's cartridge, nosuch, is not on this console (its cartridges: eth, "
     "tactic); the link was not played.", []),
    ("game=eth&acts=B2,zap(x=1),C3",
     "This link's act 2 of 3, zap(x=1), was refused: nine: there is no action 'zap'", ["B2"]),
    ("game=eth&acts=B2,((,C3",
     "This link will not do: its act 2: (( is not an act; it was played as far as it "
     "could be read.", ["B2"]),
    ("game=eth&acts=B2&cycle=x1", "This link will not do: its cycle, x1, is no cycle;",
     ["B2"]),
    ("game=eth&acts=B2&check=zzzz",
     "This link's acts were played, but the board differs from the link's", ["B2"]),
    ("where=here", "This page's address is not a link to a moment: it holds where", []),
])
def test_a_link_that_will_not_do_is_said_in_one_line(browser, served, fragment, said,
                                                      played):
    """Said on the page's error line, the rest of the link not played; nothing in the
    browser's console (the page is watched for it), and the page plays on."""
    page = opened_at(browser, f"{served}#{fragment}")
    line = error_line(page)
    assert line is not None and line.startswith(said) and "\n" not in line, line
    shown = leds(page)
    assert [KEY_NAMES[k] for k, who in enumerate(shown) if who == "you"] == played, shown
    key(page, "B1" if "B2" in played else "B2").click()
    answered(page, 1)
    assert error_line(page) is None
