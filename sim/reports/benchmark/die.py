"""The die (make die, docs/die.md): qflow's flow timed from nothing, and the die on the
page timed a step at a time: the post-layout netlist clocked gate by gate beside the
page's chip (sim.watch.die) through the first cycles of B3's search, each step with
its values read and written as the page gets them, and the whole search caught up;
the page's own time from a click on Step to the die drawn comes with the browser's
figures (`web`)."""

import statistics
import tempfile
import time
from pathlib import Path

from sim.verification import die
from sim.watch.die import Die, Following
from sim.watch.watch import Watch, worst_search

__all__ = ["figures", "section"]

STEPS = 200                 # steps timed one by one, from B3 held


def figures(log=print):
    """The flow's seconds from an empty cache, the die's steps and catch-up."""
    if die.missing():
        return {"missing": die.missing()}
    log("the die: qflow from nothing, then its steps on the page")
    with tempfile.TemporaryDirectory() as folder:
        began = time.perf_counter()
        die.layout(cache=Path(folder))
        flow_s = time.perf_counter() - began
    began = time.perf_counter()
    netlist = Die(die.page(die.layout()))
    read_s = time.perf_counter() - began
    watch = Watch()
    worst_search(watch)
    following = Following(netlist, watch)
    steps = []
    for cycle in range(1, STEPS + 1):
        began = time.perf_counter()
        _, state = following.reach(cycle)
        "".join(map(str, following.values(cycle, state)))
        steps.append((time.perf_counter() - began) * 1000)
    began = time.perf_counter()
    following.reach(watch.head)
    catch_s = time.perf_counter() - began
    return {"flow_s": flow_s, "read_s": read_s, "cells": len(netlist.description["cells"]),
            "nets": len(netlist.nets), "steps": len(steps),
            "step_median_ms": statistics.median(steps), "step_worst_ms": max(steps),
            "caught_up": watch.head - STEPS, "catch_s": catch_s}


def section(result):
    """BENCHMARKS.md's lines of the die: its figures and the page's (result's "die" and
    "web")."""
    found, web = result.get("die", {"missing": "not measured"}), result.get("web", {})
    lines = ["", "## The die", "",
             "make die's flow (qflow: Yosys, GrayWolf, qrouter, Vesta) and the die on the "
             "page (docs/die.md). The page's goal: one step drawn within 50 ms.", ""]
    if "missing" in found:
        return lines + [f"missing: {found['missing']}"]
    lines += [
        "| | measured |",
        "| --- | --- |",
        f"| the flow from an empty cache: synthesis, placement, routing, timing | "
        f"{found['flow_s']:.0f} s |",
        f"| the die's netlist read and compiled to one Python function "
        f"({found['cells']:,} cells, {found['nets']:,} nets) | {found['read_s'] * 1000:.0f} ms |",
        f"| a step of the die beside the page's chip, its values as the page gets them, "
        f"median over {found['steps']} (slowest) | {found['step_median_ms']:.2f} ms "
        f"({found['step_worst_ms']:.2f} ms) |",
        f"| B3's search caught up, {found['caught_up']:,} cycles at once | "
        f"{found['catch_s']:.2f} s ({found['caught_up'] / found['catch_s']:,.0f} cycles/s) |",
    ]
    if "die_step_median_ms" in web:
        lines.append(f"| a click on Step to the die drawn, in the page, median over "
                     f"{web['die_steps']} (slowest) | {web['die_step_median_ms']:.1f} ms "
                     f"({web['die_step_worst_ms']:.1f} ms) |")
    return lines
