"""Proofs of the chip and of its netlists: ``make formal`` (docs/formal.md).

``ttt formal`` runs, with SBY, Yosys and Yices from PyPI:

1. the properties of sim.verification.formal.harness by k-induction, and for each a bounded check
   without each input assumption, to show the ones it needs;
2. a bounded check without each assumption, whose failing trace is kept as a VCD;
3. each cover, for its shortest trace, and where the solver stops at its time limit,
   again with a position set up at reset (``--no-covers`` leaves them out: the deep
   ones take minutes each);
4. every mutant controller of sim.verification.mutants, to see which the properties catch
   (``--no-mutants``);
5. the equivalence of the RTL with the exported Verilog, synth_ice40's netlist and the
   chip of each board build that the caller passes in (`boards`, made by
   boards/builds/netlists.py), synthesised and routed (sim.verification.equiv, which
   docs/equivalence.md explains; ``--no-equiv``). A board whose bitstream is missing or
   older than the sources is built first, as ``make bitstream`` does,

and writes build/formal/report.md and report.json, each whole or not at all. The exit
status is 1 when the properties are not proven or a netlist is not equivalent.
"""

import json

from firmware_ref.cli import UserError, replacing

from sim.verification.formal import jobs
from sim.verification.formal.harness import ASSUMPTIONS, COVERS
from sim.verification.formal.sby import WORK
from sim.verification import equiv
from sim.verification.mutants import mutants

__all__ = ["REPORT", "run"]

REPORT = WORK / "report"
# The time limit of a cover's job: the deepest covers take longer than the rest together.
COVER_TIMEOUT = 360


def _routed(boards, log):
    """Make sure each board's routed netlist is there, from the sources as they are."""
    for board in boards:
        try:
            board.routed()
        except UserError:
            log(f"building the {board.name}'s bitstream for its routed netlist")
            board.bitstream()


def run(*, boards=(), covers=True, mutated=True, equivalence=True, log=print):
    """``ttt formal``: the proofs, and the equivalence of the netlists, the chip of each
    of `boards` (sim.verification.gatelevel.Board) among them; 1 if one fails."""
    rows = jobs.rows(log=log)
    needs = {}
    for name in ASSUMPTIONS:
        needs[name] = outcome = jobs.needs(name)
        log(f"without {name}: {outcome.failed or outcome.status} at clock {outcome.step}")
    reached = {}
    if covers:
        for name in COVERS:
            kept = jobs.cover(name, timeout=COVER_TIMEOUT)
            setup = None
            if name not in kept.reached:
                setup = jobs.cover(name, assumes=jobs.SETUP, timeout=COVER_TIMEOUT)
            reached[name] = (kept, setup)
            log(f"cover {name}: {kept.reached.get(name, kept.status)}"
                + (f", set up: {setup.reached.get(name, setup.status)}" if setup else ""))
    caught = []
    if mutated:
        for name, source in mutants():
            caught.append((name, jobs.mutant(source)))
            log(f"mutant {name}: {caught[-1][1] or 'not caught'}")
    equal = []
    if equivalence:
        _routed(boards, log)
        equal = equiv.check(boards=boards, log=log)
    text = jobs.report(rows, needs, reached, caught)
    if equal:
        text += "\n## Equivalence of the netlists (docs/equivalence.md)\n\n" + \
            equiv.report(equal)
    summary = {
        "properties": {row.name: {"status": row.outcome.status,
                                  "needs": {a: o.step for a, o in row.needed.items()}}
                       for row in rows},
        "needs": {name: {"fails": o.failed, "clock": o.step,
                         "trace": str(o.traces[0]) if o.traces else None}
                  for name, o in needs.items()},
        "covers": {name: {"clocks": kept.reached.get(name),
                          "set_up": setup.reached.get(name) if setup else None}
                   for name, (kept, setup) in reached.items()},
        "mutants": dict(caught),
        "equivalence": {result.pair: result.summary() for result in equal},
    }
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    with replacing(REPORT.with_suffix(".md")) as out:
        out.write(text)
    with replacing(REPORT.with_suffix(".json")) as out:
        json.dump(summary, out, indent=1)
    print(text)
    proven = all(row.outcome.status == "pass" for row in rows)
    return 0 if proven and all(result.equivalent for result in equal) else 1
