"""The timing build's netlist of boards/builds/cost.py (``make cost``): the final
netlist with the flip-flops of some blocks clocked through a second global buffer, so
that nextpnr reports those blocks' fmax apart from the rest's."""

import copy
from collections import defaultdict

from firmware_ref.cli import UserError

from sim.yosys_json import CLOCK_PORTS, SB_GB, Cell, Net

from boards.builds.cost_cells import flatten

__all__ = ["SPLIT_NET", "split_clock_netlist"]

SPLIT_NET = "cost_split_clk"    # the second clock net, and its buffer's name


def split_clock_netlist(netlist, top, cells, owner, blocks, split):
    """A copy of the final netlist (a yosys_json.Netlist) whose `split` blocks'
    flip-flops (and RAM and DSP clocks) are clocked through their own SB_GB from the
    same clock net, and how many clock pins were moved."""
    net = copy.deepcopy(netlist)
    chosen = defaultdict(list)      # module -> [(local cell, port)]
    for name, cell in cells.items():
        ports = CLOCK_PORTS.get(cell.type, ())
        if ports and blocks.of(owner.get(name)) in split:
            chosen[cell.module] += [(cell.local, p) for p in ports if p in cell.connections]
    _, _, instances = flatten(netlist, top)
    moved = 0
    for modname, sites in chosen.items():
        if instances[modname] > 1:
            raise UserError(f"module {modname} is instantiated "
                            f"{instances[modname]} times; cannot split its clock per block")
        mod = net.modules[modname]
        top_bit = max([b for n in mod.nets.values() for b in n.bits
                       if not isinstance(b, str)] + [0])
        buffers = {}
        for local, port in sites:
            clk = mod.cells[local].connections[port][0]
            if clk not in buffers:
                top_bit += 1
                buffers[clk] = top_bit
                suffix = "" if len(buffers) == 1 else f"_{len(buffers)}"
                name = f"{SPLIT_NET}_gb{suffix}"
                mod.cells[name] = Cell(
                    name, SB_GB, {"USER_SIGNAL_TO_GLOBAL_BUFFER": [clk],
                                  "GLOBAL_BUFFER_OUTPUT": [top_bit]},
                    {"USER_SIGNAL_TO_GLOBAL_BUFFER": "input",
                     "GLOBAL_BUFFER_OUTPUT": "output"})
                mod.nets[SPLIT_NET + suffix] = Net(SPLIT_NET + suffix, [top_bit])
            mod.cells[local].connections[port] = [buffers[clk]]
            moved += 1
    return net, moved
