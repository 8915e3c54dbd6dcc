"""Every board's whole build, from the desk's RTLIL to its bitstream, with its family's
tools from PyPI (boards/gateware/boards/family.py): make test-builds runs them, a board
a test, each into a folder of its own. The iCEBreaker's and the iCEstick's are built by
their journeys (tests/test_journeys.py: make bitstream, make bitstream BOARD=icestick)."""

import json
import re

import pytest

from boards.builds.build import NAME, REPORT, ROUTED, bitstream
from boards.gateware.top import BOARDS
from user import ROOT

pytestmark = [pytest.mark.build, pytest.mark.early]

# The smallest bitstream each family writes for a design this size: the iCE40's and
# the ECP5's are the whole device's configuration, a Gowin's too (uncompressed).
SMALLEST = {"iCE40": 30_000, "ECP5": 50_000, "Gowin": 100_000}


@pytest.mark.parametrize("name", [name for name in BOARDS
                                  if name not in ("icebreaker", "icestick")])
def test_a_board_builds_with_its_familys_tools_and_reports_it(name, tmp_path):
    board = BOARDS[name]
    out = tmp_path / name
    report = bitstream(board, out)
    assert json.loads((out / REPORT).read_text()) == report
    assert report["board"] == name and report["family"] == board.family.name
    # The bitstream, and the netlists the checks of the chip take (gate by gate).
    assert (out / board.family.bitstream).stat().st_size > SMALLEST[board.family.name]
    assert (out / f"{NAME}.json").exists() and (out / ROUTED).exists()
    logic = report["logic_cells"]
    assert logic["cell"] == board.family.cells["logic"]
    assert logic["available"] == board.capacity[logic["cell"]]
    # The desk with the chip, as lean on every family: under 1000 LUTs or cells, 1300
    # on a Gowin, whose builds have no carry chains (docs/boards.md, Decisions).
    assert 500 < logic["used"] < (1300 if board.family.name == "Gowin" else 1000)
    assert report["flip_flops"] >= 97                   # the chip's own, at least
    assert 0 < report["ram_blocks"]["used"] <= report["ram_blocks"]["available"]
    # At the board's own clock, with room: nextpnr's fmax above it.
    assert report["clock_mhz"] == board.clock_hz / 1e6
    assert report["fmax_mhz"] > report["clock_mhz"]
    assert report["worst_move_cycles"] == 15007
    assert report["worst_move_ms"] == round(15007 / report["clock_mhz"] / 1000, 4)
    # docs/boards.md's figures of one run are this build's, within a placement's drift.
    row = re.search(rf"^\| `{name}` \| (\d+) / (\d+) \w+ \| (\d+) \| (\d+) / (\d+) \| "
                    rf"(\d+) MHz \| ([\d.]+) MHz \| ([\d.]+) ms \|$",
                    (ROOT / "docs/boards.md").read_text(), re.M)
    assert row, f"docs/boards.md has no figures for the {name}"
    used, available, flops, rams, ram_blocks, clock, fmax, worst = row.groups()
    assert int(available) == logic["available"] and int(clock) == report["clock_mhz"]
    assert abs(int(used) / logic["used"] - 1) < 0.1
    assert abs(int(flops) - report["flip_flops"]) <= 10
    assert int(rams) == report["ram_blocks"]["used"]
    assert abs(float(fmax) / report["fmax_mhz"] - 1) < 0.2
    assert float(worst) == round(report["worst_move_ms"], 3)
