"""Each board's target (boards/gateware/boards/): a board not there is named with the
boards there are, and `ttt` says so in one line."""

import pytest

from boards.gateware.top import UnknownBoard, target
from boards.ttt import main as ttt
from firmware_ref import cli


def test_unknown_board_lists_the_known_ones(capsys):
    with pytest.raises(UnknownBoard, match="icebreaker, icestick"):
        target("ulx3s")
    assert ttt(["bitstream", "--board", "ulx3s"]) == cli.USAGE
    assert capsys.readouterr().err == ("error: unknown board 'ulx3s'; the known boards "
                                       "are: icebreaker, icestick\n")


def test_every_board_runs_at_the_one_clock_the_host_side_counts_in():
    """Each board's module says its clock, which is its platform's oscillator and
    sim.CLOCK_HZ, which the board in a box, the page's desks and the think times count
    in (boards/gateware/rates.py gives it to the host's side)."""
    from boards.gateware.rates import CLOCK_HZ
    from boards.gateware.top import BOARDS
    assert {name: (board.clock_hz, board.make_platform().default_clk_frequency)
            for name, board in BOARDS.items()} \
        == {name: (CLOCK_HZ, CLOCK_HZ) for name in BOARDS}
