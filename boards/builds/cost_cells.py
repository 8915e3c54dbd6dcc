"""Each cell of a board build's final Yosys netlist given to the RTL scope it computes
for, and each scope to its block: rules 1 and 2 of boards/builds/cost.py (``make
cost``), which say why.

`driver_scopes` reads the netlist stopped right after ``flatten``, where every public
signal bit still has its RTL driver (rule 1); `attribute_cells` gives each cell of the
final netlist the scope of the signal its output still carries, else its neighbours'
(rule 2); `Blocks` names the block of a scope. Both netlists are made flat first
(`flatten`), named as nextpnr names them.
"""

import dataclasses
import itertools
import re
from collections import Counter, defaultdict
from dataclasses import field

from sim import yosys_json
from sim.yosys_json import ICE40_FLIP_FLOPS, SB_CARRY, SB_LUT4, SCOPEINFO, WIRES

__all__ = ["FlatCell", "FlatNet", "flatten", "rtl_scope", "driver_scopes", "Blocks",
           "kind", "attribute_cells"]


@dataclasses.dataclass
class FlatCell(yosys_json.Cell):
    """A cell of the netlist made flat (`flatten`): named and connected as nextpnr
    sees it, and where it sat: the instance path of its module (`scope`), that module,
    and its name there (`local`)."""
    scope: list = field(default_factory=list)
    module: str = ""
    local: str = ""


@dataclasses.dataclass
class FlatNet:
    """A net of the netlist made flat: its bits, whether its name is a public one (not
    Yosys's ``$`` names) and whether it is an RTL signal's (``hdlname``)."""
    bits: list
    public: bool
    hdlname: bool


def flatten(netlist, top):
    """A hierarchical netlist (a yosys_json.Netlist) as one level, named as nextpnr
    names it: cells {name: FlatCell} and nets {name: FlatNet}, whose bits are global
    ints (or the constants, strings), and how often each module is instantiated."""
    modules = netlist.modules
    fresh = itertools.count()
    cells, nets, instances = {}, {}, Counter()

    def walk(modname, prefix, scope, bitmap):
        instances[modname] += 1
        mod = modules[modname]

        def g(bit):
            if isinstance(bit, str):
                return bit
            if bit not in bitmap:
                bitmap[bit] = next(fresh)
            return bitmap[bit]

        for name, cell in mod.cells.items():
            if cell.type in modules and not modules[cell.type].is_blackbox:
                sub = modules[cell.type]
                submap = {}
                for port, bits in cell.connections.items():
                    for sb, b in zip(sub.ports[port].bits, bits):
                        if not isinstance(sb, str):
                            submap[sb] = g(b)
                hdl = cell.attributes.get("hdlname")
                walk(cell.type, f"{prefix}{name}.",
                     scope + (hdl.split(" ") if hdl else name.split(".")), submap)
                continue
            cells[prefix + name] = FlatCell(
                prefix + name, cell.type,
                {p: [g(b) for b in bits] for p, bits in cell.connections.items()},
                cell.port_directions, cell.parameters, cell.attributes, cell.hide_name,
                scope=scope, module=modname, local=name)
        for name, net in mod.nets.items():
            nets[prefix + name] = FlatNet([g(b) for b in net.bits], not name.startswith("$"),
                                          bool(net.attributes.get("hdlname")))

    walk(top, "", [], {})
    return cells, nets, instances


FLATTEN_PREFIX = re.compile(r"\$flatten((?:\\[^\\]*?\.)*)")


def rtl_scope(name, cell):
    """The instance path (list) of a cell of the netlist right after `flatten`."""
    hdl = cell.attributes.get("hdlname")
    if hdl:
        return cell.scope + hdl.split(" ")[:-1]
    m = FLATTEN_PREFIX.match(cell.local)
    if m:
        return cell.scope + [s[1:-1] for s in re.findall(r"\\[^\\]*?\.", m.group(1))]
    return cell.scope


def driver_scopes(flat_netlist, top):
    """Right after flatten: {(net name, bit index): instance path of its driver}, and
    {(cell name, input port, bit index): instance path of that bit's driver} for the
    cells that keep their names to the end (I/O buffers, kept instances)."""
    cells, nets, _ = flatten(flat_netlist, top)
    direct, through = {}, {}
    for name, cell in cells.items():
        if cell.type == SCOPEINFO:
            continue
        for i, b in enumerate(cell.outputs()):
            direct[b] = rtl_scope(name, cell)
            if cell.type in WIRES and len(cell.connections["A"]) > i:
                through[b] = cell.connections["A"][i]
    driver = {}
    for b in direct:
        # An inverter or buffer costs no LUT: the logic behind it decides, else (a LUT
        # outside a kept module cannot be that module's) the inverter itself.
        seen, at = set(), b
        while at in through and at not in seen and not isinstance(through[at], str):
            seen.add(at)
            at = through[at]
        driver[b] = (direct.get(at, []), direct[b])
    scopes = {}
    for name, net in nets.items():
        if not net.public:
            continue
        for i, b in enumerate(net.bits):
            if not isinstance(b, str):
                scopes[(name, i)] = driver.get(b, ([],))  # undriven here: a top-level input
    anchors = {}
    for name, cell in cells.items():
        if name.startswith("$") or cell.type == SCOPEINFO:
            continue
        for port, bits in cell.connections.items():
            if cell.port_directions.get(port) == "output":
                continue
            for i, b in enumerate(bits):
                if not isinstance(b, str):
                    anchors[(name, port, i)] = driver.get(b, ([],))
    return scopes, anchors


class Blocks:
    """Instance path -> block name, by the longest matching path prefix."""

    def __init__(self, blocks):
        """`blocks`: {block name: instance paths}, no paths for the block of the rest."""
        self.order, self.paths = [], []
        for name, paths in blocks.items():
            self.order.append(name)
            for path in paths or ("",):
                self.paths.append(([p for p in path.split(".") if p], name))
        self.paths.sort(key=lambda item: -len(item[0]))
        self.default = next((n for p, n in self.paths if not p), None)

    @staticmethod
    def _same(inst, want):
        return inst == want or re.sub(r"\$\d+$", "", inst) == want

    def of(self, scope):
        if scope is None:
            return None
        for path, name in self.paths:
            if len(scope) >= len(path) and all(self._same(i, w) for i, w in zip(scope, path)):
                return name
        return self.default or "(unattributed)"


def kind(cell_type):
    """What a cell of the final netlist counts as: "LUT4", "DFF", "CARRY", else None."""
    if cell_type == SB_LUT4:
        return "LUT4"
    if cell_type in ICE40_FLIP_FLOPS:
        return "DFF"
    if cell_type == SB_CARRY:
        return "CARRY"
    return None


def attribute_cells(cells, nets, scopes, anchors):
    """{final cell name: instance path} for every cell of the final netlist (rule 2 of
    the module's text), and the names of the cells settled by their own output's name."""
    kept = {tuple(c.scope) for c in cells.values() if c.scope}
    owner, by_name = _owners_by_name(cells, _named_scopes(cells, nets, scopes, anchors),
                                     kept)
    pending = [n for n, c in cells.items() if n not in owner and c.type != SCOPEINFO]
    sinks, drivers = _sinks_and_drivers(cells)
    for direction in ("sinks", "drivers"):
        pending = _owners_by_neighbours(pending, direction, cells, owner, sinks, drivers,
                                        kept)
    for name in pending:
        owner[name] = None
    return owner, by_name


def _inside(path, prefix):
    return len(path) >= len(prefix) and tuple(path[:len(prefix)]) == prefix


def _may_own(scope, cell, kept):
    """Whether `cell` may go to `scope`: never into a kept module it is not in."""
    return all(_inside(cell.scope, k) for k in kept if _inside(scope, k))


def _vote(candidates):
    """The scope most `candidates` name; a tie goes to the deeper path, then the first
    in order, so that the outcome does not depend on the netlist's order."""
    count = Counter(tuple(c) for c in candidates)
    best = max(count.values())
    return list(sorted((c for c, n in count.items() if n == best),
                       key=lambda c: (-len(c), c))[0])


def _named_scopes(cells, nets, scopes, anchors):
    """{bit: the RTL driver scopes of the names it still carries, best first}: a public
    signal's bits, and what feeds a pad (who drove it in RTL)."""
    names_of = defaultdict(list)
    for name, net in nets.items():
        if net.hdlname or (net.public and (name, 0) in scopes):
            for i, b in enumerate(net.bits):
                if (name, i) in scopes:
                    names_of[b].append(scopes[(name, i)])
    for name, cell in cells.items():
        for port, bits in cell.connections.items():
            for i, b in enumerate(bits):
                if (name, port, i) in anchors and not isinstance(b, str):
                    names_of[b].append(anchors[(name, port, i)])
    return names_of


def _sinks_and_drivers(cells):
    """{bit: the cells it feeds} and {bit: the cell that drives it}."""
    sinks, drivers = defaultdict(list), {}
    for name, cell in cells.items():
        for b in cell.inputs():
            sinks[b].append(name)
        for b in cell.outputs():
            drivers[b] = name
    return sinks, drivers


def _owners_by_name(cells, names_of, kept):
    """The cells whose outputs carry an RTL name go to that name's driver; a cell that
    drives nothing stays where it sits. Returns (owner, the names settled by name)."""
    owner, by_name = {}, set()
    for name, cell in cells.items():
        if cell.type == SCOPEINFO:
            continue
        found = [next((s for s in options if _may_own(s, cell, kept)), cell.scope)
                 for b in cell.outputs() for options in names_of.get(b, [])]
        if found:
            owner[name] = _vote(found)
            by_name.add(name)
        elif not cell.outputs():
            owner[name] = cell.scope
    return owner, by_name


def _owners_by_neighbours(pending, direction, cells, owner, sinks, drivers, kept):
    """The `pending` cells given, by majority, the block of the cells they feed
    (`direction` "sinks") or of their drivers ("drivers"), repeated until nothing
    changes (`owner` is filled in place); returns those still without one."""
    changed = True
    while changed and pending:
        changed, left = False, []
        for name in pending:
            cell = cells[name]
            if direction == "sinks":
                near = [owner[s] for b in cell.outputs() for s in sinks.get(b, [])
                        if s in owner]
            else:
                near = [owner[drivers[b]] for b in cell.inputs()
                        if b in drivers and drivers[b] in owner]
            near = [s for s in near if _may_own(s, cell, kept)]
            if near:
                owner[name] = _vote(near)
                changed = True
            else:
                left.append(name)
        pending = left
    return pending


