"""The chip cut out of a board's routed netlist (``make verify NETLIST=routed``,
sim/verification/gatelevel.py): nextpnr's ``--write`` netlist is flat, so the chip is
the logic cone of its output pins' nets back to its input pins' nets and the clock, and
the cut is checked, not trusted (docs/verification.md).

Each family's routed netlist holds other cells (`ROUTED`): the iCE40's packed
ICESTORM_LC; Gowin's LUTs, wide multiplexers and flip-flops as Yosys mapped them; the
ECP5's TRELLIS_COMB and TRELLIS_FF, the halves of nextpnr's slices, which the cut hands
the toolchain's models as the bitstream configures them (`trellis`)."""

import dataclasses
from typing import Callable

from sim import yosys_json
from sim.yosys_json import ICESTORM_LC, PACKER_NETS, TRELLIS_FF

__all__ = ["CutFailed", "Routed", "ROUTED", "modelled", "routed_chip", "trellis"]

TRELLIS_COMB = "TRELLIS_COMB"


class CutFailed(RuntimeError):
    """The chip could not be cut out of a netlist soundly."""


def _net_name(names, ports):
    """The name nextpnr gives a net with these names (its frontend's rule, frontend_base.h
    prefer_netlabel): a top-level port, else the fewest '$', the fewest '.', the first
    alphabetically."""
    on_port = [n for n in names if n.split("[")[0] in ports]
    if on_port:
        return on_port[0]
    return min(names, key=lambda n: (n.count("$"), n.count("."), n))


def _pin_nets(board, synth):
    """{chip port: [the routed netlist's net name of each bit]} from `board`'s
    synthesised netlist (a yosys_json.Netlist): the nets in the board's module at the
    chip instance's ports; and each port's direction."""
    module = synth.modules[board.top]
    chip = module.cells[board.chip_instance]
    names = module.bit_names()
    ports = set(module.ports)
    return {port: [_net_name(names[bit], ports) for bit in bits]
            for port, bits in chip.connections.items()}, \
        {port: chip.port_directions[port] for port in chip.connections}


def trellis(cell):
    """One of nextpnr-ecp5's cells of the chip as the bitstream configures it, for the
    toolchain's models (ecp5/common_sim.vh), whose TRELLIS_FF and TRELLIS_COMB are
    written for Yosys's own use of them and do not read three things that nextpnr's
    packing sets (ecp5/pack.cc, ecp5/bitstream.cc):

    - a flip-flop's ``SD`` chooses its data: 1 the LUT of its slice (``DI``), 0 (the
      bitstream's default) general routing on ``M``, where the packer moves ``DI`` of a
      flip-flop it could not pair with its LUT; the model reads ``DI`` alone, so ``M``
      goes there;
    - a LUT that drives a wide multiplexer from two other slices (``FXA``, ``FXB``) is
      the second of its slice, whose ``OFX`` is that L6MUX21: the model's ``IS_Z1``,
      which nextpnr does not write (without it, the model's PFUMX reads ``F1``);
    - a carry LUT's ``CCU2_INJECT1`` is "YES" where nextpnr writes none, as in the
      bitstream.

    A mode the cut does not know (LUT RAM, LSRMODE PRLD) is a CutFailed."""
    parameters, connections = dict(cell.parameters), dict(cell.connections)
    directions = dict(cell.port_directions)
    if cell.type == TRELLIS_FF:
        if str(parameters.get("LSRMODE", "LSR")).strip() != "LSR":
            raise CutFailed(f"flip-flop {cell.name} has LSRMODE {parameters['LSRMODE']}")
        data = {0: "M", 1: "DI"}.get(cell.parameter("SD", 0))
        if data is None or not connections.get(data):
            raise CutFailed(f"flip-flop {cell.name} takes its data from no input (SD "
                            f"{parameters.get('SD', '0')!r})")
        bits = connections.pop(data)
        for port in ("M", "DI", "SD"):
            connections.pop(port, None)
            directions.pop(port, None)
            parameters.pop(port, None)
        connections["DI"], directions["DI"] = bits, "input"
    elif cell.type == TRELLIS_COMB:
        mode = str(parameters.get("MODE", "LOGIC")).strip()
        if mode not in ("LOGIC", "CCU2"):
            raise CutFailed(f"LUT {cell.name} is in mode {mode}")
        if mode == "CCU2":
            parameters.setdefault("CCU2_INJECT1", "YES")
        wide = any(connections.get(port) for port in ("FXA", "FXB"))
        if wide and connections.get("F1"):
            raise CutFailed(f"LUT {cell.name} drives both of its slice's multiplexers")
        parameters["IS_Z1"] = "1" if wide else "0"
    return dataclasses.replace(cell, parameters=parameters, connections=connections,
                               port_directions=directions)


@dataclasses.dataclass(frozen=True)
class Routed:
    """What a family's routed netlist holds, as the cut takes it: the cell types the
    chip's logic may be made of (each with a model in the family's cells), the value of
    an input left open by port, the cells that only drive a constant (their output's
    value), and what each cell becomes for its model (`model`, None: as it is)."""
    types: frozenset
    open_input: dict
    constant_cells: dict
    model: Callable = None


# An ICESTORM_LC input left open: what the silicon does (the cell model's default).
OPEN_INPUT = {"CEN": "1"}

# The families whose routed netlists are cut (a Board's `cells`): the iCE40's packed
# logic cells; Gowin's LUTs, wide multiplexers, ALUs and flip-flops, which nextpnr's
# Gowin architecture keeps as Yosys mapped them; the ECP5's slice halves, whose LUT
# inputs left open read 1 on the silicon (the bitstream sets their input multiplexers
# to 1: ecp5/bitstream.cc, write_comb), so that a carry LUT's init counts on them.
ROUTED = {
    "ice40": Routed(frozenset({ICESTORM_LC}), OPEN_INPUT, {}),
    "ecp5": Routed(frozenset({TRELLIS_COMB, TRELLIS_FF}), dict.fromkeys("ABCD", "1"), {},
                   trellis),
    "gowin": Routed(frozenset({"LUT1", "LUT2", "LUT3", "LUT4", "ALU", "MUX2_LUT5",
                               "MUX2_LUT6", "MUX2_LUT7", "MUX2_LUT8"}
                              | yosys_json.GOWIN_FLIP_FLOPS),
                    {}, {"GOWIN_GND": "0", "GOWIN_VCC": "1"}),
}


def _cone(module, outputs, stop, types):
    """The cells of `module` (routed), of `types`, that drive the bits `outputs`, back to
    the bits `stop`: ({name: Cell}, the clock bits they take)."""
    driver = yosys_json.drivers(module.cells)
    cone, clocks, todo = {}, set(), list(outputs)
    seen = set(todo)
    while todo:
        bit = todo.pop()
        if bit in stop or isinstance(bit, str):
            continue
        name = driver.get(bit)
        if name is None:
            nets = sorted(n for n, net in module.nets.items() if net.bits[0] == bit) or \
                [f"bit {bit}"]
            raise CutFailed(f"the chip's logic reads net {nets[0]}, which no cell of the "
                            f"routed netlist drives")
        cell = module.cells[name]
        if cell.type not in types:
            raise CutFailed(f"the chip's logic reaches {cell.type} {name}")
        cone[name] = cell
        for port, bits in cell.connections.items():
            if cell.port_directions[port] != "input":
                continue
            if port == "CLK":
                clocks.update(bits)
                continue
            for b in bits:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
    return cone, clocks


def _check_cut(board, cone, clocks, synth):
    """The cut is the chip, no more and no less: its cells come from the chip's
    instance (nextpnr prefixes them with its name; '$' names are the packer's own
    cells, such as carry chains' ends), and it holds every flip-flop the chip's module
    has, on one clock."""
    foreign = [n for n in cone if not n.startswith(board.chip_instance + ".") and
               not n.startswith("$")]
    if foreign:
        raise CutFailed(f"the cut holds cells that are not the chip's: {foreign[:3]}")
    wanted = len(yosys_json.flip_flops(synth.modules[board.chip_module].cells.values()))
    found = len(yosys_json.flip_flops(cone.values()))
    if found != wanted or len(clocks) != 1:
        raise CutFailed(f"the cut holds {found} flip-flops on {len(clocks)} clocks; the "
                        f"chip's module has {wanted} on one")


def modelled(cell, routed, constant=None):
    """A cell of the cut as its family's model (`routed`, a Routed) takes it: each input
    bit on a constant net the constant (`constant`, {bit: "0" or "1"}), each input left
    open the value the silicon gives it (`Routed.open_input`, else 0), then
    `Routed.model`."""
    constant = constant or {}
    connections = {}
    for port, bits in cell.connections.items():
        if cell.port_directions[port] == "input":
            bits = [constant.get(bit, bit) for bit in bits] or \
                [routed.open_input.get(port, "0")]
        connections[port] = bits
    cell = dataclasses.replace(cell, connections=connections)
    return routed.model(cell) if routed.model else cell


def routed_chip(board, routed_json, synth_json, top):
    """The chip's cells of `board`'s routed netlist with the chip's pins as ports, a
    yosys_json.Netlist of the one module `top`: the cone of the output pins' nets back
    to the input pins' nets, each cell as its family's model takes it."""
    synth = yosys_json.read(synth_json)
    pins, directions = _pin_nets(board, synth)
    module = yosys_json.read(routed_json).top
    bit_of = {name: net.bits[0] for name, net in module.nets.items()}
    missing = [f"{port}: {name}" for port, names in pins.items() for name in names
               if name not in bit_of]
    if missing:
        raise CutFailed(f"the routed netlist has no net for the chip's pins "
                        f"{', '.join(missing[:4])}")
    port_bits = {port: [bit_of[name] for name in names] for port, names in pins.items()}
    routed = ROUTED[board.cells]
    constant = {bit_of[name]: value for name, value in PACKER_NETS.items()
                if name in bit_of}
    constant.update({bit: routed.constant_cells[cell.type]
                     for cell in module.cells.values() if cell.type in routed.constant_cells
                     for bit in cell.outputs()})
    stop = {bit for port, bits in port_bits.items() if directions[port] == "input"
            for bit in bits} | set(constant)
    cone, clocks = _cone(module, [b for port, bits in port_bits.items()
                                  if directions[port] == "output" for b in bits], stop,
                        routed.types)
    _check_cut(board, cone, clocks, synth)
    (clock,) = clocks
    ports = {"clk": yosys_json.Port("input", [clock])}
    ports.update({port: yosys_json.Port(directions[port], bits)
                  for port, bits in port_bits.items() if port != "clk"})
    cells = {name: modelled(cell, routed, constant) for name, cell in cone.items()}
    nets = {port: yosys_json.Net(port, spec.bits) for port, spec in ports.items()}
    return yosys_json.Netlist({top: yosys_json.Module(top, ports, cells, nets)})
