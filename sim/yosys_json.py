"""Yosys's JSON netlists, read in one place, and every cell type the tools look for.

Yosys writes a design as JSON (``write_json``, ``synth_ice40 -json``), and nextpnr
writes the netlist it placed and routed the same way (``--write``). `read` turns either
into plain objects: a `Netlist` of modules (`Module`), each with its ports, cells and
nets (`Port`, `Cell`, `Net`: Yosys's ``netnames``). A bit is an int, the same int wherever the module
connects it, or a constant: "0", "1", "x" or "z", as Yosys writes them.
`Netlist.as_json` gives the dict back, so that a tool may change a netlist and hand it
on to nextpnr.
"""

import dataclasses
import json
from dataclasses import field
from pathlib import Path

__all__ = ["AND", "OR", "XOR", "XNOR", "NOT", "BUF", "MUX", "DFF_P", "DFFE_PP",
           "NOT_WORD", "POS", "BUF_WORD", "SCOPEINFO", "EQUIV", "ASSUME", "WIRES",
           "SB_LUT4", "SB_CARRY", "ICE40_FLIP_FLOPS", "TRELLIS_FF", "GOWIN_FLIP_FLOPS", "ICE40_RAMS", "SB_SPRAM256KA",
           "SB_MAC16", "SB_GB", "SB_IO", "CLOCK_PORTS", "ICESTORM_LC", "ICESTORM_RAM",
           "PACKER_CELLS", "PACKER_NETS", "is_latch", "is_flip_flop", "holds_state",
           "flip_flops", "drivers", "Port", "Net", "Cell", "Module", "Netlist", "read"]

# -- the cell types -------------------------------------------------------------------

# Yosys's gate library, the one-bit cells that techmap leaves.
AND, OR, XOR, XNOR = "$_AND_", "$_OR_", "$_XOR_", "$_XNOR_"
NOT, BUF, MUX = "$_NOT_", "$_BUF_", "$_MUX_"
DFF_P = "$_DFF_P_"                  # a flip-flop on the clock's rising edge
DFFE_PP = "$_DFFE_PP_"              # the same, taking D only while E is high
# Yosys's word-level cells.
NOT_WORD, POS, BUF_WORD = "$not", "$pos", "$buf"
SCOPEINFO = "$scopeinfo"            # where a flattened instance was: no logic
EQUIV, ASSUME = "$equiv", "$assume"   # what a proof shows equal, what it takes as given
# A bit in, the same bit or its inverse out: no LUT of its own.
WIRES = frozenset({NOT_WORD, POS, BUF_WORD, NOT, BUF})

# The iCE40's primitives, as synth_ice40 maps a design onto them.
SB_LUT4, SB_CARRY = "SB_LUT4", "SB_CARRY"
# SB_DFF, then a falling edge (N), an enable (E), a reset or set, synchronous (SR, SS)
# or not (R, S): twenty types.
ICE40_FLIP_FLOPS = frozenset(f"SB_DFF{edge}{enable}{reset}" for edge in ("", "N")
                             for enable in ("", "E") for reset in ("", "SR", "R", "SS", "S"))
# The ECP5's flip-flop and Gowin's (DFF, then a falling edge N, a set or reset S, R, P or
# C, an enable E), as synth_ecp5 and synth_gowin map onto them: a board build's report
# counts them.
TRELLIS_FF = "TRELLIS_FF"
GOWIN_FLIP_FLOPS = frozenset(f"DFF{edge}{reset}{enable}" for edge in ("", "N")
                             for reset in ("", "S", "R", "P", "C") for enable in ("", "E"))
ICE40_RAMS = frozenset({"SB_RAM40_4K", "SB_RAM40_4KNR", "SB_RAM40_4KNW", "SB_RAM40_4KNRNW"})
SB_SPRAM256KA, SB_MAC16 = "SB_SPRAM256KA", "SB_MAC16"
SB_GB, SB_IO = "SB_GB", "SB_IO"     # a global buffer, an I/O pad
# The clock ports of each clocked primitive.
CLOCK_PORTS = {**{ff: ("C",) for ff in ICE40_FLIP_FLOPS},
               **{ram: ("RCLK", "WCLK", "RCLKN", "WCLKN") for ram in ICE40_RAMS},
               SB_SPRAM256KA: ("CLOCK",), SB_MAC16: ("CLK",)}

# nextpnr's cells: a logic cell holds a LUT, a flip-flop and a carry, each used or not.
ICESTORM_LC, ICESTORM_RAM = "ICESTORM_LC", "ICESTORM_RAM"
# nextpnr's packer drives the constants from cells of its own, on nets of its own.
PACKER_CELLS = ("$PACKER_GND", "$PACKER_VCC")
PACKER_NETS = {"$PACKER_GND_NET": "0", "$PACKER_VCC_NET": "1"}


def is_latch(cell_type):
    """Whether a cell of Yosys's own library is a latch (``$dlatch``, ``$_DLATCH_P_``,
    ``$_SR_PP_``, ...)."""
    name = cell_type.lower()
    return name.startswith("$") and ("dlatch" in name or name.startswith(("$sr", "$_sr_")))


def is_flip_flop(cell):
    """Whether `cell` is a flip-flop: an iCE40, ECP5 or Gowin one, a logic cell of nextpnr's with its
    flip-flop used, or one of Yosys's own (``$dff``, ``$_DFF_P_``, ``$_SDFFE_PP0P_``,
    ``$_FF_``: every such type has "ff" in its name, and no latch or gate has)."""
    if cell.type == ICESTORM_LC:
        return cell.parameter("DFF_ENABLE") != 0
    name = cell.type.lower()
    return (cell.type in ICE40_FLIP_FLOPS or cell.type == TRELLIS_FF
            or cell.type in GOWIN_FLIP_FLOPS or (name.startswith("$") and "ff" in name))


def holds_state(cell):
    """Whether `cell` keeps a bit from one moment to the next: a flip-flop or a latch."""
    return is_flip_flop(cell) or is_latch(cell.type)


def flip_flops(cells):
    """The flip-flops among `cells` (an iterable of Cell)."""
    return [cell for cell in cells if is_flip_flop(cell)]


def drivers(cells):
    """{bit: the name of the cell that drives it} over `cells` ({name: Cell})."""
    return {bit: name for name, cell in cells.items() for bit in cell.outputs()}


def _flag(value):
    """A Yosys attribute or parameter taken as a truth value ("1", "00...01", 1)."""
    return "1" in str(value)


# -- the objects ----------------------------------------------------------------------

# What Yosys writes of a port or net only where it is not the default.
_SHAPE = {"offset": 0, "upto": 0, "signed": 0}


def _shape(entry):
    return {key: entry.get(key, default) for key, default in _SHAPE.items()}


def _shape_json(thing):
    return {key: getattr(thing, key) for key, default in _SHAPE.items()
            if getattr(thing, key) != default}


@dataclasses.dataclass
class Port:
    """A module's port: "input", "output" or "inout", and its bits, least significant
    first (numbered from `offset`)."""
    direction: str
    bits: list
    offset: int = 0
    upto: int = 0
    signed: int = 0

    def as_json(self):
        return {"direction": self.direction, **_shape_json(self), "bits": self.bits}


@dataclasses.dataclass
class Net:
    """A named net (Yosys's netname): its bits, least significant first (numbered from
    `offset`), and its attributes (``hdlname`` where it is an RTL signal's)."""
    name: str
    bits: list
    attributes: dict = field(default_factory=dict)
    hide_name: int = 0
    offset: int = 0
    upto: int = 0
    signed: int = 0

    def labels(self):
        """Each bit's name as nextpnr gives it: the net's own for a lone bit numbered 0,
        else ``name[index]``."""
        if len(self.bits) == 1 and self.offset == 0:
            return [self.name]
        return [f"{self.name}[{self.offset + k}]" for k in range(len(self.bits))]

    def as_json(self):
        return {"hide_name": self.hide_name, "bits": self.bits, **_shape_json(self),
                "attributes": self.attributes}


@dataclasses.dataclass
class Cell:
    """A cell: its type, its ports' bits (`connections`) and directions, and its
    parameters and attributes as Yosys writes them (strings: binary digits for a
    number)."""
    name: str
    type: str
    connections: dict
    port_directions: dict = field(default_factory=dict)
    parameters: dict = field(default_factory=dict)
    attributes: dict = field(default_factory=dict)
    hide_name: int = 0

    def parameter(self, name, default=0):
        """A parameter that is a number, as an int."""
        value = self.parameters.get(name)
        return default if value is None else int(str(value).strip() or "0", 2)

    def outputs(self):
        """The bits it drives, port by port."""
        return [bit for port, bits in self.connections.items()
                if self.port_directions.get(port) == "output" for bit in bits]

    def inputs(self):
        """The bits on its other ports, port by port."""
        return [bit for port, bits in self.connections.items()
                if self.port_directions.get(port) != "output" for bit in bits]

    def as_json(self):
        return {"hide_name": self.hide_name, "type": self.type,
                "parameters": self.parameters, "attributes": self.attributes,
                "port_directions": self.port_directions, "connections": self.connections}


@dataclasses.dataclass
class Module:
    """A module: its ports, cells and nets by name. `rest` keeps what this reader does
    not look into (parameter defaults, nextpnr's settings), to write it back."""
    name: str
    ports: dict
    cells: dict
    nets: dict
    attributes: dict = field(default_factory=dict)
    rest: dict = field(default_factory=dict)

    @property
    def is_top(self):
        """Marked as the design's top module."""
        return _flag(self.attributes.get("top", 0))

    @property
    def is_blackbox(self):
        """A cell's model only (a blackbox or a whitebox), not a part of the design."""
        return any(_flag(self.attributes.get(key, 0)) for key in ("blackbox", "whitebox"))

    def bit_names(self):
        """{bit: the names of its nets' bits (`Net.labels`)}, constants left out."""
        names = {}
        for net in self.nets.values():
            for bit, label in zip(net.bits, net.labels()):
                if isinstance(bit, int):
                    names.setdefault(bit, []).append(label)
        return names

    def as_json(self):
        return {"attributes": self.attributes, **self.rest,
                "ports": {name: port.as_json() for name, port in self.ports.items()},
                "cells": {name: cell.as_json() for name, cell in self.cells.items()},
                "netnames": {name: net.as_json() for name, net in self.nets.items()}}

    @classmethod
    def from_json(cls, name, entry):
        known = {"attributes", "ports", "cells", "netnames"}
        return cls(
            name=name, attributes=entry.get("attributes", {}),
            ports={port: Port(spec["direction"], spec["bits"], **_shape(spec))
                   for port, spec in entry.get("ports", {}).items()},
            cells={cell: Cell(cell, spec["type"], spec["connections"],
                              spec.get("port_directions", {}), spec.get("parameters", {}),
                              spec.get("attributes", {}), spec.get("hide_name", 0))
                   for cell, spec in entry.get("cells", {}).items()},
            nets={net: Net(net, spec["bits"], spec.get("attributes", {}),
                           spec.get("hide_name", 0), **_shape(spec))
                  for net, spec in entry.get("netnames", {}).items()},
            rest={key: value for key, value in entry.items() if key not in known})


@dataclasses.dataclass
class Netlist:
    """A netlist: its modules by name, the design's and the cell models' alike."""
    modules: dict
    creator: str = ""

    @property
    def top(self):
        """The design's top module: the one marked top, else the only one (nextpnr's
        netlist is flat)."""
        marked = [m for m in self.modules.values() if m.is_top]
        if len(marked) == 1:
            return marked[0]
        if len(self.modules) == 1:
            return next(iter(self.modules.values()))
        raise ValueError(f"the netlist has {len(marked)} top modules")

    def as_json(self):
        return {"creator": self.creator,
                "modules": {name: module.as_json() for name, module in self.modules.items()}}

    def write(self, path):
        Path(path).write_text(json.dumps(self.as_json()))


def read(source):
    """The netlist in `source`: a JSON file's path, or the dict it holds (whose lists
    and dicts the objects then share)."""
    if not isinstance(source, dict):
        source = json.loads(Path(source).read_text())
    return Netlist({name: Module.from_json(name, entry)
                    for name, entry in source.get("modules", {}).items()},
                   source.get("creator", ""))
