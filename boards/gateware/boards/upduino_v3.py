"""The UPduino v3 (iCE40UP5K-SG48): the front panel on its left header, its RGB LED for
three lamps, and a 3.3 V USB-serial adapter on its right header for the host link (its
FTDI FT232H is wired to the flash alone, so it has no serial port of its own). It has no
buttons: the host resets it and sets the switches.

The desk runs from the board's 12 MHz oscillator, which reaches the FPGA (pin 20) only
with the OSC jumper soldered closed; amaranth-boards' default, the FPGA's own oscillator,
is too imprecise for a serial link (10 %)."""

from amaranth.build import Attrs
from amaranth_boards.resources import UARTResource
from amaranth_boards.upduino_v3 import UpduinoV3Platform

from sim.yosys_json import ICESTORM_LC, ICESTORM_RAM, SB_IO

from ..resources import front_panel
from .board import Cable, Target, wire_panel


__all__ = ["PANEL", "FT232H", "Platform", "wire", "BOARD"]

LEFT, RIGHT = ("j", 0), ("j", 1)
LVCMOS = Attrs(IO_STANDARD="SB_LVCMOS")
# The panel on the left header's pins 7 to 18 (FPGA pins 23 to 43): rows 7 to 9, sense
# 10 to 12, red 13 to 15, green 16 to 18.
PANEL = front_panel(
    rows=("7 8 9", LEFT), sense=("10 11 12", LEFT), red=("13 14 15", LEFT),
    green=("16 17 18", LEFT), attrs=LVCMOS,
)

# The FT232H on the FPGA's SPI pins and the flash, as iceprog wires one: openFPGALoader's
# ice40_generic board with this one cable instead of its FT2232H.
FT232H = Cable("FTDI FT232H", "0403:6014", "plug the board in with a data cable",
               option=("--cable", "ft232"))


class Platform(UpduinoV3Platform):
    """The UPduino v3 on its 12 MHz oscillator, with the panel on its left header and a
    USB-serial adapter on its right header's pins 8 (the adapter's TX, the board's RX;
    FPGA pin 19) and 9 (its RX; FPGA pin 18)."""
    default_clk = "clk12"
    resources = [*UpduinoV3Platform.resources, PANEL,
                 UARTResource(0, rx="8", tx="9", conn=RIGHT, attrs=LVCMOS)]


def wire(m, pins, desk):
    """The desk on the panel and the RGB LED."""
    wire_panel(m, pins, desk)
    # Green: prompt; red: fin; blue: win (the ETH chip's lamps 0 to 2).
    led = pins.request("rgb_led")
    for colour, signal in (("g", desk.lamps[0]), ("r", desk.lamps[1]),
                           ("b", desk.lamps[2])):
        m.d.comb += pins.buffer("o", getattr(led, colour), f"rgb_led_{colour}").o.eq(signal)


BOARD = Target(
    "upduino_v3", Platform, clock_hz=12_000_000, programmer="ice40_generic",
    summary="UPduino v3 (iCE40UP5K): front panel on the left header, RGB LED, serial over "
            "an adapter on the right header",
    front_panel=True, capacity={ICESTORM_LC: 5280, ICESTORM_RAM: 30, SB_IO: 39}, wire=wire,
    cable=FT232H)
