"""The logic cells of nextpnr's netlist given to blocks, and the ends of its timing
paths: rule 3 of boards/builds/cost.py (``make cost``). A logic cell is known by the
name nextpnr packs it under (``<LUT>_LC``, ``<FF>_DFFLC``, ``<CARRY>$CARRY``) and
goes with the cells boards/builds/cost_cells.py gave to blocks."""

from collections import Counter, defaultdict

from sim import yosys_json
from sim.yosys_json import ICESTORM_LC, PACKER_CELLS

from boards.builds.cost_cells import kind

__all__ = ["lc_owners", "endpoint_block", "clock_pairs", "path_ends"]


def lc_owners(routed, cells, owner, blocks):
    """{LC name: dict(block, lut, ff)} and the count of LCs whose LUT and FF differ."""
    lcs = {n: c for n, c in routed.top.cells.items() if c.type == ICESTORM_LC}
    ff_by_d = {}
    for name, cell in cells.items():
        if kind(cell.type) == "DFF":
            ff_by_d[cell.connections["D"][0]] = name
    info, unknown = {}, []
    for name, lc in lcs.items():
        lut = ff = carry = None
        if name.endswith("_DFFLC") and name[:-6] in cells:
            ff = name[:-6]
        elif name.endswith("$CARRY") and name[:-6] in cells:
            carry = name[:-6]
        elif name.endswith("_LC") and name[:-3] in cells:
            base = name[:-3]
            if kind(cells[base].type) == "LUT4":
                lut = base
                if yosys_json.is_flip_flop(lc):
                    ff = ff_by_d.get(cells[base].connections["O"][0])
            elif kind(cells[base].type) == "CARRY":
                carry = base
        if name in PACKER_CELLS:
            block = blocks.of([])
        else:
            src = lut or ff or carry
            block = blocks.of(owner.get(src)) if src else None
        info[name] = {"block": block, "lut": lut, "ff": ff,
                      "lut_block": blocks.of(owner.get(lut)) if lut else None,
                      "ff_block": blocks.of(owner.get(ff)) if ff else None}
        if block is None:
            unknown.append(name)
    # Carry feed-ins and anything unnamed: the LC their outputs feed, else their drivers.
    sinks, drivers = defaultdict(list), {}
    for name, lc in lcs.items():
        for port, bits in lc.connections.items():
            for b in bits:
                if port in ("O", "COUT", "LO"):
                    drivers[b] = name
                else:
                    sinks[b].append(name)
    for _ in range(10):
        for name in list(unknown):
            lc = lcs[name]
            near = [info[s]["block"] for p in ("COUT", "O", "LO")
                    for b in lc.connections.get(p, [])
                    for s in sinks.get(b, []) if info[s]["block"]]
            if not near:
                near = [info[drivers[b]]["block"] for p in ("CIN", "I0", "I1", "I2", "I3")
                        for b in lc.connections.get(p, [])
                        if b in drivers and info[drivers[b]]["block"]]
            if near:
                info[name]["block"] = Counter(near).most_common(1)[0][0]
                unknown.remove(name)
    for name in unknown:
        info[name]["block"] = "(unattributed)"
    mixed = sum(1 for i in info.values() if i["lut_block"] and i["ff_block"]
                and i["lut_block"] != i["ff_block"])
    return info, mixed


def endpoint_block(cellname, info, cells, owner, blocks):
    """Block of a timing path's start or end cell: its LC's FF, else the LC, else the
    I/O cell's own path."""
    if cellname in info:
        i = info[cellname]
        return i["ff_block"] or i["block"]
    base = cellname
    return blocks.of(owner.get(base, cells[base].scope if base in cells else []))


def clock_pairs(report):
    """{(from clock, to clock): its critical path and delay} from nextpnr's report."""
    out = {}
    for cp in report.get("critical_paths", []):
        delay = sum(s["delay"] for s in cp["path"])
        out[(cp["from"], cp["to"])] = {"delay_ns": delay, "path": cp["path"]}
    return out


def path_ends(path):
    """The cells a critical path starts at (its clock-to-q or source) and ends at."""
    start = next((s["from"]["cell"] for s in path if s["type"] in ("clk-to-q", "source")),
                 path[0]["from"]["cell"])
    end = path[-1]["to"]["cell"]
    return start, end
