"""The die as the page draws and clocks it: ``make die``'s die.json.

One dict holds all the page needs, plain JSON: the die's outline, each placed cell
(its type, the part of figure 2 it was made in, where it lies and its size, and the
net on each of its pins), each routed wire (its net and layer), the die's pins, and
each cell type's Liberty functions. Its nets and what they join are the routed DEF's
own: the netlist the layout holds, not the chip's names in the RTL. The page's die
(sim.watch.die) simulates that netlist gate by gate; the page draws its wires lit by
their nets' values.
"""

from sim.verification import die_files, die_plot

__all__ = ["FORMAT", "describe"]

FORMAT = 1                  # the description's shape: a reader checks it
DIGITS = 2                  # micrometres are kept to a hundredth


def _round(value):
    return round(value, DIGITS)


def describe(layout_def, sizes, parts, functions, report):
    """The die's description: `layout_def` (die_files.Def), `sizes` {cell: (w, h)}
    from the LEF, `parts` {instance: part}, `functions` die_files.cell_functions of the
    Liberty, `report` make die's report (its process, clock and critical path)."""
    nets = list(layout_def.nets)
    index = {name: n for n, name in enumerate(nets)}
    joined = {}                                 # {component: {pin: net}}
    for net, joins in layout_def.nets.items():
        for component, pin in joins:
            joined.setdefault(component, {})[pin] = index[net]
    part_names = sorted(set(parts.values()) | {die_files.FILL, die_files.CHIP})
    cells = []
    for name, cell, x, y, _ in layout_def.components:
        width, height = sizes.get(cell, (0, 0))
        cells.append([name, cell, part_names.index(parts.get(name, die_files.FILL)),
                      _round(x), _round(y), _round(width), _round(height),
                      joined.get(name, {})])
    layers = sorted({layer for _, layer, *_ in layout_def.wires})
    wires = []
    for net, layer, *ends in layout_def.wires:
        wires += [index.get(net, -1), layers.index(layer), *map(_round, ends)]
    used = {cell for _, cell, *_ in layout_def.components}
    return {
        "format": FORMAT, "process": report["process"],
        "die": [*map(_round, layout_def.die)],
        "parts": part_names, "layers": layers, "nets": nets,
        "colours": {"parts": [die_plot.colour(part) for part in part_names],
                    "layers": [die_plot.LAYERS.get(layer, "#555") for layer in layers],
                    "pin": die_plot.PIN},
        "cells": cells, "wires": wires,
        "pins": [[name, _round(x), _round(y), index.get(name, -1)]
                 for name, x, y in layout_def.pins],
        "models": {cell: functions[cell] for cell in sorted(used) if cell in functions},
        "max_clock_mhz": report["max_clock_mhz"],
        "critical": [step["cell"] for step in report["critical_path"]["steps"]],
    }
