"""BENCHMARKS.md's table of every wait a page can meet: each figure of a run beside its
goal and beside the figure measured before the board in a box answered at the chip's
speed, and why a goal is missed where one is."""

import json
from pathlib import Path

from sim import BUILD

__all__ = ["WAITS_BEFORE", "WAITS_WHY", "section"]

# Each wait a page can meet as measured on this machine on 2026-11-28, before a board in
# a box had a desk for each game and a fast link (commit afd0c73): the desks' from make
# serve with a page alone, the rest from that day's BENCHMARKS.md and make formal runs.
WAITS_BEFORE = {"desk eth": "35 / 48 ms", "desk museum": "152 / 256 ms",
                "desk eth,ktane,tactic,ultimate": "356 / 524 ms",
                "site key": "71 / 86 ms", "class": "82 ms", "rush": "844 ms",
                "flood": "54 ms", "visit": "5.3 s", "formal": "268 to 333 s",
                "die step": "(no die on the page)"}
# Why a wait may miss its goal, and what would close it: said under the table when it
# does.
WAITS_WHY = {
    "visit": "most of it is Chromium compiling Pyodide's WebAssembly runtime as it "
             "streams in (the static site's table below: the other parts have come "
             "within a second); a smaller runtime, or a panel that answers its first "
             "keys before Python has started, would close it.",
    "formal": "the mutants' bounded checks and the netlists' equivalences are most of "
              "make formal's jobs (the longest are listed under make formal below), and "
              "two cores run two at a time; more cores, or the equivalences' Yosys runs "
              "shared between the pairs that read the same netlist, would close it.",
    "rush": "thirty first moves at one instant, each a search of thousands of clocks on "
            "its page's desk, and every key through the server's Python and the pages' "
            "(the benchmark's own, on the same two cores): the last answers wait for the "
            "others. A page alone answers in milliseconds (the desks' table); a faster "
            "compiled desk, or more cores, would close it.",
}


def _formal_median(path=BUILD / "formal" / "report.json"):
    """The median wall seconds of make formal's last three whole runs, or None."""
    try:
        runs = json.loads(Path(path).read_text()).get("runs", [])
    except (OSError, ValueError):
        runs = []
    walls = sorted(run["wall"] for run in runs[-3:])
    return walls[len(walls) // 2] if walls else None


def _wait_rows(result):
    """(key, what, goal, measured text, met) of each wait a page can meet; measured
    None where the run has no figure."""
    room, site = result.get("classroom", {}), result.get("site", {})
    web = result.get("web", {})
    page = site.get("page", {})

    def keys(figure):
        return figure and (f"{figure['median_ms']:.0f} / {figure['worst_ms']:.0f} ms",
                           figure["median_ms"] < 50 and figure["worst_ms"] < 100)

    def under(value, goal, unit, digits=0):
        return value is not None and (f"{value:.{digits}f} {unit}", value < goal)
    rows = [(f"desk {desk}", f"a key against the chip, `make serve GAME={desk}`: median / "
             "worst", "< 50 / < 100 ms", keys(room.get("desks", {}).get(desk)))
            for desk in ("eth", "museum", "eth,ktane,tactic,ultimate")]
    rows += [
        ("site key", "a key against the chip on the static site (click to lights, each "
         "game a desk of its own): median / worst", "< 50 / < 100 ms",
         keys(page and {"median_ms": page["median_ms"], "worst_ms": page["worst_ms"]})),
        ("class", "30 pages pausing before their keys: p95", "< 150 ms",
         under(room.get("class", {}).get("p95_ms"), 150, "ms")),
        ("rush", "30 pages pressing at the same instant: p95", "< 150 ms",
         under(room.get("rush", {}).get("p95_ms"), 150, "ms")),
        ("flood", "a page's key while another floods its chip: worst", "< 100 ms",
         under(room.get("flood", {}).get("worst_ms"), 100, "ms")),
        ("die step", "a click on Step to the die drawn, `make serve`: median / worst",
         "< 50 ms", web.get("die_step_median_ms") is not None and (
             f"{web['die_step_median_ms']:.0f} / {web['die_step_worst_ms']:.0f} ms",
             web["die_step_worst_ms"] < 50)),
        ("visit", "the static site, first visit to a playable panel", "< 3 s",
         under(site.get("load_median_s"), 3, "s", 1)),
        ("formal", "`make formal`, median of its last three whole runs", "< 240 s",
         under(_formal_median(), 240, "s")),
    ]
    return rows


def section(result):
    """Every wait a page can meet, beside its goal and its figure before."""
    lines = ["", "## Waits a page can meet", "",
             "Each beside its goal and beside its figure of 2026-11-28, before a board in "
             "a box had a desk for each game and a fast link (docs/boards.md, \"The board "
             "in a box\"); the sections below say how each is measured.", "",
             "| wait | goal | before | now | met |", "| --- | --- | --- | --- | --- |"]
    missed = []
    for key, what, goal, measured in _wait_rows(result):
        now, met = measured or ("not measured", None)
        lines.append(f"| {what} | {goal} | {WAITS_BEFORE[key]} | {now} | "
                     f"{'-' if met is None else 'yes' if met else 'no'} |")
        if met is False and key in WAITS_WHY:
            missed.append(f"- {what}: {WAITS_WHY[key]}")
    return lines + (["", "Where a goal is missed:", "", *missed] if missed else [])
