"""Board-level tops: the desk (boards/gateware/desk.py) wired to a board's pins, as the
board's module in boards/gateware/boards/ wires them."""

from amaranth.hdl import ClockDomain, ClockSignal, Elaboratable, Module

from hdl.cartridge import blink_clocks

from .boards import BOARDS, DEFAULT_BOARD, Pins, Target, UnknownBoard, target
from .desk import Desk
from .rates import BAUD, CLOCK_HZ  # noqa: F401 -- CLOCK_HZ: the boards run at it


__all__ = ["BOARDS", "DEFAULT_BOARD", "UnknownBoard", "Target", "target", "BoardTop",
           "BAUD", "CLOCK_HZ", "desk_for"]

ROW_HZ = 3_000          # each panel row ~333 us: the display refreshes at 1 kHz
STABLE_FRAMES = 10      # a key or button must agree for ~10 ms: contacts bounce for less


def desk_for(cartridges, clock_hz, baud=BAUD):
    """The desk holding `cartridges` with its timings for a clock of `clock_hz`, its
    host link at `baud`."""
    return Desk(cartridges, bit_cycles=round(clock_hz / baud),
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
        pins = Pins(m, platform)
        m.domains.sync = ClockDomain(reset_less=True)
        m.d.comb += ClockSignal("sync").eq(pins.input(platform.default_clk))

        m.submodules.desk = desk = desk_for(self.cartridges, self.target.clock_hz)
        uart = pins.request("uart")
        rx = pins.buffer("i", uart.rx, "uart_rx")
        tx = pins.buffer("o", uart.tx, "uart_tx")
        m.d.comb += [desk.rx.eq(rx.i), tx.o.eq(desk.tx)]
        self.target.wire(m, pins, desk)
        return m
