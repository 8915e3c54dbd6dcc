"""The OrangeCrab r0.2 (ECP5 LFE5U-25F): the front panel on twelve of its Feather pins,
its button for the reset, its RGB LED for three lamps. Its USB port goes to the FPGA
itself, with no serial chip, so the host link is a 3.3 V USB-serial adapter on the
Feather pins 0 (the adapter's TX, the board's RX) and 1 (its RX); the switches are set
from the host. Its oscillator is 48 MHz, and the desk runs at it.

Programming goes through its DFU bootloader: hold the button while plugging it in."""

from amaranth.build import Attrs
from amaranth.vendor import LatticeECP5Platform
from amaranth_boards.orangecrab_r0_2 import OrangeCrabR0_2_25FPlatform
from amaranth_boards.resources import UARTResource

from ..resources import front_panel
from .board import Cable, Target, wire_panel
from .family import ECP5


__all__ = ["PANEL", "DFU", "Platform", "wire", "BOARD"]

IO = ("io", 0)
# The panel on the Feather pins 5 to 13 and A0 to A4: rows 5, 6, 9; sense 10, 11, 12;
# red 13, A0, A1; green A2, A3, A4.
PANEL = front_panel(
    rows=("5 6 9", IO), sense=("10 11 12", IO), red=("13 a0 a1", IO),
    green=("a2 a3 a4", IO), attrs=Attrs(IO_TYPE="LVCMOS33"), pullup=ECP5.pullup,
)

# Its bootloader (Foboot), which openFPGALoader's orangeCrab board writes over DFU.
DFU = Cable("DFU bootloader", "1209:5af0",
            "hold its button while plugging it in, to start its bootloader,", sram=False)


class Platform(OrangeCrabR0_2_25FPlatform):
    """The OrangeCrab with the panel and a USB-serial adapter on its Feather pins; its
    bitstream is ecppack's, as the ECP5 flow makes it (openFPGALoader needs no DFU
    suffix, so amaranth-boards' dfu-suffix step, a tool PyPI lacks, is left out)."""
    resources = [*OrangeCrabR0_2_25FPlatform.resources, PANEL,
                 UARTResource(0, rx="0", tx="1", conn=IO, attrs=Attrs(IO_TYPE="LVCMOS33"))]

    @property
    def required_tools(self):
        return LatticeECP5Platform.required_tools.fget(self)

    @property
    def command_templates(self):
        return LatticeECP5Platform.command_templates.fget(self)


def wire(m, pins, desk):
    """The desk on the panel, its button and its RGB LED."""
    wire_panel(m, pins, desk)
    m.d.comb += desk.reset_button.eq(pins.input("button", 0))
    # Green: prompt; red: fin; blue: win (the ETH chip's lamps 0 to 2).
    led = pins.request("rgb_led")
    for colour, signal in (("g", desk.lamps[0]), ("r", desk.lamps[1]),
                           ("b", desk.lamps[2])):
        m.d.comb += pins.buffer("o", getattr(led, colour), f"rgb_led_{colour}").o.eq(signal)


BOARD = Target(
    "orangecrab", Platform, clock_hz=48_000_000, programmer="orangeCrab",
    summary="OrangeCrab r0.2 (ECP5 LFE5U-25F): front panel on the Feather pins, RGB LED, "
            "serial over an adapter on pins 0/1",
    front_panel=True, capacity={"TRELLIS_COMB": 24288, "DP16KD": 56, "TRELLIS_IO": 197},
    wire=wire, family=ECP5, cable=DFU)
