"""docs/boards.md, "Adding a board", done by a test: a board written here, one module and
its name in the table (boards/gateware/boards/'s BOARDS) and nothing else, is listed by
`ttt boards`, named where an unknown board is refused, and builds: Amaranth elaborates
the desk on its pins and writes the build plan (no place and route), with the
resources its module adds and its LEDs where its wiring puts them.

The board is an iCEBreaker Bitsy with a USB-serial adapter on its PMOD1 for the host
link. Its module is written into this test's own temporary directory, added to the
boards' folder's search path for the test alone, and its name to the table for the
test alone: nothing is written into the checkout, and nothing is left behind.
"""

import importlib
import re
import sys
import textwrap

import pytest

from boards.builds.build import plan
from boards.gateware import boards
from boards.ttt import main as ttt
from sim import CLOCK_HZ

NAME = "bitsy_throwaway"

BOARD = '''
    """The iCEBreaker Bitsy (iCE40UP5K): no front panel; a USB-serial adapter on PMOD1
    is the host link, its button the reset, its two LEDs lamps 0 and 1."""

    from amaranth.build import Attrs
    from amaranth_boards.icebreaker_bitsy import ICEBreakerBitsyPlatform
    from amaranth_boards.resources import UARTResource

    from sim import CLOCK_HZ
    from sim.yosys_json import ICESTORM_LC, ICESTORM_RAM, SB_IO

    from .board import Target


    class Platform(ICEBreakerBitsyPlatform):
        resources = [*ICEBreakerBitsyPlatform.resources,
                     UARTResource(0, rx="1", tx="2", conn=("pmod", 1),
                                  attrs=Attrs(IO_STANDARD="SB_LVCMOS"))]


    def wire(m, pins, desk):
        m.d.comb += [desk.reset_button.eq(pins.input("button", 0)),
                     pins.output("led", 0).eq(desk.lamps[0]),
                     pins.output("led", 1).eq(desk.lamps[1])]


    BOARD = Target(
        "bitsy_throwaway", Platform, clock_hz=CLOCK_HZ, programmer="icebreaker-bitsy",
        summary="iCEBreaker Bitsy (iCE40UP5K): two LEDs, serial on PMOD1 (a test's)",
        front_panel=False, capacity={ICESTORM_LC: 5280, ICESTORM_RAM: 30, SB_IO: 39},
        wire=wire)
'''


@pytest.fixture
def board(tmp_path, monkeypatch):
    """The board's module in a folder of this test's own, searched after the checkout's,
    and its name in the table; what was imported from it is forgotten afterwards."""
    (tmp_path / f"{NAME}.py").write_text(textwrap.dedent(BOARD))
    monkeypatch.setattr(boards, "__path__", [*boards.__path__, str(tmp_path)])
    importlib.invalidate_caches()
    monkeypatch.setitem(boards.BOARDS, NAME, boards.load(NAME))
    yield boards.target(NAME)
    sys.modules.pop(f"{boards.__name__}.{NAME}", None)
    importlib.invalidate_caches()


def listed(capsys):
    assert ttt(["boards"]) == 0
    return dict(line.split(maxsplit=1) for line in capsys.readouterr().out.splitlines())


def test_a_module_and_its_name_in_the_table_are_a_board(board, capsys):
    # Listed by ttt boards with its summary, beside the boards of the checkout, and
    # named where an unknown board is refused.
    assert listed(capsys) == {**{name: known.summary for name, known in boards.BOARDS.items()
                                 if name != NAME},
                              NAME: board.summary}
    with pytest.raises(boards.UnknownBoard, match=f"tang_primer_20k, {NAME}$"):
        boards.target("de0_nano")

    # Its clock is its platform's oscillator, the one the host's side counts in.
    assert board.clock_hz == board.make_platform().default_clk_frequency == CLOCK_HZ

    # The build plan: the desk elaborated on its pins, the serial port on the PMOD its
    # module adds it to (PMOD1 pins 1 and 2, the FPGA's 47 and 48), its LEDs and button.
    files = plan(board).files
    pcf = files["ttt.pcf"]
    assert "set_frequency clk12_0__io 12.0" in pcf
    assert "set_io uart_0__rx__io 47\n" in pcf and "set_io uart_0__tx__io 48\n" in pcf
    assert {"led_0__io", "led_1__io", "button_0__io"} <= set(
        re.findall(r"^set_io (\S+) ", pcf, re.M))
    assert "front_panel" not in pcf
    assert "cell \\ttt.desk \\desk" in files["ttt.il"]


def test_the_board_is_gone_with_its_module_and_its_name(capsys):
    # After the test above, in any order, the checkout holds no such board.
    assert NAME not in boards.BOARDS and NAME not in listed(capsys)
    with pytest.raises(ModuleNotFoundError):
        boards.load(NAME)
