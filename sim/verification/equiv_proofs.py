"""The proofs of sim/verification/equiv.py, with Yosys on the pair's RTLIL: induction
over the pins and the flip-flop pairs that simulation found (``equiv_induct``), what
holds at power-up and for a bound from it (``sat``), and Yosys's own flow by name
(``equiv_make``, ``equiv_simple``, ``equiv_induct``, ``equiv_status``)."""

import re

from sim.yosys_json import ASSUME, EQUIV, NOT, XNOR, XOR

from sim.verification.equiv_netlists import both, run_yosys

__all__ = ["DEPTH", "BOUND", "prove", "bounded", "by_name"]

DEPTH = 1                   # cycles that induction assumes before the one it proves
BOUND = 20                  # cycles from power-up that a pin left unproven is checked for


def _with_cells(work, name, equivs, *, checks=(), assumed=()):
    """pair.il with a $equiv cell eqv$c<n> for each (A, B, inverted) of `equivs`; a
    wire eqv$ok whose bit n is 1 when checks[n] holds; an $assume cell for each of
    `assumed`."""
    text = (work / "pair.il").read_text()
    end = text.rstrip().rfind("\nend")
    added = [f"  wire width {len(checks)} \\eqv$ok"] if checks else []

    def same(tag, n, a, b, inverted):
        """Cells that make wire eqv$<tag><n> 1 when a equals b (or its inverse)."""
        kind = XOR if inverted else XNOR
        added.extend([f"  wire \\eqv${tag}{n}", f"  cell {kind} \\eqv$cell{tag}{n}",
                      f"    connect \\A {a}", f"    connect \\B {b}",
                      f"    connect \\Y \\eqv${tag}{n}", "  end"])
        return f"\\eqv${tag}{n}"

    for n, (a, b, inverted) in enumerate(equivs):
        if inverted:
            added += [f"  wire \\eqv$inv{n}", f"  cell {NOT} \\eqv$not{n}",
                      f"    connect \\A {b}", f"    connect \\Y \\eqv$inv{n}", "  end"]
            b = f"\\eqv$inv{n}"
        added += [f"  wire \\eqv${n}", f"  cell {EQUIV} \\eqv$c{n}", f"    connect \\A {a}",
                  f"    connect \\B {b}", f"    connect \\Y \\eqv${n}", "  end"]
    for n, check in enumerate(checks):
        added.append(f"  connect \\eqv$ok [{n}] {same('check', n, *check)}")
    for n, assumption in enumerate(assumed):
        added += [f"  cell {ASSUME} \\eqv$assume{n}",
                  f"    connect \\A {same('assumed', n, *assumption)}",
                  "    connect \\EN 1'1", "  end"]
    (work / name).write_text(text[:end] + "\n" + "\n".join(added) + text[end:])


def _induct(work, equivs, depth):
    """The indices of `equivs` that equiv_induct proves when all of them are assumed."""
    _with_cells(work, "induct.il", equivs)
    log = run_yosys(work, "induct", ["read_rtlil induct.il", f"equiv_induct -seq {depth}"],
                    "Yosys (equiv_induct)")
    if "Entire workset" in log:
        return set(range(len(equivs)))
    if "Circuit inherently diverges" in log:
        raise RuntimeError("equiv_induct: the pairs cannot all hold at once "
                           f"(see {work / 'induct.log'})")
    return {int(n) for n in re.findall(r"Trying to prove \$equiv for \\eqv\$(\d+): success",
                                       log)}


def _failing_from_power_up(work, name, checks, steps, assumed=()):
    """The indices of `checks` (A, B, inverted) that sat finds false in a cycle less
    than `steps` from power-up, in its first counterexample, and that cycle; (set(),
    None) if none is. `assumed` are proven to hold in every cycle: given to sat, they
    make its work shorter."""
    _with_cells(work, f"{name}.il", [], checks=checks, assumed=assumed)
    ones = f"{len(checks)}'b{'1' * len(checks)}"
    log = run_yosys(work, name, [f"read_rtlil {name}.il",
                                 f"sat -tempinduct -tempinduct-baseonly -maxsteps {steps} "
                                 f"-set-assumes -prove \\eqv$ok {ones} -show \\eqv$ok"],
                    "Yosys (sat from power-up)")
    if re.search(r"proved base case for \d+ steps: SUCCESS", log):
        return set(), None
    for step, bits in re.findall(r"^\s+(\d+) \\eqv\$ok\s.*?([01]+)\s*$", log, re.M):
        failing = {len(bits) - 1 - i for i, b in enumerate(bits) if b == "0"}
        if failing:
            return failing, int(step) - 1
    raise RuntimeError(f"sat found no counterexample and no proof ({work / name}.log)")


def by_name(work, board, top, cells):
    """Yosys's equiv_make/equiv_simple/equiv_induct flow: (proven, matched, one pass's
    claim), the proven ones assuming no unproven one."""
    unproven, first = set(), None
    while True:
        (work / "names.txt").write_text("".join(f"{n}\n" for n in sorted(unproven)))
        log = run_yosys(work, "names", [*both(board, top, cells),
                                        "equiv_make -blacklist names.txt gold gate equiv",
                                        "hierarchy -top equiv", "dffunmap", "equiv_simple",
                                        f"equiv_induct -seq {DEPTH}", "equiv_status"],
                        "Yosys (equivalence by name)")
        proven, failed = map(int, re.search(
            r"Of those cells (\d+) are proven and (\d+) are unproven", log).groups())
        if first is None:
            first = (proven + failed, proven)
        if not failed:
            return proven, *first
        more = set(re.findall(r"Unproven \$equiv \S+: \\?(\S+?)_gold", log)) - unproven
        if not more:
            raise RuntimeError(f"equiv_status names no new unproven net ({work}/names.log)")
        unproven |= more


def prove(work, pair, candidates, log):
    """Induction over the pins and the flip-flop `candidates`, dropping what fails
    until the rest holds together, at power-up too: ({label: (A, B, inverted)} of what
    is proven, {label: why not} of what was dropped). A flip-flop with several
    candidates is proven if any of them is."""
    equivs = [(gold, gate, False) for _, _, gold, gate in pair.pins.values()]
    labels = list(pair.pins)
    equivs += [(pair.ref[g], pair.ref[h], inverted) for g, h, inverted in candidates]
    labels += [pair.label[g] for g, _, _ in candidates]
    dropped = {}
    log(f"induction over {len(equivs)} pairs")
    while True:
        held = _induct(work, equivs, DEPTH)
        if len(held) == len(equivs):
            failing, cycle = _failing_from_power_up(work, "base", equivs, DEPTH)
            if not failing:
                return list(zip(labels, equivs)), dropped
            reason = f"differs in cycle {cycle} from power-up (sat)"
        else:
            failing = set(range(len(equivs))) - held
            reason = f"equal in simulation, not proven by {DEPTH}-step induction"
        dropped.update((labels[n], reason) for n in failing)
        equivs = [e for n, e in enumerate(equivs) if n not in failing]
        labels = [label for n, label in enumerate(labels) if n not in failing]


def bounded(work, pair, pins, proven, log):
    """{pin: why} for `pins` that induction left, checked from power-up for BOUND
    cycles with the `proven` pairs given to sat; the bound if any pin is only bounded."""
    why = {}
    while pins:
        log(f"{len(pins)} pins from power-up for {BOUND} cycles")
        failing, cycle = _failing_from_power_up(
            work, "bounded", [pair.pins[pin][2:] + (False,) for pin in pins], BOUND,
            assumed=proven)
        why.update((pins[n], f"differs in cycle {cycle} from power-up (sat)")
                   for n in failing)
        if not failing:
            why.update((pin, f"equal for {BOUND} cycles from power-up (sat), not "
                             f"proven by {DEPTH}-step induction") for pin in pins)
            return why, BOUND
        pins = [pin for n, pin in enumerate(pins) if n not in failing]
    return why, None
