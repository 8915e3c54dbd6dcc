"""Waves opened in GTKWave with their view, or, where GTKWave cannot show them, why and
how else to look at them: one line each, never GTKWave's usage text."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["show"]


def _display():
    """Why GTKWave could not show a window here, or None if it may."""
    if sys.platform in ("darwin", "win32"):
        return None
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return "there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set)"
    return None


def _how_to_open(vcd, view, why, what, scope):
    def shown(path):
        path = Path(path).resolve()
        return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
    vcd, view = shown(vcd), shown(view)
    print(f"The waves of {what} are in {vcd} and their view in {view}.")
    print(f"GTKWave cannot show them: {why}. To look at them, either")
    print("  - where there is a display (a desktop, or 'ssh -X' to this machine), run")
    print(f"    gtkwave {vcd} {view}")
    print("    (GTKWave: 'apt install gtkwave', or 'brew install gtkwave' on macOS)")
    print(f"  - or open {vcd} in Surfer (surfer-project.org, also in a browser): its")
    print(f"    signal tree holds the same names, under {scope}.")
    return 0


def show(vcd, view, *, what, scope):
    """Open the waves `vcd` with their GTKWave save file `view`, or, where GTKWave cannot
    show them, say why and how else to look at `what` (named under `scope`)."""
    viewer = shutil.which("gtkwave")
    if viewer is None:
        return _how_to_open(vcd, view, "it is not installed here (no gtkwave on the PATH)",
                            what, scope)
    why = _display()
    if why:
        return _how_to_open(vcd, view, why, what, scope)
    # GTKWave that cannot open a display prints its usage and exits 0: say why instead.
    opened = subprocess.run([viewer, str(vcd), str(view)], capture_output=True, text=True)
    if "Could not initialize GTK" in opened.stderr:
        display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        return _how_to_open(vcd, view, f"it could not open the display {display}", what,
                            scope)
    if opened.returncode:
        sys.stderr.write(opened.stderr)
    return opened.returncode
