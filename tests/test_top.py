"""Each board's target (boards/gateware/boards/): a board not there is named with the
boards there are, and `ttt` says so in one line."""

import pytest

from boards.gateware.top import UnknownBoard, target
from boards.ttt import main as ttt
from firmware_ref import cli


def test_unknown_board_lists_the_known_ones(capsys):
    known = ("icebreaker, icestick, hx8k_breakout, upduino_v3, ulx3s, orangecrab, "
             "tang_nano_9k, tang_primer_20k")
    with pytest.raises(UnknownBoard, match=known):
        target("de0_nano")
    assert ttt(["bitstream", "--board", "de0_nano"]) == cli.USAGE
    assert capsys.readouterr().err == (f"error: unknown board 'de0_nano'; the known boards "
                                       f"are: {known}\n")


def test_every_board_runs_the_desk_at_its_own_oscillator():
    """Each board's module says its clock, its platform's oscillator, and the desk counts
    its timings in it (docs/boards.md, Decisions): the serial link's bit within 1 % of
    115,200 baud, a panel row within 1 % of 333 us, a blink within a factor of 1.5 of
    0.35 s, at 12, 25, 27 and 48 MHz alike. The host's side counts the chip's cycles,
    the same on every board."""
    from boards.gateware.rates import BAUD, CLOCK_HZ
    from boards.gateware.top import BOARDS, ROW_HZ, desk_for
    from hdl.cartridge import blink_clocks
    from sim import catalogue
    assert {board.clock_hz for board in BOARDS.values()} == \
        {CLOCK_HZ, 25_000_000, 27_000_000, 48_000_000}
    for board in BOARDS.values():
        assert board.clock_hz == board.make_platform().default_clk_frequency, board.name
        desk = desk_for([catalogue.CHIP.cartridge()], board.clock_hz)
        assert abs(desk.bit_cycles * BAUD / board.clock_hz - 1) < 0.01, board.name
        assert abs(desk.slot_cycles * ROW_HZ / board.clock_hz - 1) < 0.01, board.name
        # A blinking cartridge's blink, as the desk gives it (desk_for).
        assert 0.35 / 1.5 < blink_clocks(board.clock_hz) / board.clock_hz < 0.35 * 1.5, \
            board.name
