"""The Tang Nano 9K (Gowin GW1NR-9): no front panel, so the host plays it over the USB
serial port of its BL702 (which also programs it); its button S1 is the reset, S2 toggles
userbegins, and its six LEDs show the lamps and switches. Its oscillator is 27 MHz, and
the desk runs at it.

Its header pins are not PMODs and lie in banks of two voltages (some 1.8 V), so the
project declares no panel on them: it is played from the host (``make play-board
PORT=...``), as the iCEstick is."""

from amaranth.hdl import Cat, Const
from amaranth_boards.tang_nano_9k import TangNano9kPlatform

from .board import Cable, Target
from .family import GOWIN


__all__ = ["BL702", "wire", "BOARD"]

# Sipeed's BL702 answers as an FT2232 would (openFPGALoader's tangnano9k board), its
# first channel JTAG, its second the serial port.
BL702 = Cable("BL702 USB-JTAG", "0403:6010",
              "plug the board in with a data cable")


def wire(m, pins, desk):
    """The desk's reset on S1, userbegins on S2, its lamps and switches on the LEDs."""
    m.d.comb += [
        desk.reset_button.eq(pins.input("button", 0)),
        desk.buttons.eq(Cat(pins.input("button", 1), Const(0))),
    ]
    # LED0 to LED3 the lamps (ETH: prompt, fin, win, dark), LED4 and LED5 the switches
    # (userbegins, piN).
    for number, signal in {0: desk.lamps[0], 1: desk.lamps[1], 2: desk.lamps[2],
                           3: desk.lamps[3], 4: desk.switches[0],
                           5: desk.switches[1]}.items():
        m.d.comb += pins.output("led", number).eq(signal)


BOARD = Target(
    "tang_nano_9k", TangNano9kPlatform, clock_hz=27_000_000, programmer="tangnano9k",
    summary="Tang Nano 9K (Gowin GW1NR-9): buttons and LEDs, USB serial",
    front_panel=False, capacity={"LUT4": 8640, "BSRAM": 26, "IOB": 276}, wire=wire,
    family=GOWIN, cable=BL702)
