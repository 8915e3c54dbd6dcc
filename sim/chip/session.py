"""The paper's E.2 session as a user meets it: ``ttt e2`` replays and reports it,
``ttt waves`` opens its waves (the HDL's or the golden model's; the netlist's through
sim.backends.netlist) in GTKWave, or says how to where GTKWave cannot show them."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from sim import BUILD, Mismatch
from sim.chip import e2

__all__ = ["SCOPE", "report", "waves", "show"]


def report(*, golden=False, clock=6.0, build=BUILD):
    """Replay E.2 on the Amaranth chip (or with `golden` on the golden model alone),
    print it in the paper's columns and each chip move's think time at `clock` MHz,
    write the waves into `build`; 1 if a row differs from the paper."""
    paper = e2.paper_rows()
    if golden:
        rows = e2.replay()
        where = "the golden model (firmware_ref/eth/cycle.py)"
    else:
        rows = _on_hdl(build)
        if rows is None:
            return 1
        where = ("the Amaranth chip (hdl/eth/chip.py), checked against the golden model\n"
                 "at every edge,")
    differences = e2.compare(rows, paper, hardware=not golden)
    print(f"Appendix E.2 replayed on {where} in the paper's column order")
    print("('!' marks a row that differs from the paper):")
    print()
    print(e2.format_table(rows, marks={d.time for d in differences}))
    print()
    if differences:
        print(f"{len(differences)} cells differ from the paper's trace; the first:")
        for difference in differences[:10]:
            print(f"  {difference}")
    else:
        unknown = sum(f == "u" for row in paper for f in row.fields)
        print(f"All {len(rows)} rows match the paper's trace in all {len(e2.COLUMNS)} "
              f"columns ({e2.TRACE.name}, scan defects repaired as documented).")
        if not golden:
            print(f"The paper's {unknown} 'u' cells (never-written registers) match "
                  f"whatever the chip holds there.")
    print()
    print(f"Chip moves in this session, think time at {clock:g} MHz:")
    for n, (ended, cycles) in enumerate(e2.think_times(rows), start=1):
        after = "the game is over" if ended.name == "FINISHED" else "the chip waits"
        print(f"  move {n}: {cycles} cycles = {cycles / clock:.2f} us, then {after}")
    print()
    golden_vcd = _golden_waves(build)
    if not golden:
        vcd, view = _hdl_waves(build)
        print(f"Waves: {vcd.relative_to(build.parent)} with the GTKWave view "
              f"{view.name}; 'make waves' opens them.")
    print(f"Golden waves: {golden_vcd.relative_to(build.parent)}, same names as the "
          f"netlist's; 'make compare' checks the HDL's against them.")
    return 1 if differences else 0


def _hdl_waves(build):
    return build / "e2.vcd", build / "e2.gtkw"


def _golden_waves(build):
    """Write the golden model's E.2 waves and their view; returns the waves' path."""
    from hdl.eth.export import TOP
    from sim.chip import golden_waves, view
    vcd = build / "e2_golden.vcd"
    golden_waves.write_session(vcd, e2.SESSION)
    view.write(vcd, scope=TOP)
    return vcd


def _on_hdl(build):
    from sim.chip import lockstep      # Amaranth is imported only when the HDL is asked for
    vcd, view = _hdl_waves(build)
    try:
        return lockstep.simulate(lockstep.replaying_e2,
                                 vcd=vcd, gtkw=view)
    except Mismatch as mismatch:
        print(f"The chip and the golden model disagree:\n{mismatch}", file=sys.stderr)
        return None


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


# Where the E.2 waves name the chip, as `show` says it.
SCOPE = "ttt_chip (its blocks, ttt_chip.controller and the others)"


def waves(*, which="hdl", build=BUILD):
    """Write the E.2 waves `which` ("hdl", the Amaranth chip's, or "golden") and their
    view, and open it (the netlist's: sim.backends.netlist.waves)."""
    if which == "golden":
        vcd = _golden_waves(build)
        view = vcd.with_suffix(".gtkw")
    else:
        if _on_hdl(build) is None:
            return 1
        vcd, view = _hdl_waves(build)
    return show(vcd, view, what="the E.2 session", scope=SCOPE)


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
