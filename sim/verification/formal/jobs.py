"""The formal jobs of ``make formal`` and their report (docs/formal.md).

- Proofs: the properties of `harness.PROPERTIES`, with the helper invariants, by
  k-induction (SBY's prove mode, smtbmc with Yices): unbounded when it passes. Then,
  per property, a bounded check without each input assumption shows which it needs.
- Why each assumption is needed: a bounded check without it, whose failing trace is
  kept as a VCD (``build/formal/needs_<assumption>/trace.vcd``).
- Covers: each cover in its own job, so that the shortest trace to it is found; the deep
  ones (`DEEP`) from a set-up that ends in a game's position (sim.verification.formal.guides).
- Mutants: every mutant controller of sim.verification.mutants (those of tests/test_mutants.py),
  checked from power-up and from a game's position, and proven where neither fails.
"""

import dataclasses
from unittest import mock

import hdl.eth.chip

from sim.verification.mutants import controller_from

from sim.verification.formal import guides
from sim.verification.formal.harness import ASSUMPTIONS, COVERS, INVARIANTS, PROPERTIES, key_bound
from sim.verification.formal.sby import DEEP_ENGINE, ELABORATING, ENGINE, WORK, Job, run

__all__ = ["PROVE_DEPTH", "ALL", "NEEDS", "COVER_DEPTH", "SETUP", "DEEP", "FALSIFY",
           "POWER_UP", "proof", "needs", "cover", "reach", "Row", "falsify", "mutant",
           "in_games", "from_power_up", "result_text", "report", "unfinished", "job_table"]

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
# set-up (the report's §4, keys at reset) that ends in a game's position: a state a game
# reaches, which shortens the trace (guides).
SETUP = tuple(a for a in ALL if a != "no_setup")
# The covers that take a solver minutes or more under every assumption (the first games
# reach them at 37 to 2,673 clocks, guides.FIRST): from a set-up only.
DEEP = tuple(guides.FIRST)
SETUP_DEPTH = 30
# The bounded checks from a game's position: the mutants' failures come by clock 22.
GAME_DEPTH = 25


def cover(name, depth=COVER_DEPTH, *, assumes=ALL, positions=(), timeout=None, work=WORK):
    """The shortest trace to cover `name` (within `depth` clocks) under `assumes` (and a
    waiting chip holding one of `positions`)."""
    tag = "" if assumes == ALL else "_game" if positions else "_other"
    return run(Job(f"cover{tag}_{name}", "cover", depth, (), tuple(assumes), (name,),
                   engine=DEEP_ENGINE, positions=tuple(positions)),
               timeout=timeout, work=work)


def reach(name, *, timeout=None, work=WORK):
    """(the cover under every assumption, or None for a deep one; from a game's position,
    or None when the first reached it)."""
    kept = None if name in DEEP else cover(name, timeout=timeout, work=work)
    if kept is not None and name in kept.reached:
        return kept, None
    return kept, cover(name, SETUP_DEPTH, assumes=SETUP, positions=guides.positions(),
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


def _reached(outcome, name=None):
    if outcome is None:
        first = guides.FIRST.get(name)
        return f"a game at clock {first:,} (guides.FIRST)" if first else "-"
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
           f"Engine: `{rows[0].outcome.job.engine if rows else ENGINE}` (SBY); the covers "
           f"and the checks from a game's position `{DEEP_ENGINE}`. "
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
                "Shortest traces, under every assumption; the deep ones from a position "
                "set up at reset (no_setup left out) that a game reaches "
                "(docs/formal.md).", "",
                "| cover | what | every assumption | from a game's position | time |",
                "| --- | --- | --- | --- | --- |"]
        for name, (kept, setup) in covers.items():
            spent = sum(o.seconds for o in (kept, setup) if o)
            out.append(f"| `{name}` | {COVERS[name]} | {_reached(kept, name)} | "
                       f"{_reached(setup)} | {spent:.1f} s |")
    if mutants:
        out += ["", "## Mutants of tests/test_mutants.py", "",
                "| mutant | caught by |", "| --- | --- |"]
        for name, caught in mutants:
            out.append(f"| {name} | {caught or 'not caught'} |")
    return "\n".join(out) + "\n"


def in_games(depth=GAME_DEPTH, *, chip=None, name="game_bmc", work=WORK):
    """The bounded check from a set-up that ends in a game's position: the unchanged
    chip passes it (for a mutant's failure there to count), a mutant may fail it."""
    return run(Job(name, "bmc", depth, tuple(PROPERTIES), SETUP, engine=DEEP_ENGINE,
                   positions=guides.positions()), chip=chip, work=work)


# From power-up `never_lost` is checked rather than assumed: every game keeps it (the
# enumeration of tests/test_formal.py), so a bounded check may look for a mutant that
# plays an m it never assigned. Only the unbounded proof has to assume it.
POWER_UP = FALSIFY
POWER_UP_DEPTH = 20


def from_power_up(depth=POWER_UP_DEPTH, *, chip=None, name="power_up_bmc", work=WORK):
    """The bounded check from power-up with never_lost checked: the unchanged chip
    passes it (the control of the mutants' checks), a mutant may fail it."""
    return run(Job(name, "bmc", depth, (*PROPERTIES, "never_lost"), POWER_UP),
               chip=chip, work=work)


def mutant(source, depth=POWER_UP_DEPTH, *, tag="mutant", game_first=False, work=WORK):
    """What the properties say of the mutant controller `source`: the property a
    bounded check finds failing, from power-up (as `from_power_up`) or from a set-up
    that ends in a game's position (as `in_games`), that one first with `game_first`;
    with no failure in either, None when the properties are still proven, else the
    invariant where the proof breaks."""
    def chip():
        # Chip() builds its controller from the name in its module, as the test does.
        with ELABORATING, mock.patch.object(hdl.eth.chip, "Controller",
                                            controller_from(source)):
            return hdl.eth.chip.Chip()

    checks = [(from_power_up, depth, "bmc", "caught"),
              (in_games, GAME_DEPTH, "game", "caught from a game's position")]
    for check, clocks, kind, caught in checks[::-1] if game_first else checks:
        found = check(clocks, chip=chip(), name=f"{tag}_{kind}", work=work)
        if found.status == "fail":
            return f"{caught}: `{found.failed}` fails at clock {found.step}"
    proved = run(Job(f"{tag}_prove", "prove", PROVE_DEPTH, (*PROPERTIES, *INVARIANTS),
                     ALL), chip=chip(), work=work)
    if proved.status == "pass":
        return None
    return (f"flagged: the proof breaks at `{proved.failed or proved.status}`; no "
            f"failure within {depth} clocks, nor {GAME_DEPTH} from a game's position")


def unfinished(covers, mutants):
    """The covers not reached ({name: (kept, from a game's position)}) and the mutants
    not caught ([(name, verdict)]) of a run: make formal fails with any."""
    def reached(name, outcome):
        return outcome is not None and name in outcome.reached
    return ([name for name, outcomes in covers.items()
             if not any(reached(name, o) for o in outcomes)]
            + [name for name, verdict in mutants
               if not (verdict or "").startswith("caught")])


def job_table(runs):
    """The report's table of every SBY job: mode, engine, depth, verdict and time."""
    out = ["", "## Jobs", "", "| job | mode | engine | depth | result | time |",
           "| --- | --- | --- | --- | --- | --- |"]
    for o in sorted(runs, key=lambda o: -o.seconds):
        out.append(f"| {o.job.name} | {o.job.mode} | `{o.job.engine}` | {o.job.depth} | "
                   f"{o.status} | {o.seconds:.1f} s |")
    return out
