"""GTKWave save files (views).

A view is data (`View`): the waves it opens, its rows (`Trace`s and `Group`s of them),
the translate filters that name codes, the zoom and the window. `save` is the one writer
of every save file the project writes, and of the filters beside it.

The views themselves are their games': the chip's E.2 waves (sim.chip.view) and a
game's at the console's pins (sim.waves.game).

A view opens a window of `WINDOW` pixels on the first `SHOWN` seconds, so that every
state's name fits in its cycle; the rest of the session is a scroll away.
"""

import math
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from vcd.gtkw import GTKWSave

from firmware_ref import cli

__all__ = ["Trace", "Group", "View", "save", "zoom", "SHOWN", "WINDOW"]

SHOWN = Fraction(2, 10**6)          # seconds in view when the file opens: ten cycles
WINDOW = (1280, 800)                # the window's size in pixels
SIGNALS_WIDTH = 180                 # the names' column, in pixels
WAVES_WIDTH = 1050                  # what is left of WINDOW for the waves (measured)
# GTKWave shows 2**-zoom / 200 file time units per pixel (measured with files in ns,
# ps and fs, in windows of several sizes).
PIXELS_PER_ZOOM_UNIT = 200


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
