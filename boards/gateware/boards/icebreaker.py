"""The iCEBreaker (iCE40UP5K): the front panel on PMOD1A and PMOD1B, the break-off
board's buttons and LEDs on PMOD2 for the reset, the switches and the lamps, and the
USB serial port for the host."""

from amaranth.build import Attrs
from amaranth.hdl import Cat
from amaranth_boards.icebreaker import ICEBreakerPlatform

from sim import CLOCK_HZ
from sim.yosys_json import ICESTORM_LC, ICESTORM_RAM, SB_IO

from ..resources import front_panel
from .board import Target, wire_panel


__all__ = ["PANEL", "Platform", "wire", "BOARD"]

# The panel on PMOD1A and PMOD1B; PMOD2 keeps the break-off board's LEDs and buttons,
# which are the switches and status lamps.
PANEL = front_panel(
    rows=("1 2 3", ("pmod", 0)),
    sense=("7 8 9", ("pmod", 0)),
    red=("1 2 3", ("pmod", 1)),
    green=("7 8 9", ("pmod", 1)),
    attrs=Attrs(IO_STANDARD="SB_LVCMOS"),
)


class Platform(ICEBreakerPlatform):
    """The iCEBreaker with its break-off board in PMOD2 and the front panel."""
    resources = [*ICEBreakerPlatform.resources, *ICEBreakerPlatform.break_off_pmod, PANEL]


def wire(m, pins, desk):
    """The desk on the panel, the buttons of both boards and their seven LEDs."""
    wire_panel(m, pins, desk)
    # The main board's button and the break-off's first one both reset.
    m.d.comb += [
        desk.reset_button.eq(pins.input("button", 0) | pins.input("button", 1)),
        desk.buttons.eq(Cat(pins.input("button", 2), pins.input("button", 3))),
    ]
    # Main board: red = entering a position, green = lamp 0. Break-off: the red LED (2) =
    # lamp 2, the green ones (3 to 6) = lamps 3 and 1, switches 0 and 1 (for the ETH
    # chip: prompt; win; dark, fin, userbegins, piN; for a museum machine LED3 is its
    # blunder lamp).
    for number, signal in {0: desk.setup, 1: desk.lamps[0], 2: desk.lamps[2],
                           3: desk.lamps[3], 4: desk.lamps[1], 5: desk.switches[0],
                           6: desk.switches[1]}.items():
        m.d.comb += pins.output("led", number).eq(signal)


BOARD = Target(
    "icebreaker", Platform, clock_hz=CLOCK_HZ, programmer="ice40_generic",
    summary="iCEBreaker (iCE40UP5K): front panel on PMOD1A/1B, break-off buttons and "
            "LEDs, USB serial",
    front_panel=True, capacity={ICESTORM_LC: 5280, ICESTORM_RAM: 30, SB_IO: 39}, wire=wire,
    benchmarked=True)
