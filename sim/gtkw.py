"""GTKWave save files for the netlist's and the golden model's waves.

A netlist holds the controller state and the choose mux as plain codes; the save file
decodes them by name with GTKWave translate filter files written beside it
(``state.filter``, ``choose.filter``, from hdl.controller's enums). Signals are grouped
by the blocks of the paper's figure 2 (sim.signals.GROUPS), as in the Amaranth view; a
signal the file does not hold is left out.
"""

import math
from pathlib import Path

from vcd.gtkw import GTKWSave

from hdl.controller import Choose, State

from .signals import GROUPS
from .waves import read

__all__ = ["write"]

ENUMS = {"controller.state": State, "controller.choose": Choose}
DATAFMT = {"led": "bin", "board.board": "bin", "keyboardN": "bin",
           "keyboard.keyboard": "bin"}


def _filter(directory, name, enum):
    """A translate filter: the hex digit GTKWave shows for a code, then its name."""
    path = directory / f"{name}.filter"
    path.write_text("".join(f"{member.value:x} {member.name}\n" for member in enum))
    return path


def write(waves_path, *, scope, save_path=None):
    """Write a save file for `waves_path` (VCD or FST) showing the chip under `scope`
    (``ttt_chip`` for the netlist and the golden waves alike); returns its
    path (default: beside the waves, with the suffix .gtkw)."""
    waves_path = Path(waves_path)
    save_path = Path(save_path or waves_path.with_suffix(".gtkw"))
    waves = read(waves_path)
    names = {}
    for var in waves.vars:
        full = ".".join(var.path)
        if full.startswith(scope + "."):
            # GTKWave names a vector with its range, [w-1:0] when the file gives none.
            bits = var.range or (f"[{var.width - 1}:0]"
                                 if var.width > 1 and not var.is_string else "")
            names.setdefault(full[len(scope) + 1:], full + bits)
    filters = {path: _filter(save_path.parent, path.split(".")[-1], enum)
               for path, enum in ENUMS.items()}
    with open(save_path, "w") as file:
        save = GTKWSave(file)
        save.comment(f"written by sim/gtkw.py for {waves_path.name}")
        save.dumpfile(str(waves_path.resolve()))
        save.savefile(str(save_path.resolve()))
        # GTKWave's zoom is a power of two of the file's time unit: -32 shows E.2's
        # 10 us at femtoseconds (seen in GTKWave), so scale that to this file's unit.
        save.zoom_markers(zoom=-32 + math.log2(waves.unit * 10**15))
        save.treeopen(scope)
        for group, members in GROUPS.items():
            paths = [m if group == "pins" else f"{group}.{m}" for m in members]
            paths = [p for p in paths if p in names]
            if not paths:
                continue
            with save.group(group):
                for path in paths:
                    enum_filter = filters.get(path)
                    save.trace(names[path], alias=path,
                               datafmt=DATAFMT.get(path, "hex"),
                               translate_filter_file=str(enum_filter.resolve())
                               if enum_filter else None)
    return save_path
