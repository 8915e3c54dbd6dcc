"""The chip's GTKWave view of its E.2 waves: the Amaranth chip's, the golden model's and
the netlist's, which all name the chip's signals alike (``ttt_chip.controller.state``).

Every such view shows the same traces, grouped by the blocks of the paper's figure 2
(sim.chip.signals.GROUPS, the clock ``cp`` first); a signal the file does not hold is left
out. Codes are decoded by name with translate filters: the controller state and the
choose mux (from hdl.eth.controller's enums; Amaranth writes these as names already) and
each of the nine places of ``led`` (two bits each, shown as nine traces A1 ... C3 reading
``empty``, ``chip`` or ``user``, as `firmware_ref.places` numbers and names the places).
"""

from pathlib import Path

from firmware_ref.places import COMPUTER, EMPTY, HUMAN, coordinate
from hdl.eth.board import PLACES
from hdl.eth.controller import Choose, State

from sim.chip.signals import GROUPS
from sim.waves.files import Var, Waves, read
from sim.waves.gtkw import Group, Trace, View, save, zoom

__all__ = ["SCOPE", "FILTERS", "chip_view", "write", "write_declared"]

# Where the chip's waves name it, as a person is told to look for it.
SCOPE = "ttt_chip (its blocks, ttt_chip.controller and the others)"

# A place's two bits; both at once is what no game reaches (docs/boards.md).
PLACE = {EMPTY: "empty", COMPUTER: "chip", HUMAN: "user", COMPUTER | HUMAN: "both"}
# The chip's translate filters by name (written as <name>.filter), and the signals whose
# codes they name.
FILTERS = {"state": {m.value: m.name for m in State},
           "choose": {m.value: m.name for m in Choose},
           "place": PLACE}
ENUMS = {"controller.state": "state", "controller.choose": "choose"}
DATAFMT = {"board.board": "bin", "keyboardN": "bin", "keyboard.keyboard": "bin"}


def _places(name, width):
    """`led` as nine 2-bit traces, one a place. GTKWave numbers a vector's bits from
    the left: bit b of [width-1:0] is (width-1-b)."""
    return Group("led", tuple(
        Trace(f"#{{led[{2 * place + 1}:{2 * place}]}} ({width - 2 - 2 * place}){name} "
              f"({width - 1 - 2 * place}){name}",
              f"led {coordinate(place)}", "hex", "place")
        for place in range(PLACES)))


def chip_view(waves, scope):
    """The view of the chip under `scope` (``ttt_chip`` in every file here) in `waves`
    (a sim.waves.files.Waves)."""
    found = {}
    for var in waves.vars:
        if var.path[:1] == (scope,) and len(var.path) > 1:
            # GTKWave names a vector with its range, [w-1:0] in every file here (pywellen
            # gives no range: it is [w-1:0] when the file declares none).
            bits = f"[{var.width - 1}:0]" if var.width > 1 and not var.is_string else ""
            found.setdefault(".".join(var.path[1:]), (var, var.name + bits))
    rows = []
    for group, members in GROUPS.items():
        traces = []
        for path in (m if group == "pins" else f"{group}.{m}" for m in members):
            if path not in found:
                continue
            var, name = found[path]
            if path == "led" and var.width == 2 * PLACES:
                traces.append(_places(name, var.width))
            else:
                traces.append(Trace(name, path, DATAFMT.get(path, "hex"),
                                    None if var.is_string else ENUMS.get(path)))
        if traces:
            rows.append(Group(group, tuple(traces)))
    return View(waves.path, tuple(rows), zoom(waves.unit), treeopen=scope,
                filters=FILTERS)


def write(waves_path, *, scope, save_path=None):
    """Write the view of `waves_path` (VCD or FST) showing the chip under `scope`; returns
    its path (default: beside the waves, with the suffix .gtkw). The filters go beside
    it."""
    waves_path = Path(waves_path)
    return save(chip_view(read(waves_path), scope),
                save_path or waves_path.with_suffix(".gtkw"))


def write_declared(waves_path, widths, *, scope, unit, save_path):
    """As `write`, for waves whose variables are known without reading the file back
    (a long session's would be read whole): `widths` the bits of each wire by its
    dotted name below `scope`, `unit` the file's seconds per time unit."""
    variables = [Var((scope, *name.split(".")), width, "wire")
                 for name, width in widths.items()]
    return save(chip_view(Waves(Path(waves_path), unit, variables, 0), scope), save_path)
