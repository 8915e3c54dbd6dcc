"""The files of a layout read, and the die's report made from them (``make die``'s
report.json).

qflow's flow (sim.verification.die) leaves a routed DEF, a post-layout netlist in
Verilog and Vesta's timing report; the cells come with a LEF (each cell's size), a
SPICE netlist (its transistors) and Liberty. Each is read here by a small reader of
what the report needs, and `report` puts them together with the block each cell was
made in: the cells and transistors by type and by the paper's blocks (figure 2), the
die's and the core's area, the wires by layer, the failed routes, the maximum clock and
the critical path, told in the paper's words.
"""

import collections
import dataclasses
import re

__all__ = ["Def", "read_def", "cell_sizes", "cell_functions", "transistors", "Instance", "read_netlist",
           "Step", "Path", "Timing", "read_timing", "failed_routes", "instance_blocks", "signals",
           "report", "told"]

FILL = "fill"                       # the block of the spacers the flow adds
CHIP = "chip"                       # what the chip's top holds: pin buffers, the clock
FINDFREE = "board.findfree"         # §3.1's ripple, which the paper says limits the clock


@dataclasses.dataclass
class Def:
    """A routed DEF: lengths in micrometres. `components` [(name, cell, x, y,
    orientation)], `pins` [(name, x, y)], `wires` [(net, layer, x0, y0, x1, y1)],
    `vias` their count, `nets` {net: [(component, pin)]} (a pin of the die's own is
    ("PIN", its name)): the netlist the layout holds."""
    die: tuple
    components: list
    pins: list
    wires: list
    vias: int
    nets: dict = dataclasses.field(default_factory=dict)


_UNITS = re.compile(r"UNITS\s+DISTANCE\s+MICRONS\s+(\d+)")
_DIE = re.compile(r"DIEAREA\s+\(\s*(-?\d+)\s+(-?\d+)\s*\)\s*\(\s*(-?\d+)\s+(-?\d+)\s*\)")
_COMPONENT = re.compile(r"^-\s+(\S+)\s+(\S+)\s+\+\s+(?:PLACED|FIXED)\s+\(\s*(-?\d+)\s+(-?\d+)"
                        r"\s*\)\s+(\S+)", re.M)
_PIN = re.compile(r"^-\s+(\S+)\s+\+\s+NET.*?\+\s+(?:PLACED|FIXED)\s+\(\s*(-?\d+)\s+(-?\d+)",
                  re.M | re.S)


def _section(text, name):
    start = re.search(rf"^{name}\s+\d+\s*;", text, re.M)
    if start is None:
        return ""
    return text[start.end():text.index(f"END {name}", start.end())]


def _routes(section, scale):
    """(wires, vias) of a NETS or SPECIALNETS section."""
    wires, vias = [], 0
    for statement in section.split(";"):
        head = re.match(r"\s*-\s+(\S+)", statement)
        if head is None or "ROUTED" not in statement:
            continue
        net = head[1]
        for piece in re.split(r"\+\s*ROUTED|\bNEW\b", statement)[1:]:
            tokens = re.findall(r"\(\s*([-\d*]+)\s+([-\d*]+)(?:\s+[-\d]+)?\s*\)|([A-Za-z_]\w*)",
                                piece)
            layer, points = None, []
            for x, y, word in tokens:
                if word:
                    if layer is None:
                        layer = word
                    elif points:
                        vias += 1
                    continue
                last = points[-1] if points else (0, 0)
                points.append((last[0] if x == "*" else int(x) / scale,
                               last[1] if y == "*" else int(y) / scale))
            wires += [(net, layer, *a, *b) for a, b in zip(points, points[1:])]
    return wires, vias


_JOINED = re.compile(r"\(\s*(\S+)\s+(\S+)\s*\)")


def _connections(section):
    """{net: [(component, pin)]} of a NETS section: what each net joins, before its
    routes."""
    nets = {}
    for statement in section.split(";"):
        head = re.match(r"\s*-\s+(\S+)", statement)
        if head is not None:
            joins = re.split(r"\+\s*ROUTED", statement[head.end():])[0]
            nets[head[1]] = _JOINED.findall(joins)
    return nets


def read_def(text):
    """The Def of a DEF file's `text`."""
    scale = int(_UNITS.search(text)[1])
    die = tuple(int(v) / scale for v in _DIE.search(text).groups())
    components = [(name, cell, int(x) / scale, int(y) / scale, orient) for
                  name, cell, x, y, orient in _COMPONENT.findall(_section(text, "COMPONENTS"))]
    pins = [(name, int(x) / scale, int(y) / scale)
            for name, x, y in _PIN.findall(_section(text, "PINS"))]
    nets = _section(text, "NETS")
    wires, vias = _routes(nets, scale)
    special, special_vias = _routes(_section(text, "SPECIALNETS"), scale)
    return Def(die, components, pins, wires + special, vias + special_vias,
               _connections(nets))


def cell_sizes(lef):
    """{cell: (width, height)} in micrometres from a LEF's MACROs."""
    return {name: (float(w), float(h)) for name, w, h in re.findall(
        r"^MACRO\s+(\S+).*?^\s*SIZE\s+([\d.]+)\s+BY\s+([\d.]+)", lef, re.M | re.S)}


def cell_functions(liberty):
    """{cell: {"out": {pin: its Liberty function}, "flop": (next_state, clocked_on,
    the state's name) or None}} of a Liberty file's cells, as the Liberty writes them
    ("(!(A B))"); a latch's cell is left out."""
    cells = {}
    for name, body in re.findall(r"^cell\s*\((\w+)\)\s*\{(.*?)(?=^cell\s*\(|\Z)", liberty,
                                 re.M | re.S):
        if re.search(r"^\s*latch\s*\(", body, re.M):
            continue
        flop = re.search(r"^\s*ff\s*\((\w+),\w+\)\s*\{\s*next_state\s*:\s*\"([^\"]*)\"\s*;"
                         r"\s*clocked_on\s*:\s*\"([^\"]*)\"", body, re.M)
        out = dict(re.findall(r"^\s*pin\s*\((\w+)\)\s*\{[^{}]*?function\s*:\s*\"([^\"]*)\"",
                              body, re.M))
        cells[name] = {"out": out, "flop": flop and (flop[2], flop[3], flop[1])}
    return cells


def transistors(spice):
    """{cell: its transistors} from the cells' SPICE subcircuits (M lines)."""
    counts, cell = {}, None
    for line in spice.splitlines():
        word = line.split()[0].lower() if line.split() else ""
        if word == ".subckt":
            cell = line.split()[1]
            counts[cell] = 0
        elif word == ".ends":
            cell = None
        elif cell and word.startswith("m"):
            counts[cell] += 1
    return counts


@dataclasses.dataclass
class Instance:
    name: str
    cell: str
    pins: dict          # {pin: net}


def read_netlist(verilog):
    """The instances of a flat netlist qflow wrote (``CELL NAME ( .PIN(net), ... );``)."""
    return [Instance(name, cell, dict(re.findall(r"\.(\w+)\(\s*([^()\s]*)\s*\)", pins)))
            for cell, name, pins in re.findall(r"^\s*(\w+)\s+(\w+)\s*\((.*?)\);", verilog,
                                               re.M | re.S)
            if cell not in ("module", "input", "output", "wire")]


@dataclasses.dataclass
class Step:
    """A step of a timing path: at `ps` the signal is on `net`, driven by `cell`."""
    ps: float
    net: str
    cell: str


@dataclasses.dataclass
class Path:
    """A timing path: its delay, first register and last (instance/pin), its steps."""
    delay_ps: float
    start: str
    end: str
    steps: list


@dataclasses.dataclass
class Timing:
    """Vesta's report: the maximum clock and every register's longest path, the
    longest first."""
    max_clock_mhz: float
    paths: list


_STEP = re.compile(r"^\s*([\d.]+)\s+ps\s+(\S+):\s+(\S*)\s+->\s+(\S+)\s*$")
_PATH = re.compile(r"^Path (\S+) to (\S+) delay ([\d.]+) ps\n(.*?)(?=\n\s*\n)", re.M | re.S)


def _steps(lines, end, delay):
    steps = []
    for line in lines.splitlines():
        found = _STEP.match(line)
        if found:
            cell = (found[4] if not steps else found[3]).split("/")[0]
            if steps and steps[-1].cell == cell:        # the first register, clocked
                steps[-1] = Step(float(found[1]), found[2], cell)
            else:
                steps.append(Step(float(found[1]), found[2], cell))
    return [*steps, Step(delay, "", end.split("/")[0])] if steps else steps


def read_timing(text):
    """Vesta's report (`Timing`): its register-to-register paths, the first listed."""
    clock = re.search(r"Computed maximum clock frequency \(zero margin\) = ([\d.]+) MHz", text)
    section = re.search(r"Top \d+ maximum delay paths:\s*\n(.*?)Computed maximum", text, re.S)
    if clock is None or section is None:
        raise ValueError("the timing report names no maximum clock and no path")
    paths = [Path(float(delay), start, end, _steps(lines, end, float(delay)))
             for start, end, delay, lines in _PATH.findall(section[1] + "\n\n")]
    if not paths:
        raise ValueError("the timing report lists no path")
    return Timing(float(clock[1]), paths)


def failed_routes(route_log):
    """qrouter's failed routes at the end: "Final: No failed routes!" is 0, "Final:
    Failed net routes: 324" 324."""
    final = re.findall(r"^Final: (?:No failed routes|Failed net routes: (\d+))", route_log,
                       re.M)
    if not final:
        raise ValueError("the router's log says nothing of its final routes")
    return int(final[-1] or 0)


_BUFFER = re.compile(r"^(BUF|CLKBUF)")


def instance_blocks(instances, net_parts):
    """{instance: part} for every instance: the part of figure 2 (board, or a circuit
    of it: board.findfree) its output net was made in (`net_parts`, from Yosys), a
    buffer the flow added following the net it buffers; the spacers FILL."""
    driver = {net: inst for inst in instances for pin, net in inst.pins.items()
              if pin in ("Y", "Q", "YC", "YS")}
    found = {}

    def part(inst, depth=0):
        if inst.name in found:
            return found[inst.name]
        if not inst.pins:
            return FILL
        out = next((n for p, n in inst.pins.items() if p in ("Y", "Q", "YC", "YS")), None)
        known = net_parts.get(out)
        if (known in (None, CHIP)) and _BUFFER.match(inst.cell) and depth < 32:
            source = driver.get(inst.pins.get("A"))
            known = part(source, depth + 1) if source else net_parts.get(
                inst.pins.get("A"), CHIP)
        return known or CHIP

    for inst in instances:
        found[inst.name] = part(inst)
    return found


def _by(pairs):
    counted = collections.Counter()
    for key, count in pairs:
        counted[key] += count
    return dict(sorted(counted.items()))


def report(layout_def, instances, parts, sizes, spice_counts, timing, failed, *,
           process, density, blocks):
    """report.json's dict."""
    logic = [i for i in instances if parts[i.name] != FILL]
    block = {name: part.split(".")[0] for name, part in parts.items()}
    x0, y0, x1, y1 = layout_def.die
    placed = [(x, y, *sizes[cell]) for _, cell, x, y, _ in layout_def.components
              if cell in sizes]
    core = (min(p[0] for p in placed), min(p[1] for p in placed),
            max(p[0] + p[2] for p in placed), max(p[1] + p[3] for p in placed))
    cell_area = sum(sizes[i.cell][0] * sizes[i.cell][1] for i in logic)
    core_area = (core[2] - core[0]) * (core[3] - core[1])
    wire = collections.defaultdict(float)
    for _, layer, ax, ay, bx, by in layout_def.wires:
        wire[layer] += abs(bx - ax) + abs(by - ay)
    order = [*blocks, CHIP]
    return {
        "process": process, "density": density,
        "cells": {"total": len(logic), "fill": len(instances) - len(logic),
                  "by_type": _by((i.cell, 1) for i in logic),
                  "by_block": {b: sum(1 for i in logic if block[i.name] == b) for b in order}},
        "transistors": {"total": sum(spice_counts.get(i.cell, 0) for i in logic),
                        "by_block": {b: sum(spice_counts.get(i.cell, 0) for i in logic
                                            if block[i.name] == b) for b in order}},
        "area_um2": {"die": round((x1 - x0) * (y1 - y0)), "core": round(core_area),
                     "cells": round(cell_area),
                     "utilisation": round(cell_area / core_area, 3)},
        "die_um": [round(x1 - x0, 2), round(y1 - y0, 2)],
        "wire_um": {layer: round(length) for layer, length in sorted(wire.items())},
        "vias": layout_def.vias,
        "failed_routes": failed,
        "max_clock_mhz": timing.max_clock_mhz,
        "critical_path": critical(timing, parts, levels(instances, parts, FINDFREE)),
    }


def _path(path, parts):
    """A path's delay, its ends, its steps with the part each cell is in, and the parts
    it crosses in order."""
    steps = [{"ps": s.ps, "net": s.net, "cell": s.cell, "part": parts.get(s.cell, CHIP)}
             for s in path.steps]
    crossed = []
    for step in steps:
        if not crossed or crossed[-1] != step["part"]:
            crossed.append(step["part"])
    return {"delay_ps": path.delay_ps, "from": path.start, "to": path.end,
            "parts": crossed, "signals": signals(s.net for s in path.steps),
            "steps": steps}


def signals(nets):
    """The paper's signals among a path's nets, in order: those the chip's Verilog
    names (board_validkey is validkey, board_key_1_ is key[1]), not the numbered nets
    synthesis made nor Amaranth's own ($38)."""
    found = []
    for net in nets:
        head, _, rest = net.partition("_")
        name = re.sub(r"_(\d+)_$", r"[\1]", rest) if rest else ""
        if head and rest and not rest.startswith("_") and "_bF_" not in net:
            word = name.split("[")[0]
            if not found or found[-1].split("[")[0] != word:
                found.append(name)
    return found


_OUTPUTS = ("Y", "Q", "YC", "YS")


def levels(instances, parts, part):
    """The most cells a signal passes in a row inside `part` (its logic depth): the
    cells of the part each counted after the deepest of the part's cells driving it."""
    inside = {i.name: i for i in instances if parts.get(i.name) == part}
    driver = {net: i.name for i in inside.values() for pin, net in i.pins.items()
              if pin in _OUTPUTS}
    depth = {}

    def of(name, seen=()):
        if name not in depth:
            ins = [driver[net] for pin, net in inside[name].pins.items()
                   if pin not in _OUTPUTS and net in driver and driver[net] not in seen]
            depth[name] = 1 + max((of(d, (*seen, name)) for d in ins), default=0)
        return depth[name]

    return max((of(name) for name in inside), default=0)


def critical(timing, parts, findfree_levels):
    """The critical path (_path) with its cells between the two registers, whether
    findfree is on it, the longest register path through findfree beside it (None when
    no register's longest path crosses it) and findfree's depth in cells, and `told`."""
    longest = _path(timing.paths[0], parts)
    through = next((found for found in (_path(p, parts) for p in timing.paths)
                    if FINDFREE in found["parts"]), None)
    longest["levels"] = len(longest["steps"]) - 2
    longest["findfree"] = FINDFREE in longest["parts"]
    longest["findfree_path"] = through and {k: through[k] for k in
                                            ("delay_ps", "from", "to", "parts")}
    longest["findfree_levels"] = findfree_levels
    longest["told"] = told(longest, through, timing.max_clock_mhz)
    return longest


def told(longest, through, max_clock_mhz):
    """The path in a sentence: the parts it crosses, the clock it allows, and findfree
    beside it."""
    named = f" ({', '.join(longest['signals'])})" if longest.get("signals") else ""
    said = (f"{longest['delay_ps'] / 1000:.2f} ns from {longest['from']} to "
            f"{longest['to']}, {longest['levels']} cells through "
            f"{' -> '.join(longest['parts'])}{named}; the clock is at most "
            f"{max_clock_mhz:.0f} MHz")
    if longest["findfree"]:
        return said + "; findfree is on it, as the report's §3.1 says"
    said += (f"; findfree, which the report's §3.1 says limits the clock, is not on it "
             f"(at most {longest['findfree_levels']} cells deep")
    if through is None:
        return said + ", and on no register's longest path)"
    return said + (f", its longest register path {through['delay_ps'] / 1000:.2f} ns, "
                   f"{through['delay_ps'] / longest['delay_ps']:.0%})")
