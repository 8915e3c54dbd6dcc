"""GTKWave save files (views) for the E.2 waves: the Amaranth chip's, the golden model's
and the netlist's, which all name the chip's signals alike (``ttt_chip.controller.state``).

Every view shows the same traces, grouped by the blocks of the paper's figure 2
(sim.signals.GROUPS, the clock ``cp`` first); a signal the file does not hold is left
out. Codes are decoded by name with GTKWave translate filter files written beside the
view: the controller state and the choose mux (from hdl.eth.controller's enums; Amaranth
writes these as names already) and each of the nine places of ``led`` (two bits each,
shown as nine traces A1 ... C3 reading ``empty``, ``chip`` or ``user``, as
`firmware_ref.eth.alg` numbers and names the places).

A view opens a window of `WINDOW` pixels on the first `SHOWN` seconds, so that every
state's name fits in its cycle; the rest of the session is a scroll away.
"""

import math
from fractions import Fraction
from pathlib import Path

from vcd.gtkw import GTKWSave

from firmware_ref import cli
from firmware_ref.eth.alg import COMPUTER, EMPTY, HUMAN, coordinate
from hdl.eth.board import PLACES
from hdl.eth.controller import Choose, State

from .signals import GROUPS
from .waves import read

__all__ = ["write", "SHOWN", "WINDOW"]

SHOWN = Fraction(2, 10**6)          # seconds in view when the file opens: ten cycles
WINDOW = (1280, 800)                # the window's size in pixels
SIGNALS_WIDTH = 180                 # the names' column, in pixels
WAVES_WIDTH = 1050                  # what is left of WINDOW for the waves (measured)
# GTKWave shows 2**-zoom / 200 file time units per pixel (measured with files in ns,
# ps and fs, in windows of several sizes).
PIXELS_PER_ZOOM_UNIT = 200

ENUMS = {"controller.state": {m.value: m.name for m in State},
         "controller.choose": {m.value: m.name for m in Choose}}
# A place's two bits; both at once is what no game reaches (docs/boards.md).
PLACE = {EMPTY: "empty", COMPUTER: "chip", HUMAN: "user", COMPUTER | HUMAN: "both"}
DATAFMT = {"board.board": "bin", "keyboardN": "bin", "keyboard.keyboard": "bin"}


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


def _places(save, name, width, place_filter):
    """`led` as nine 2-bit traces, one a place. GTKWave numbers a vector's bits from
    the left: bit b of [width-1:0] is (width-1-b)."""
    with save.group("led"):
        for place in range(PLACES):
            high, low = 2 * place + 1, 2 * place
            save.trace(f"#{{led[{high}:{low}]}} ({width - 1 - high}){name} "
                       f"({width - 1 - low}){name}",
                       alias=f"led {coordinate(place)}", datafmt="hex",
                       translate_filter_file=str(place_filter))


def write(waves_path, *, scope, save_path=None):
    """Write a view of `waves_path` (VCD or FST) showing the chip under `scope`
    (``ttt_chip`` in every file here); returns its path (default: beside the waves,
    with the suffix .gtkw). The filters go beside it."""
    waves_path = Path(waves_path)
    save_path = Path(save_path or waves_path.with_suffix(".gtkw"))
    waves = read(waves_path)
    found = {}
    for var in waves.vars:
        if var.path[:1] == (scope,) and len(var.path) > 1:
            # GTKWave names a vector with its range, [w-1:0] when the file gives none.
            bits = var.range or (f"[{var.width - 1}:0]"
                                 if var.width > 1 and not var.is_string else "")
            found.setdefault(".".join(var.path[1:]), (var, var.name + bits))
    filters = {path: _filter(save_path.parent, path.split(".")[-1], codes)
               for path, codes in ENUMS.items()}
    place_filter = _filter(save_path.parent, "place", PLACE)
    with cli.replacing(save_path) as file:
        save = GTKWSave(file)
        save.comment(f"written by sim/gtkw.py for {waves_path.name}")
        save.dumpfile(str(waves_path.resolve()))
        save.savefile(str(save_path.resolve()))
        save.size(*WINDOW)
        save.zoom_markers(zoom=zoom(waves.unit))
        save.signals_width(SIGNALS_WIDTH)
        save.sst_expanded(False)
        save.treeopen(scope)
        for group, members in GROUPS.items():
            paths = [m if group == "pins" else f"{group}.{m}" for m in members]
            paths = [p for p in paths if p in found]
            if not paths:
                continue
            with save.group(group):
                for path in paths:
                    var, name = found[path]
                    if path == "led" and var.width == 2 * PLACES:
                        _places(save, name, var.width, place_filter)
                        continue
                    enum_filter = filters.get(path) if not var.is_string else None
                    save.trace(name, alias=path, datafmt=DATAFMT.get(path, "hex"),
                               translate_filter_file=str(enum_filter)
                               if enum_filter else None)
    return save_path
