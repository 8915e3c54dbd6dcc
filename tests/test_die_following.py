"""The die on the page (docs/die.md, "The die on the page"): the post-layout netlist of
make die simulated gate by gate in plain Python (sim/watch/die.py) beside the page's
chip, its output pins the HDL chip's at every cycle of E.1's session and of the
chip's longest search, after a branch in the past too; a wrong cell function seen on the
pins; and the messages that carry it. Needs qflow and lays the chip out the first time
(a minute), so it runs in make test-builds with the rest of the flow; without qflow, the
one line a page gets instead (in make test)."""

import asyncio

import pytest

from sim.chip import e2
from sim.verification import die
from sim.watch.die import KEPT, Die, Following
from sim.watch.watch import Watch, worst_search
from web import inline, said

MISSING = die.missing()
# Each test of the die laid out: with the flow, in make test-builds.
needs_qflow = pytest.mark.skipif(MISSING is not None, reason=MISSING or "")


def laid_out(test):
    return pytest.mark.build(needs_qflow(test))


@pytest.fixture(scope="module")
def described():
    return die.page(die.layout())


def differing(following, cycles):
    """[(cycle, differences)] where the die's pins differ from the chip's."""
    found = []
    for cycle in cycles:
        reached, state = following.reach(cycle)
        assert reached == cycle
        differences = following.differences(cycle, following.values(cycle, state))
        if differences:
            found.append((cycle, differences))
    return found


@laid_out
def test_the_die_shows_the_chips_pins_at_every_cycle_of_e2_and_the_longest_search(
        described):
    session = Watch()
    for pins in e2.SESSION:
        session.pins = pins
        session.step()
    assert differing(Following(Die(described), session), range(session.head + 1)) == []
    watch = Watch()
    worst_search(watch)
    following = Following(Die(described), watch)
    assert differing(following, range(watch.head + 1)) == []
    assert watch.head > 15_000
    # A cycle shown again from the states kept is the same as clocked up to it.
    _, later = following.reach(watch.head)
    _, again = following.reach(KEPT + 3)
    assert following.reach(watch.head) == (watch.head, later) and again != later


@laid_out
def test_a_wrong_cell_function_shows_on_the_dies_pins(described):
    models = {**described["models"], "NAND3X1": {"out": {"Y": "(!(A B))"}, "flop": None}}
    watch = Watch()
    worst_search(watch)
    assert differing(Following(Die({**described, "models": models}), watch), range(20))


@laid_out
def test_a_key_pressed_in_the_past_branches_the_die_with_the_chip(described):
    watch = Watch()
    following = Following(Die(described), watch)
    worst_search(watch)
    assert differing(following, range(0, watch.head + 1, 997)) == []
    watch.jump(2)
    watch.press(4)                  # B2 instead of B3: the history is cut at 2
    watch.step(2)
    watch.press(None)
    watch.run_until_waiting()
    assert watch.branches == 1
    assert differing(following, range(watch.head + 1)) == []


@laid_out
def test_the_die_comes_in_the_chips_messages_with_its_map_once(described):
    async def scenario():
        playing = inline(die=lambda: described)
        page = playing.page(None, None)
        try:
            await said(page, kind="hello")
            [opened] = await said(page, kind="chip", do="die", map=True)
            shown = opened["die"]
            assert shown["map"]["nets"] == described["nets"]
            assert (shown["cycle"], shown["target"]) == (0, 0)
            assert len(shown["values"]) == len(described["nets"])
            assert set(shown["values"]) == {"0", "1"} and shown["differences"] == []
            [stepped] = await said(page, kind="chip", do="step", edges=3, die=True)
            assert stepped["die"]["cycle"] == 3 and "map" not in stepped["die"]
            assert stepped["die"]["values"] != shown["values"]
            [plain] = await said(page, kind="chip", do="step")
            assert "die" not in plain
        finally:
            page.left()
            await playing.close()
    asyncio.run(scenario())


def test_a_console_without_its_die_says_why_in_one_line(monkeypatch, tmp_path):
    from boards.commands.serve import die as serve_die
    from boards.site.die import die as site_die

    async def scenario(load, expected):
        playing = inline(die=load)
        page = playing.page(None, None)
        try:
            await said(page, kind="hello")
            [answer] = await said(page, kind="chip", do="die", map=True)
            assert answer == {"kind": "error", "text": expected}
        finally:
            page.left()
            await playing.close()

    asyncio.run(scenario(None, "die: this console has no die (make die lays it out)"))
    # make serve's die where qflow's cells are not installed.
    monkeypatch.setattr(die, "TECHS", tmp_path)
    asyncio.run(scenario(serve_die, "die: the die needs qflow and its osu035 cells from "
                                    "Debian: apt-get install qflow qflow-tech-osu035"))
    # The static site's Worker, where the site was built without the die.
    asyncio.run(scenario(site_die, "die: this site was built where the die was not "
                                        "laid out (make die needs qflow: apt-get install "
                                        "qflow qflow-tech-osu035)"))
