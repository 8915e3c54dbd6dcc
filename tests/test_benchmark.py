"""make benchmark: every figure measured, or missing with its reason; nothing timed fails.

One quick run (--quick: one session, one run, no slow exhaustive runs) into a
temporary build directory, with one board's report planted there.
"""

import json
import re

import pytest

from boards.tools import benchmark, build as builds


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    build = tmp_path_factory.mktemp("build")
    (build / "icebreaker").mkdir()
    report = {"board": "icebreaker", "device": "iCE40UP5K-SG48",
              "logic_cells": {"used": 1199, "available": 5280}, "flip_flops": 397,
              "clock_mhz": 12.0, "fmax_mhz": 27.8, "worst_move_cycles": 15007,
              "worst_move_ms": 1.2506, "worst_move_ms_at_fmax": 0.5398}
    (build / "icebreaker" / "report.json").write_text(json.dumps(report))
    patch = pytest.MonkeyPatch()
    patch.setattr(benchmark, "BUILD", build)
    patch.setattr(builds, "BUILD", build)           # where the boards' reports are read
    out = tmp_path_factory.mktemp("out")
    assert benchmark.run(quick=True, out=out) == 0
    patch.undo()
    return build, (out / "BENCHMARKS.md").read_text(), \
        json.loads((build / "benchmark.json").read_text())


def test_every_simulator_has_a_figure_or_a_reason(quick):
    _, text, result = quick
    simulators = {row["simulator"] for row in result["speed"]}
    assert simulators == {"golden model", "Amaranth simulator", "cocotb + Verilator",
                          "cocotb + Icarus", "compiled (CXXRTL)"}
    for row in result["speed"]:
        assert row.get("cycles_per_s", 0) > 0 or row["missing"], row
    measured = {row["simulator"] for row in result["speed"] if "cycles_per_s" in row}
    assert {"golden model", "Amaranth simulator", "cocotb + Verilator",
            "compiled (CXXRTL)"} <= measured     # all installed with the project
    # Every row of every table: numbers, or 'missing:' and why.
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| ---"):
            assert "| – |" not in line or "missing: " in line, line


def test_targets_are_ratios_of_the_measured_rows(quick):
    _, text, result = quick
    speed = {(r["simulator"], r["mode"]): r for r in result["speed"] if "cycles_per_s" in r}
    amaranth = speed["Amaranth simulator", "1 session, one chip"]["cycles_per_s"]
    compiled = speed["compiled (CXXRTL)", "1 session, one chip, batch"]["cycles_per_s"]
    targets = result["targets"]
    assert targets["compiled_over_amaranth"] == pytest.approx(compiled / amaranth)
    games = next(r for r in result["all_games"] if r["simulator"].startswith("compiled"))
    assert games["cycles"] > 300_000 and games["presses"] == 2871
    assert targets["all_games_compiled_seconds"] == games["seconds"]
    assert re.search(r"\| every game in lockstep, compiled chip \| < 10 s \| [\d.]+ s \|",
                     text)
    assert "missing: not run with --quick" in text


def test_think_times_boards_and_machine_are_reported(quick):
    build, text, result = quick
    think = result["think_times"]
    assert think["worst"] == 15007 and think["positions"] == 1253
    assert sum(count for _, _, count in think["bins"]) == think["positions"]
    png = build / "benchmark" / "think_times.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| icebreaker (iCE40UP5K-SG48) | 1199 / 5280 | 397 | 27.8 MHz |" in text
    assert "| icestick | – | – | – | – | missing: no build: make bitstream " \
           "BOARD=icestick |" in text
    assert result["machine"]["cores"] >= 1 and result["machine"]["python"]
    assert "`ttt benchmark --quick`" in text
