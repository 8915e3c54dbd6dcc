"""The Tang Primer 20K on its Dock (Gowin GW2A-18C): the front panel on PMOD0 and PMOD1
as on the iCEBreaker's PMOD1A and PMOD1B, the Dock's buttons for the reset and the
switches, its six LEDs for the lamps, and the USB serial port of its BL702 (which also
programs it) for the host. Its oscillator is 27 MHz, and the desk runs at it."""

from amaranth.build import Attrs
from amaranth.hdl import Cat
from amaranth_boards.tang_primer_20k import TangPrimer20kDockPlatform

from ..resources import front_panel
from .board import Cable, Target, wire_panel
from .family import GOWIN


__all__ = ["PANEL", "BL702", "Platform", "wire", "BOARD"]

# The panel on the Dock's PMOD0 (top left: rows and sense lines) and PMOD1 (red and
# green columns), pin for pin as on the iCEBreaker's PMOD1A and PMOD1B.
PANEL = front_panel(
    rows=("1 2 3", ("pmod", 0)),
    sense=("7 8 9", ("pmod", 0)),
    red=("1 2 3", ("pmod", 1)),
    green=("7 8 9", ("pmod", 1)),
    attrs=Attrs(IO_TYPE="LVCMOS33"), pullup=GOWIN.pullup,
)

# The Dock's BL702 answers as an FT2232 would (openFPGALoader's tangprimer20k board).
BL702 = Cable("BL702 USB-JTAG", "0403:6010",
              "plug the Dock's USB-JTAG port in with a data cable")


class Platform(TangPrimer20kDockPlatform):
    """The Tang Primer 20K Dock with the front panel on PMOD0 and PMOD1."""
    resources = [*TangPrimer20kDockPlatform.resources, PANEL]


def wire(m, pins, desk):
    """The desk on the panel, the Dock's buttons S0 to S2 and its six LEDs."""
    wire_panel(m, pins, desk)
    # S0 resets (hold it to enter a position); S1 toggles userbegins, S2 piN.
    m.d.comb += [
        desk.reset_button.eq(pins.input("button", 0)),
        desk.buttons.eq(Cat(pins.input("button", 1), pins.input("button", 2))),
    ]
    # LED0 to LED3 the lamps (ETH: prompt, fin, win, dark), LED4 and LED5 the switches
    # (userbegins, piN).
    for number, signal in {0: desk.lamps[0], 1: desk.lamps[1], 2: desk.lamps[2],
                           3: desk.lamps[3], 4: desk.switches[0],
                           5: desk.switches[1]}.items():
        m.d.comb += pins.output("led", number).eq(signal)


BOARD = Target(
    "tang_primer_20k", Platform, clock_hz=27_000_000, programmer="tangprimer20k",
    summary="Tang Primer 20K Dock (Gowin GW2A-18C): front panel on PMOD0/PMOD1, buttons "
            "and LEDs, USB serial",
    front_panel=True, capacity={"LUT4": 20736, "BSRAM": 46, "IOB": 384}, wire=wire,
    family=GOWIN, cable=BL702)
