"""Board-level tops: the desk (boards/gateware/desk.py) wired to each board's pins."""

from dataclasses import dataclass, field

from amaranth.hdl import Cat, ClockDomain, ClockSignal, Elaboratable, Module
from amaranth.lib import io
from amaranth_boards.icebreaker import ICEBreakerPlatform
from amaranth_boards.icestick import ICEStickPlatform

from hdl.cartridge import blink_clocks
from sim.yosys_json import ICESTORM_LC, ICESTORM_RAM, SB_IO

from .desk import Desk
from .resources import ICEBREAKER_PANEL
from .rates import BAUD, CLOCK_HZ  # noqa: F401 -- CLOCK_HZ: the boards run at it


__all__ = ["BOARDS", "DEFAULT_BOARD", "UnknownBoard", "Target", "target", "BoardTop",
           "BAUD", "CLOCK_HZ", "desk_for"]

ROW_HZ = 3_000          # each panel row ~333 us: the display refreshes at 1 kHz
STABLE_FRAMES = 10      # a key or button must agree for ~10 ms: contacts bounce for less


@dataclass(frozen=True)
class Target:
    """A board the chip can be built for."""
    name: str
    platform: type
    programmer: str         # the board in `openFPGALoader --list-boards` (docs/boards.md)
    summary: str
    front_panel: bool
    # The FPGA's cells by nextpnr's names, as its "Device utilisation" counts them: to
    # say which board a build that does not fit would fit (boards/builds/build.py).
    capacity: dict = field(hash=False)

    def make_platform(self):
        platform = self.platform()
        if self.name == "icebreaker":
            platform.add_resources(platform.break_off_pmod)
            platform.add_resources([ICEBREAKER_PANEL])
        return platform


BOARDS = {
    "icebreaker": Target("icebreaker", ICEBreakerPlatform, "ice40_generic",
                         "iCEBreaker (iCE40UP5K): front panel on PMOD1A/1B, break-off "
                         "buttons and LEDs, USB serial", front_panel=True,
                         capacity={ICESTORM_LC: 5280, ICESTORM_RAM: 30, SB_IO: 39}),
    "icestick": Target("icestick", ICEStickPlatform, "ice40_generic",
                       "iCEstick (iCE40HX1K): status LEDs, USB serial", front_panel=False,
                       capacity={ICESTORM_LC: 1280, ICESTORM_RAM: 16, SB_IO: 96}),
}
DEFAULT_BOARD = "icebreaker"


class UnknownBoard(ValueError):
    def __init__(self, name):
        super().__init__(f"unknown board {name!r}; the known boards are: "
                         + ", ".join(BOARDS))


def target(name):
    try:
        return BOARDS[name]
    except KeyError:
        raise UnknownBoard(name) from None


def desk_for(cartridges, clock_hz):
    """The desk holding `cartridges` with its timings for a clock of `clock_hz`."""
    return Desk(cartridges, bit_cycles=round(clock_hz / BAUD),
                slot_cycles=round(clock_hz / ROW_HZ), stable=STABLE_FRAMES,
                blink_cycles=blink_clocks(clock_hz))


class BoardTop(Elaboratable):
    """The desk with `cartridges` on `target`'s pins, clocked by the board's oscillator.

    The clock domain has no reset: every flip-flop starts from its initial value when
    the FPGA is configured, and each cartridge begins its first game by itself (the ETH
    chip's ``resetN`` is driven by its adapter, as in the exported netlist,
    docs/netlist.md).
    """

    def __init__(self, target, cartridges):
        self.target = target
        self.cartridges = cartridges

    def elaborate(self, platform):
        m = Module()
        self._m, self._platform = m, platform
        m.domains.sync = ClockDomain(reset_less=True)
        m.d.comb += ClockSignal("sync").eq(self._input(platform.default_clk))

        m.submodules.desk = desk = desk_for(self.cartridges, platform.default_clk_frequency)
        uart = platform.request("uart", 0, dir="-")
        m.submodules.uart_rx = rx = io.Buffer("i", uart.rx)
        m.submodules.uart_tx = tx = io.Buffer("o", uart.tx)
        m.d.comb += [desk.rx.eq(rx.i), tx.o.eq(desk.tx)]
        getattr(self, "_" + self.target.name)(m, desk)
        return m

    def _buffer(self, direction, name, number):
        buffer = io.Buffer(direction, self._platform.request(name, number, dir="-"))
        self._m.submodules[f"{name}_{number}"] = buffer
        return buffer

    def _input(self, name, number=0):
        return self._buffer("i", name, number).i

    def _output(self, name, number=0):
        return self._buffer("o", name, number).o

    def _icebreaker(self, m, desk):
        panel = self._platform.request("front_panel", 0, dir="-")
        for part, direction in (("row", "o"), ("red", "o"), ("green", "o"), ("sense", "i")):
            m.submodules[f"panel_{part}"] = buffer = io.Buffer(direction, getattr(panel, part))
            if direction == "o":
                m.d.comb += buffer.o.eq(getattr(desk, part))
            else:
                m.d.comb += desk.sense.eq(buffer.i)
        # The main board's button and the break-off's first one both reset.
        m.d.comb += [
            desk.reset_button.eq(self._input("button", 0) | self._input("button", 1)),
            desk.buttons.eq(Cat(self._input("button", 2), self._input("button", 3))),
        ]
        # Main board: red = entering a position, green = lamp 0. Break-off: the red LED
        # (2) = lamp 2, the green ones (3 to 6) = lamps 3 and 1, switches 0 and 1 (for
        # the ETH chip: prompt; win; dark, fin, userbegins, piN; for a museum machine
        # LED3 is its blunder lamp).
        for number, signal in {0: desk.setup, 1: desk.lamps[0], 2: desk.lamps[2],
                               3: desk.lamps[3], 4: desk.lamps[1], 5: desk.switches[0],
                               6: desk.switches[1]}.items():
            m.d.comb += self._output("led", number).eq(signal)

    def _icestick(self, m, desk):
        # No keys or buttons: the host link plays it. The green LED (4) is lamp 0; the
        # red ones lamps 1 and 2 and switches 0 and 1 (ETH: prompt; fin, win, userbegins,
        # piN).
        for number, signal in {0: desk.lamps[1], 1: desk.lamps[2], 2: desk.switches[0],
                               3: desk.switches[1], 4: desk.lamps[0]}.items():
            m.d.comb += self._output("led", number).eq(signal)
