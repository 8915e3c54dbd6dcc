"""The simulators: each written once against one small protocol, for any game of
sim.catalogue it can run, and found by name in one table.

The protocol. A simulator runs a game's core in lanes, each lane a core from power-up,
driven clock by clock at its inputs and read just after every rising edge:

    simulator = Simulator(game, *, pins=None, log=None)
    outputs = simulator.run(inputs, lengths, power_up)
    outputs, before = simulator.run(inputs, lengths, power_up, before=True)

- ``game``: the catalogue's entry (sim.catalogue.Game); ``pins``: where it is played
  and what is built (sim.backends.core.pins: by default the game's own, the chip's own
  pins and probes for the chip; the console's pins of its cartridge for any game), its
  design source among them: a simulator reads how to make the design, find a pin in
  it and write its netlist from there, and asks no game what it is. A mutant is
  another source at the same pins (``pins.mutant(core=...)``, another core class;
  ``pins.mutant(edit=...)``, a change to its Verilog), taken by every simulator alike
  (one that cannot build it says so: Amaranth's runs no edited Verilog).
  ``log(text)`` hears what is built first (a build takes seconds to a minute, then it
  is cached).
- ``inputs``: (lanes, cycles, inputs) uint32, the inputs of lane l before each clock, in
  the order of the pins' inputs (the golden model's names);
  ``lengths``: (lanes,), the clocks each lane runs; ``power_up``: (lanes,), each lane's
  value of the register the game powers up by lane (the chip's random counter), or None.
- ``run`` returns (lanes, cycles, len(simulator.outputs)) uint32: what the core shows
  just after each rising edge, zero past a lane's length; with ``before`` (every
  simulator of `SIMULATORS`), and what it shows just before each edge, the cycle's
  inputs settled (the paper's E.2 prints both, and a Mealy output can differ between
  them), from the same pass. Amaranth's and the netlists' under cocotb also write the
  run's waves, ``run(..., waves=path)``.

and says what it can:

- ``name``: its name in `SIMULATORS` (or, not in the table, what it is called), and
  ``what`` it is in words, as progress names it;
- ``outputs``: the game's outputs it reads, all of them or fewer (a board build's
  gates keep only the chip's pins);
- ``forces_power_up``: whether a lane begins at its ``power_up``; else at the netlist's
  own (every flip-flop 0, as an FPGA configures them);
- ``lanes``: None, or 1 where one run cannot bring the core back to power-up (the chip's
  netlist under cocotb: it has no reset but its pins);
- and, where it has one, ``check(recording)``: a faster way to compare every lane with a
  golden recording (sim.cartridges.recording) than reading them back, returning the
  lanes of the first part that differs (the bit-parallel chips compare in bit planes).

A simulator that cannot run here, a tool missing or a game it cannot build (the
bit-parallel chips are the chip's gates), raises `BackendMissing` when it is made: one
line that says why.

`SIMULATORS` holds them by the names ``ttt verify --backend`` takes, the fastest first:
``bitlanes`` (64 chips to a machine word), ``verilator-cxx`` (Verilator with a plain C++
harness), ``compiled`` (CXXRTL), ``verilator`` (cocotb), ``amaranth`` (Amaranth's
simulator) and ``icarus`` (cocotb on Icarus, the slowest). `fastest` picks the fastest
that runs a game here, and nothing else does. A board build's gates
(sim.verification.gatelevel.Gates) keep the protocol too; they are made from a build,
not by name. The chip's lockstep bench (sim.bench.lockstep.Bench) is one lane of any
simulator of the table, at the chip's pins and its scan path (``pins(chip,
scan=True)``).
"""

import importlib

from firmware_ref.cli import UserError

__all__ = ["AUTO", "SIMULATORS", "PLAIN_VERILATOR", "BackendMissing", "simulator",
           "make", "fastest"]

# Each simulator by name, the fastest first: its module and class, loaded when asked, so
# that the table imports no simulator and no tool.
SIMULATORS = {
    "bitlanes": "sim.backends.bitlanes:Bitlanes",
    "verilator-cxx": "sim.backends.verilated:Verilated",
    "compiled": "sim.backends.compiled:Compiled",
    "verilator": "sim.backends.netlist:Verilator",
    "amaranth": "sim.backends.amaranth:Amaranth",
    "icarus": "sim.backends.netlist:Icarus",
}
# The name that asks for the fastest simulator here (`fastest`).
AUTO = "auto"
# Verilator with a plain C++ harness: the peer the others are measured against.
PLAIN_VERILATOR = "verilator-cxx"


class BackendMissing(UserError):
    """A simulator cannot run here, or cannot run this game: the one line says why."""


def simulator(name):
    """The class of simulator `name` (a ValueError names the others)."""
    if name not in SIMULATORS:
        raise ValueError(f"unknown backend {name!r}; the backends are: "
                         f"{', '.join(SIMULATORS)}")
    module, _, found = SIMULATORS[name].partition(":")
    return getattr(importlib.import_module(module), found)


def make(name, game, **options):
    """Simulator `name` (AUTO: the fastest here) made for `game` (a catalogue entry),
    with `options` as its class takes them (``pins``, ``log``)."""
    if name == AUTO:
        return fastest(game, **options)[0]
    return simulator(name)(game, **options)


def fastest(game, *, log=None, **options):
    """The fastest simulator that runs `game` here, made, and why each faster one does
    not ("name: reason"); `log(text)` hears what is built to find out."""
    skipped = []
    for name in SIMULATORS:
        try:
            return simulator(name)(game, log=log, **options), skipped
        except BackendMissing as missing:
            skipped.append(f"{name}: {missing}")
    raise BackendMissing(f"no simulator runs {game.name} here: {'; '.join(skipped)}")
