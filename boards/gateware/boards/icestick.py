"""The iCEstick (iCE40HX1K): no front panel (its PMOD has 8 pins, the panel needs 12),
so the host plays it over the USB serial port; its five LEDs are the lamps and
switches."""

from amaranth_boards.icestick import ICEStickPlatform

from sim import CLOCK_HZ
from sim.yosys_json import ICESTORM_LC, ICESTORM_RAM, SB_IO

from .board import Target


__all__ = ["wire", "BOARD"]


def wire(m, pins, desk):
    """The desk's lamps and switches on the five LEDs."""
    # No keys or buttons: the host link plays it. The green LED (4) is lamp 0; the red
    # ones lamps 1 and 2 and switches 0 and 1 (ETH: prompt; fin, win, userbegins, piN).
    for number, signal in {0: desk.lamps[1], 1: desk.lamps[2], 2: desk.switches[0],
                           3: desk.switches[1], 4: desk.lamps[0]}.items():
        m.d.comb += pins.output("led", number).eq(signal)


BOARD = Target(
    "icestick", ICEStickPlatform, clock_hz=CLOCK_HZ, programmer="ice40_generic",
    summary="iCEstick (iCE40HX1K): status LEDs, USB serial",
    front_panel=False, capacity={ICESTORM_LC: 1280, ICESTORM_RAM: 16, SB_IO: 96}, wire=wire,
    benchmarked=True)
