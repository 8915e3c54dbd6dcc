"""The paper's E.2 session as a user meets it: ``ttt e2`` replays and reports it,
``ttt waves`` opens its waves (the HDL's or the golden model's; the netlist's through
sim.bench.checks) in GTKWave, or says how to where GTKWave cannot show them."""

import sys

from sim import BUILD, Mismatch
from sim.chip import e2
from sim.chip.view import SCOPE
from sim.waves.show import show

__all__ = ["report", "waves"]


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
    from sim.bench import lockstep     # Amaranth is imported only when the HDL is asked for
    vcd, view = _hdl_waves(build)
    try:
        return lockstep.simulate(lockstep.replaying_e2, vcd=vcd, gtkw=view)
    except Mismatch as mismatch:
        print(f"The chip and the golden model disagree:\n{mismatch}", file=sys.stderr)
        return None


def waves(*, which="hdl", build=BUILD):
    """Write the E.2 waves `which` ("hdl", the Amaranth chip's, or "golden") and their
    view, and open it (the netlist's: sim.bench.checks.waves)."""
    if which == "golden":
        vcd = _golden_waves(build)
        view = vcd.with_suffix(".gtkw")
    else:
        if _on_hdl(build) is None:
            return 1
        vcd, view = _hdl_waves(build)
    return show(vcd, view, what="the E.2 session", scope=SCOPE)
