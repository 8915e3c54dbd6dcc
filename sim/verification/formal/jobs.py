"""The formal jobs of ``make formal`` and their report (docs/formal.md).

- Proofs: the properties of `harness.PROPERTIES`, with the helper invariants, by
  k-induction (SBY's prove mode, smtbmc with Yices): unbounded when it passes. Then,
  per property, a bounded check without each input assumption shows which it needs.
- Why each assumption is needed: a bounded check without it, whose failing trace is
  kept as a VCD (``build/formal/needs_<assumption>/trace.vcd``).
- Covers: each cover in its own job, so that the shortest trace to it is found.
- Mutants: every mutant controller of sim.verification.mutants (those of tests/test_mutants.py),
  proven and checked.
"""

import dataclasses
from unittest import mock

import hdl.eth.chip

from sim.verification.mutants import controller_from

from sim.verification.formal.harness import ASSUMPTIONS, COVERS, INVARIANTS, PROPERTIES, key_bound
from sim.verification.formal.sby import ENGINE, WORK, Job, run

__all__ = ["PROVE_DEPTH", "ALL", "NEEDS", "COVER_DEPTH", "SETUP", "FALSIFY", "proof",
           "needs", "cover", "Row", "falsify", "rows", "mutant", "result_text", "report"]

PROVE_DEPTH = 1                 # k of the k-induction: the invariants make k = 1 enough
ALL = tuple(ASSUMPTIONS)
# assumption left out: (the statement that then fails, the assumptions kept, BMC depth)
NEEDS = {
    "scan_low": ("no_place_11", ("reset_first", "no_setup", "never_lost"), 4),
    "reset_first": ("no_place_11", ("scan_low", "no_setup", "never_lost"), 4),
    "no_setup": ("no_place_11", ("scan_low", "reset_first", "never_lost"), 8),
    # Only a set-up reaches a lost position in a few clocks, so no_setup is left out
    # too; the trace shows the chip about to play an m it never assigned.
    "never_lost": ("never_lost", ("scan_low", "reset_first"), 30),
}
COVER_DEPTH = 60


def proof(names, assumes=ALL, *, work=WORK):
    """Prove the properties `names` (with the invariants) under `assumes`."""
    names = (names,) if isinstance(names, str) else tuple(names)
    job = Job(f"prove_{'_'.join(names) if len(names) == 1 else 'all'}", "prove",
              PROVE_DEPTH, (*names, *INVARIANTS), tuple(assumes))
    return run(job, work=work)


def needs(assumption, *, work=WORK):
    """The bounded check without `assumption` that fails."""
    statement, kept, depth = NEEDS[assumption]
    return run(Job(f"needs_{assumption}", "bmc", depth, (statement,), kept), work=work)


# A cover the solver cannot reach in time under every assumption is tried again with a
# set-up position allowed (the report's §4, keys at reset), which shortens the game.
SETUP = tuple(a for a in ALL if a != "no_setup")


def cover(name, depth=COVER_DEPTH, *, assumes=ALL, timeout=None, work=WORK):
    """The shortest trace to cover `name` (within `depth` clocks) under `assumes`."""
    tag = "" if assumes == ALL else "_setup" if assumes == SETUP else "_other"
    return run(Job(f"cover{tag}_{name}", "cover", depth, (), tuple(assumes), (name,)),
               timeout=timeout, work=work)


# The assumptions a bounded check can show a property needs, within this many clocks.
FALSIFY = ("scan_low", "reset_first", "no_setup")
FALSIFY_DEPTH = 8


@dataclasses.dataclass
class Row:
    """A property's line of the report."""
    name: str
    outcome: object                 # the proof of every property together
    needed: dict                    # assumption -> the failing run without it
    seconds: float                  # the bounded checks for this row


def falsify(name, assumption, *, work=WORK):
    """A bounded check of property `name` without `assumption`."""
    kept = tuple(a for a in ALL if a != assumption)
    return run(Job(f"without_{assumption}_{name}", "bmc", FALSIFY_DEPTH, (name,), kept),
               work=work)


def rows(log=print, *, work=WORK):
    """Every property's row: the proof of all of them together (each helps the others'
    induction, as the invariants do), and for each the assumptions whose absence a
    bounded check shows it needs."""
    together = proof(PROPERTIES, work=work)
    log(f"every property, {len(INVARIANTS)} invariants: {together.status} "
        f"({together.seconds:.1f} s)")
    made = []
    for name in PROPERTIES:
        checks = {a: falsify(name, a, work=work) for a in FALSIFY}
        needed = {a: o for a, o in checks.items() if o.status == "fail"}
        made.append(Row(name, together, needed, sum(o.seconds for o in checks.values())))
        log(f"{name} needs: {', '.join(needed) or 'none of ' + ', '.join(FALSIFY)}")
    return made


def result_text(outcome):
    if outcome.status == "pass":
        mode = outcome.job.mode
        if mode == "prove":
            return f"proven unbounded (k-induction, k = {outcome.job.depth})"
        return f"no failure in {outcome.job.depth} clocks"
    if outcome.status == "fail":
        trace = outcome.traces[0].name if outcome.traces else "no trace"
        return f"failed at clock {outcome.step}: {outcome.failed} ({trace})"
    if outcome.status == "unknown":
        return f"not proven: induction fails at {outcome.failed}"
    return f"{outcome.status} (log: {outcome.log})"


def _reached(outcome):
    if outcome is None:
        return "-"
    name = outcome.job.covers[0]
    step = outcome.reached.get(name)
    if step is not None:
        return f"clock {step} (`{outcome.traces[0].relative_to(WORK.parent.parent)}`)"
    if outcome.status == "timeout":
        return (f"not within {outcome.step} clocks (stopped after "
                f"{outcome.seconds:.0f} s)")
    return f"not within {outcome.job.depth} clocks"


def report(rows, needs_outcomes, covers, mutants=()):
    """The markdown report of a make formal run."""
    out = ["# Formal proofs of the chip", "",
           f"Engine: `{rows[0].outcome.job.engine if rows else ENGINE}` (SBY). "
           f"Every proof includes the {len(INVARIANTS)} helper invariants of "
           "sim/verification/formal/harness.py, which are proven with it.", "",
           "## Properties", "",
           f"All {len(PROPERTIES)} properties and the invariants are proven in one job "
           "under every assumption: " + (result_text(rows[0].outcome) if rows else "-")
           + (f", {rows[0].outcome.seconds:.1f} s." if rows else "."), "",
           f"Needs: the assumptions without which a bounded check ({FALSIFY_DEPTH} clocks) "
           "finds the property failing, and the clock of the failure. Without `never_lost` "
           "the induction breaks at `no_place_11`: doingbestmove would toggle an m "
           "never assigned (next table).", "",
           "| property | what it says | needs (failing clock) | checks |",
           "| --- | --- | --- | --- |"]
    for row in rows:
        needed = ", ".join(f"{a} ({o.step})" for a, o in row.needed.items()) or "none"
        out.append(f"| `{row.name}` | {PROPERTIES[row.name]} | {needed} | "
                   f"{row.seconds:.1f} s |")
    out += ["", f"`search_ends` bounds a search (userjustmoved to doingbestmove or "
            f"finished) by {key_bound():,} clocks; the enumeration of every game "
            "finds 15,007 at worst (BENCHMARKS.md).", "",
            "## Why each assumption is needed", "",
            "| assumption | what it says | left out, this fails | clocks | trace |",
            "| --- | --- | --- | --- | --- |"]
    for name, outcome in needs_outcomes.items():
        trace = (f"`{outcome.traces[0].relative_to(WORK.parent.parent)}`"
                 if outcome.traces else "-")
        failed = outcome.failed if outcome.status == "fail" else f"({outcome.status})"
        out.append(f"| `{name}` | {ASSUMPTIONS[name]} | `{failed}` | {outcome.step} | "
                   f"{trace} |")
    if covers:
        out += ["", "## Covers", "",
                "Shortest traces, under every assumption; where the solver stops first, "
                "again with a position set up at reset (no_setup left out).", "",
                "| cover | what | every assumption | with a set-up | time |",
                "| --- | --- | --- | --- | --- |"]
        for name, (kept, setup) in covers.items():
            spent = kept.seconds + (setup.seconds if setup else 0)
            out.append(f"| `{name}` | {COVERS[name]} | {_reached(kept)} | "
                       f"{_reached(setup)} | {spent:.1f} s |")
    if mutants:
        out += ["", "## Mutants of tests/test_mutants.py", "",
                "| mutant | caught by |", "| --- | --- |"]
        for name, caught in mutants:
            out.append(f"| {name} | {caught or 'not caught'} |")
    return "\n".join(out) + "\n"


def mutant(source, depth=20, *, work=WORK):
    """What the properties say of the mutant controller `source`: None when they are
    still proven; else the property a bounded check finds failing, or, with no failure
    within `depth` clocks, the invariant where the proof breaks."""
    def chip():
        # Chip() builds its controller from the name in its module, as the test does.
        with mock.patch.object(hdl.eth.chip, "Controller", controller_from(source)):
            return hdl.eth.chip.Chip()

    proved = run(Job("mutant_prove", "prove", PROVE_DEPTH, (*PROPERTIES, *INVARIANTS),
                     ALL), chip=chip(), work=work)
    if proved.status == "pass":
        return None
    found = run(Job("mutant_bmc", "bmc", depth, tuple(PROPERTIES), ALL), chip=chip(),
                work=work)
    if found.status == "fail":
        return f"caught: `{found.failed}` fails at clock {found.step}"
    return (f"flagged: the proof breaks at `{proved.failed or proved.status}`; no "
            f"failure within {depth} clocks")
