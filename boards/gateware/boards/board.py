"""What a board's module says of its board (`Target`), the cable openFPGALoader finds it
by (`Cable`), the pins its wiring takes (`Pins`) and the front panel's wiring on them
(`wire_panel`), the same on every board that carries one."""

from collections.abc import Callable
from dataclasses import dataclass, field

from amaranth.lib import io

from .family import ICE40, Family


__all__ = ["Cable", "FT2232H", "Target", "Pins", "wire_panel"]


@dataclass(frozen=True)
class Cable:
    """What openFPGALoader programs a board through, as a person finds it.

    Members
    -------
    chip : str
        What answers on USB: ``FTDI FT2232H``, or a bootloader.
    usb : str
        Its USB vendor and product id, as ``lsusb`` lists it.
    connect : str
        How to connect it so that it answers.
    option : tuple
        openFPGALoader's options beyond ``--board`` where its board's default cable is
        not this board's (``("--cable", "ft232")``).
    sram : bool
        Whether it can load the FPGA's SRAM (``make load``): a DFU bootloader writes
        its flash only.
    """
    chip: str
    usb: str
    connect: str
    option: tuple = ()
    sram: bool = True


# The iCEBreaker's and the iCEstick's: channel A on the FPGA's SPI pins and the flash,
# channel B the serial port.
FT2232H = Cable("FTDI FT2232H", "0403:6010", "plug the board in with a data cable")


@dataclass(frozen=True)
class Target:
    """A board the chip can be built for.

    Members
    -------
    name : str
        What ``--board`` and make's ``BOARD`` call it: its module's name.
    platform : type
        Its amaranth-boards platform, with the resources the console adds to it.
    clock_hz : int
        Its oscillator, which the desk counts in: the platform's ``default_clk_frequency``.
    programmer : str
        The board in ``openFPGALoader --list-boards`` (docs/boards.md, Programming).
    summary : str
        Its FPGA and what it offers, as ``ttt boards`` lists it.
    front_panel : bool
        Whether the 3x3 panel of keys and LEDs is wired to it.
    capacity : dict
        The FPGA's cells by nextpnr's names, as its "Device utilisation" counts them: to
        say which board a build that does not fit would fit (boards/builds/build.py).
    wire : callable
        ``wire(m, pins, desk)`` joins the desk to the board's panel, buttons and LEDs in
        module ``m`` through `Pins`; the top has wired the clock and the host link.
    family : Family
        Its FPGA's family, which says how a bitstream is built for it (family.py).
    cable : Cable
        What openFPGALoader finds it by.
    benchmarked : bool
        Whether ``make benchmark`` times its build's chip gate by gate
        (boards/builds/netlists.py's `boards`): the iCEBreaker's and the iCEstick's,
        one of each iCE40 chip. ``make formal`` proves every board's netlists
        equivalent to the RTL, a netlist that boards share once.
    """
    name: str
    platform: type
    clock_hz: int
    programmer: str
    summary: str
    front_panel: bool
    capacity: dict = field(hash=False)
    wire: Callable
    family: Family = ICE40
    cable: Cable = FT2232H
    benchmarked: bool = False

    def make_platform(self):
        return self.family.platform(self.platform)()


class Pins:
    """A board's pins as a top wires them: each resource requested whole (``dir="-"``),
    behind an I/O buffer that is a submodule of `m` named after it."""

    def __init__(self, m, platform):
        self._m, self._platform = m, platform

    def request(self, name, number=0):
        return self._platform.request(name, number, dir="-")

    def buffer(self, direction, port, name):
        self._m.submodules[name] = buffer = io.Buffer(direction, port)
        return buffer

    def input(self, name, number=0):
        return self.buffer("i", self.request(name, number), f"{name}_{number}").i

    def output(self, name, number=0):
        return self.buffer("o", self.request(name, number), f"{name}_{number}").o


def wire_panel(m, pins, desk):
    """The desk's rows, sense lines and LED columns on the board's ``front_panel``
    (boards/gateware/resources.py), wherever its module puts it."""
    panel = pins.request("front_panel")
    for part, direction in (("row", "o"), ("red", "o"), ("green", "o"), ("sense", "i")):
        buffer = pins.buffer(direction, getattr(panel, part), f"panel_{part}")
        if direction == "o":
            m.d.comb += buffer.o.eq(getattr(desk, part))
        else:
            m.d.comb += desk.sense.eq(buffer.i)
