"""The ULX3S (ECP5 LFE5U-85F): the front panel on the GPIO header's first six pairs, its
buttons for the reset and the switches, its eight LEDs for the lamps, and the USB serial
port of its FTDI FT231X for the host. Its oscillator is 25 MHz, and the desk runs at it.

The 12F, 25F and 45F boards differ in their FPGA alone: change `_ULX3SPlatform`'s
subclass below to theirs (amaranth-boards' ``ULX3S_25F_Platform``, ...) for them."""

from amaranth.build import Attrs
from amaranth.hdl import Cat
from amaranth_boards.ulx3s import ULX3S_85F_Platform

from ..resources import front_panel
from .board import Cable, Target, wire_panel
from .family import ECP5


__all__ = ["PANEL", "Platform", "wire", "BOARD"]

# The panel on the GPIO header J1, its pairs 0 to 5 (GP0-GP5 and GN0-GN5, 3.3 V, beside
# the header's 3.3 V and ground pins): the rows and red columns on the GPs, the sense
# lines and green columns on the GNs.
PANEL = front_panel(
    rows=("0+ 1+ 2+", ("gpio", 0)),
    sense=("0- 1- 2-", ("gpio", 0)),
    red=("3+ 4+ 5+", ("gpio", 0)),
    green=("3- 4- 5-", ("gpio", 0)),
    attrs=Attrs(IO_TYPE="LVCMOS33"), pullup=ECP5.pullup,
)


class Platform(ULX3S_85F_Platform):
    """The ULX3S with the front panel on its GPIO header."""
    resources = [*ULX3S_85F_Platform.resources, PANEL]


def wire(m, pins, desk):
    """The desk on the panel, the buttons F1, UP and DOWN, and the eight LEDs."""
    wire_panel(m, pins, desk)
    # F1 resets (hold it to enter a position); UP toggles userbegins, DOWN piN. The PWR
    # button switches the board off, and is left to it.
    m.d.comb += [
        desk.reset_button.eq(pins.input("button_fire", 0)),
        desk.buttons.eq(Cat(pins.input("button_up"), pins.input("button_down"))),
    ]
    # LED0 to LED3 the lamps (ETH: prompt, fin, win, dark), LED4 and LED5 the switches
    # (userbegins, piN), LED7 a position is being entered.
    for number, signal in {0: desk.lamps[0], 1: desk.lamps[1], 2: desk.lamps[2],
                           3: desk.lamps[3], 4: desk.switches[0], 5: desk.switches[1],
                           7: desk.setup}.items():
        m.d.comb += pins.output("led", number).eq(signal)


BOARD = Target(
    "ulx3s", Platform, clock_hz=25_000_000, programmer="ulx3s",
    summary="ULX3S (ECP5 LFE5U-85F): front panel on the GPIO header, buttons and LEDs, "
            "USB serial",
    front_panel=True, capacity={"TRELLIS_COMB": 83640, "DP16KD": 208, "TRELLIS_IO": 365},
    wire=wire, family=ECP5,
    cable=Cable("FTDI FT231X", "0403:6015", "plug the board's USB port US1 in with a "
                                            "data cable"))
