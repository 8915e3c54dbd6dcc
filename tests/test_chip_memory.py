"""A page's chip holds a bounded history (sim/watch/history.py): flooded with the
most a page may ask it keeps some megabytes, where it kept every frame as objects (an
audit saw 77 MB grow to 562); Back and Jump still show an early frame as it was first
shown; a step is clamped to LIMIT edges and a session to CYCLES; the waves are written a
slice at a time and the page is given their paths, never their text; and a page that
leaves gives its memory back. Through the chip's messages (boards/web/chip.py), as its session's
thread runs them."""

import gc
import json
import tracemalloc
import types

import pytest

from boards.web import chip
from sim.watch.watch import CYCLES, LIMIT

PAGE_MB = 50            # the most one page's chip may add to the server's memory
KEPT_MB = 20            # the most its history may keep in its arrays


def _rss_mb():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 2**20


def _session(name):
    return types.SimpleNamespace(extra={}, token=f"{name:_<16}")


def _act(session, do, **fields):
    return chip.act(session, {"do": do, **fields})


def _searched(session, places):
    """A game's keys on the chip, each search run until it waits: the frames shown at
    each search's end, by cycle."""
    shown = {}
    for place in places:
        _act(session, "key", place=place)
        _act(session, "step", edges=2)
        _act(session, "key", place=None)
        answer = _act(session, "until")
        shown[answer["cycle"]] = answer
    return shown


@pytest.fixture
def warm():
    """The chip compiled and loaded, and the first page's imports done: what the server
    holds before any page's chip."""
    session = _session("warm")
    for message in ({"do": "open"}, {"do": "step", "edges": 3000}):
        chip.act(session, message)
    session.extra.pop(chip.NAME).close()
    gc.collect()


def test_a_flooded_chip_keeps_a_bounded_history_and_shows_its_past_as_it_was(warm):
    before = _rss_mb()
    session = _session("flooded")
    _act(session, "open")
    _act(session, "step")
    _act(session, "pin", pin="resetN", value=1)
    shown = _searched(session, [7, 0])
    watch = session.extra[chip.NAME].watch
    while watch.head < CYCLES:
        head = watch.head
        answer = _act(session, "step", edges=100_000)       # as the audit asked
        assert answer["clocked"] == min(LIMIT, CYCLES - head)
    grew, kept = _rss_mb() - before, watch.kept_bytes() / 2**20
    print(f"{watch.head} cycles: the server grew {grew:.1f} MB, the history keeps "
          f"{kept:.1f} MB")
    assert grew < PAGE_MB and kept < KEPT_MB
    with pytest.raises(chip.Invalid, match="250,000 cycles"):
        _act(session, "step")
    # Every search's end as it was shown, though its frames were let go long ago.
    for cycle, first in shown.items():
        again = _act(session, "jump", cycle=cycle)
        assert again["cycle"] == cycle and again["differences"] == {}
        for field in ("values", "state", "transition", "read", "changed", "strip"):
            assert again[field] == first[field], (cycle, field)
        assert again["search"] == first["search"]
    early = _act(session, "jump", cycle=5)
    assert _act(session, "back", edges=2)["cycle"] == 3
    assert _act(session, "forward", edges=2)["values"] == early["values"]
    assert _rss_mb() - before < PAGE_MB


def test_the_waves_are_written_a_slice_at_a_time_and_the_page_given_their_paths():
    session = _session("waves")
    _act(session, "open")
    _act(session, "step")
    _act(session, "pin", pin="resetN", value=1)
    _searched(session, [7])
    tracemalloc.start()
    try:
        answer = _act(session, "waves")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    waves = answer["waves"]
    text = json.dumps(answer)
    print(f"waves of {waves['cycles']} cycles: {waves['bytes']} bytes written, a message "
          f"of {len(text)}, at most {peak / 2**20:.1f} MB traced")
    # The page is given where the server streams them from, not their text.
    assert len(text) < 64 << 10 and "$enddefinitions" not in text
    assert peak < 1 << 20 < waves["bytes"]
    assert waves["urls"] == [f"/waves/{session.token[:16]}/{name}"
                             for name in ("chip.vcd", "chip.gtkw")]
    folder = chip.WAVES / session.token[:16]
    assert waves["bytes"] == sum((folder / name).stat().st_size
                                 for name in ("chip.vcd", "chip.gtkw"))
    _act(session, "new")                    # a new chip keeps what was offered
    assert (folder / "chip.vcd").is_file()
    session.extra.pop(chip.NAME).close()    # as its session is closed: the disk freed too
    assert not folder.exists()


def test_a_page_that_leaves_gives_its_memory_back(warm):
    before = _rss_mb()
    session = _session("leaves")
    for message in chip.greediest():
        if message["do"] == "waves":
            continue                    # the waves' time is the test above's
        try:
            chip.act(session, message)
        except chip.Invalid:            # the session is full
            pass
    held = _rss_mb() - before
    session.extra.pop(chip.NAME).close()    # as its session is closed
    gc.collect()
    kept = _rss_mb() - before
    print(f"a page's chip held {held:.1f} MB, and after it left {kept:.1f} MB")
    assert held < PAGE_MB and kept < 5
