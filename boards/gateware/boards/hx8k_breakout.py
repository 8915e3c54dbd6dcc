"""Lattice's iCE40-HX8K Breakout Board (iCE40HX8K-CT256): the front panel on its header
J2, its eight LEDs for the lamps and switches, and the USB serial port of its FTDI
FT2232H (channel B) for the host. It has no buttons: the host resets it and sets the
switches. Its oscillator is 12 MHz.

Its jumpers as shipped (J6 and J7 across, for the flash) are what ``make prog`` needs."""

from amaranth.build import Attrs
from amaranth_boards.ice40_hx8k_b_evn import ICE40HX8KBEVNPlatform

from sim.yosys_json import ICESTORM_LC, ICESTORM_RAM, SB_IO

from ..resources import front_panel
from .board import Target, wire_panel


__all__ = ["PANEL", "Platform", "wire", "BOARD"]

J2 = ("j", 2)
# The panel on header J2's pins 4 to 6, 9 to 14 and 17 to 19 (its pins 1 to 3, 7, 8, 15
# and 16 are power and ground).
PANEL = front_panel(
    rows=("4 5 6", J2), sense=("9 10 11", J2), red=("12 13 14", J2),
    green=("17 18 19", J2), attrs=Attrs(IO_STANDARD="SB_LVCMOS"),
)


class Platform(ICE40HX8KBEVNPlatform):
    """The breakout board with the front panel on J2."""
    resources = [*ICE40HX8KBEVNPlatform.resources, PANEL]


def wire(m, pins, desk):
    """The desk on the panel and the eight LEDs."""
    wire_panel(m, pins, desk)
    # D2 to D5 the lamps (ETH: prompt, fin, win, dark), D6 and D7 the switches
    # (userbegins, piN), D9 a position is being entered.
    for number, signal in {0: desk.lamps[0], 1: desk.lamps[1], 2: desk.lamps[2],
                           3: desk.lamps[3], 4: desk.switches[0], 5: desk.switches[1],
                           7: desk.setup}.items():
        m.d.comb += pins.output("led", number).eq(signal)


BOARD = Target(
    "hx8k_breakout", Platform, clock_hz=12_000_000, programmer="ice40_generic",
    summary="iCE40-HX8K Breakout Board (iCE40HX8K): front panel on J2, LEDs, USB serial",
    front_panel=True, capacity={ICESTORM_LC: 7680, ICESTORM_RAM: 32, SB_IO: 206}, wire=wire)
