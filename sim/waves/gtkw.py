"""GTKWave save files (views).

A view is data (`View`): the waves it opens, its rows (`Trace`s and `Group`s of them),
the translate filters that name codes, the zoom and the window. `save` is the one writer
of every save file the project writes, and of the filters beside it.

`chip_view` is the view of the E.2 waves: the Amaranth chip's, the golden model's and the
netlist's, which all name the chip's signals alike (``ttt_chip.controller.state``). Every
such view shows the same traces, grouped by the blocks of the paper's figure 2
(sim.chip.signals.GROUPS, the clock ``cp`` first); a signal the file does not hold is left
out. Codes are decoded by name with translate filters: the controller state and the
choose mux (from hdl.eth.controller's enums; Amaranth writes these as names already) and
each of the nine places of ``led`` (two bits each, shown as nine traces A1 ... C3 reading
``empty``, ``chip`` or ``user``, as `firmware_ref.eth.alg` numbers and names the places).

A view opens a window of `WINDOW` pixels on the first `SHOWN` seconds, so that every
state's name fits in its cycle; the rest of the session is a scroll away.
"""

import math
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from vcd.gtkw import GTKWSave

from firmware_ref import cli
from firmware_ref.eth.alg import COMPUTER, EMPTY, HUMAN, coordinate
from hdl.eth.board import PLACES
from hdl.eth.controller import Choose, State

from sim.chip.signals import GROUPS
from sim.waves.files import read

__all__ = ["Trace", "Group", "View", "save", "chip_view", "write", "zoom", "SHOWN", "WINDOW"]

SHOWN = Fraction(2, 10**6)          # seconds in view when the file opens: ten cycles
WINDOW = (1280, 800)                # the window's size in pixels
SIGNALS_WIDTH = 180                 # the names' column, in pixels
WAVES_WIDTH = 1050                  # what is left of WINDOW for the waves (measured)
# GTKWave shows 2**-zoom / 200 file time units per pixel (measured with files in ns,
# ps and fs, in windows of several sizes).
PIXELS_PER_ZOOM_UNIT = 200

# A place's two bits; both at once is what no game reaches (docs/boards.md).
PLACE = {EMPTY: "empty", COMPUTER: "chip", HUMAN: "user", COMPUTER | HUMAN: "both"}
# The chip's translate filters by name (written as <name>.filter), and the signals whose
# codes they name.
FILTERS = {"state": {m.value: m.name for m in State},
           "choose": {m.value: m.name for m in Choose},
           "place": PLACE}
ENUMS = {"controller.state": "state", "controller.choose": "choose"}
DATAFMT = {"board.board": "bin", "keyboardN": "bin", "keyboard.keyboard": "bin"}


@dataclass(frozen=True)
class Trace:
    """A row: what GTKWave reads (a signal's name with its range, or ``#{...}`` bits of
    one), the name it shows, the number format and the translate filter (a name in the
    view's `filters`) that names its codes."""
    signal: str
    alias: str
    datafmt: str = "hex"
    filter: str | None = None


@dataclass(frozen=True)
class Group:
    """Rows under a name, which GTKWave shows as a group."""
    name: str
    rows: tuple


@dataclass(frozen=True)
class View:
    """What a save file holds: the waves it opens (`dumpfile`), its rows, the zoom
    (GTKWave's, see `zoom`), the scope whose tree opens, and the translate filters
    ({name: {code: text}}) written beside it as <name>.filter."""
    dumpfile: Path
    rows: tuple
    zoom: float
    treeopen: str = ""
    filters: dict = field(default_factory=dict)
    size: tuple = WINDOW
    signals_width: int = SIGNALS_WIDTH


def save(view, path):
    """Write `view` as the GTKWave save file `path` and its filters beside it, each
    whole or not at all; returns `path`."""
    path = Path(path)
    filters = {name: _filter(path.parent, name, codes)
               for name, codes in view.filters.items()}
    with cli.replacing(path) as file:
        gtkw = GTKWSave(file)
        gtkw.comment(f"written by sim/waves/gtkw.py for {Path(view.dumpfile).name}")
        gtkw.dumpfile(str(Path(view.dumpfile).resolve()))
        gtkw.savefile(str(path.resolve()))
        gtkw.size(*view.size)
        gtkw.zoom_markers(zoom=view.zoom)
        gtkw.signals_width(view.signals_width)
        gtkw.sst_expanded(False)
        if view.treeopen:
            gtkw.treeopen(view.treeopen)
        _rows(gtkw, view.rows, filters)
    return path


def _rows(gtkw, rows, filters):
    for row in rows:
        if isinstance(row, Group):
            with gtkw.group(row.name):
                _rows(gtkw, row.rows, filters)
        else:
            gtkw.trace(row.signal, alias=row.alias, datafmt=row.datafmt,
                       translate_filter_file=str(filters[row.filter])
                       if row.filter else None)


def _filter(directory, name, codes):
    """A translate filter: the hex digit GTKWave shows for a code, then its name."""
    path = directory / f"{name}.filter"
    with cli.replacing(path) as file:
        file.write("".join(f"{code:x} {text}\n" for code, text in codes.items()))
    return path.resolve()


def zoom(unit):
    """GTKWave's zoom that shows `SHOWN` seconds in `WAVES_WIDTH` pixels, for a file
    whose time unit is `unit` seconds."""
    return -math.log2(PIXELS_PER_ZOOM_UNIT * SHOWN / WAVES_WIDTH / unit)


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
