"""What a board's module says of its board (`Target`), and the pins its wiring takes
(`Pins`)."""

from collections.abc import Callable
from dataclasses import dataclass, field

from amaranth.lib import io


__all__ = ["Target", "Pins"]


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
    """
    name: str
    platform: type
    clock_hz: int
    programmer: str
    summary: str
    front_panel: bool
    capacity: dict = field(hash=False)
    wire: Callable

    def make_platform(self):
        return self.platform()


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
