"""Formal equivalence of the chip's netlists: the RTL against the exported
Verilog, against Yosys's synth_ice40 netlist of the chip alone, against the chip as
each board build has it, synthesised and placed and routed, and against the chip in
SkyWater 130 nm cells (sim/verification/sky130.py) and against the chip placed and
routed in OSU's standard cells, its post-layout netlist (sim/verification/die.py;
docs/equivalence.md).

The gold netlist is always the RTL, Amaranth's RTLIL of `Chip()`; the gate netlist is
the other one. Yosys sets the two side by side on shared inputs (``miter``), flattened
to an and-inverter graph, and the check goes in three steps:

1. Simulation: both run from power-up, SIM_CYCLES cycles in SIM_LANES lanes of random
   inputs. A pin that differs is a counterexample and ends the check. Flip-flops that
   agree in every lane and cycle, or agree inverted, are paired: synth_ice40 inverts a
   register that powers up as 1 (an iCE40 flip-flop powers up as 0) and names nets as
   it likes, and nextpnr keeps few names, so names cannot pair them.
2. Induction: each pair, and each pin with its gold pin, becomes a ``$equiv`` cell, and
   ``equiv_induct`` proves that when they all hold in a cycle they hold in the next. A
   pair it cannot prove is dropped and the proof redone without it, until all that are
   left are proven together; ``sat`` proves that they hold at power-up. Together: they
   hold in every cycle from power-up, whatever the inputs.
3. A pin that induction left is checked from power-up for BOUND cycles (``sat``), and
   reported as bounded.
The netlists are made in equiv_netlists.py, the graph simulated in equiv_aig.py and
the proofs run in equiv_proofs.py, all beside this file.

By name, Yosys's own flow runs too where the gate netlist keeps names: ``equiv_make``
pairs the nets named alike, ``equiv_simple`` and ``equiv_induct`` prove them,
``equiv_status`` counts. One pass proves each net assuming all the others, the unproven
ones too, so the figure kept is that of a pass which assumes only what it proves: the
unproven names are left out and the pass is run again until none is unproven.
"""

import dataclasses
import shutil
import time
from collections import Counter
from pathlib import Path

from firmware_ref import cli
from hdl.eth import export

from sim import BUILD, yosys_json
from sim.yosys_json import DFF_P, SCOPEINFO

from sim.verification import die, equiv_aig, equiv_netlists, equiv_proofs, gatelevel, sky130

__all__ = ["PAIRS", "Result", "check", "report"]

WORK = BUILD / "formal" / "equiv"
PAIRS = ("verilog", "synth", "board-synth", "routed", sky130.NETLIST, die.NETLIST)
# The gate netlists of standard cells, each with its cells' models as Yosys reads them.
CELLS = {sky130.NETLIST: (sky130.netlist, sky130.yosys_models),
         die.NETLIST: (die.netlist, die.yosys_models)}


@dataclasses.dataclass
class Result:
    """One pair's outcome. `proven` are the pins (bit by bit) and the gold netlist's
    flip-flops that are equal for ever from power-up; `unproven` gives each other one
    with the reason; `total` counts both. `bound` is set when a pin is only checked for
    that many cycles from power-up. `by_name` is (proven, matched, one pass's claim) in
    nets by Yosys's equiv_* flow, where the gate keeps names; `inverted` counts the
    proven flip-flop pairs whose gate flip-flop holds the gold one inverted;
    `after_reset` says whether the two also agree from any state after a reset
    cycle."""
    pair: str
    method: str
    pins: list
    proven: list = dataclasses.field(default_factory=list)
    unproven: dict = dataclasses.field(default_factory=dict)
    total: int = 0
    bound: int | None = None
    seconds: float = 0.0
    by_name: tuple | None = None
    inverted: int = 0
    after_reset: str = ""

    @property
    def equivalent(self):
        """Every pin proven equal for ever from power-up."""
        return bool(self.pins) and set(self.pins) <= set(self.proven)

    def summary(self):
        """One line: the pair, what is proven and how long it took."""
        if not self.total:
            return f"{self.pair}: {self.method}"
        return f"{self.pair}: {len(self.proven)} of {self.total} pins and flip-flops " \
               f"proven ({self.method}), {len(self.unproven)} not, {self.seconds:.1f} s"


# -- one pair ---------------------------------------------------------------------------

def _prepare(pair, board, work, log, edit):
    """The pair's netlists in `work` and its and-inverter graph: (top module of the
    gate, made of iCE40 cells, the board chip's pins), or the reason it cannot be
    checked."""
    (work / "gold.il").write_text(export.netlist("rtlil"))
    try:
        verilog, top, cells = (CELLS[pair][0](log=log), export.TOP, True) \
            if pair in CELLS else equiv_netlists.gate(pair, board, work, log)
    except cli.UserError as missing:
        if pair not in ("routed", die.NETLIST):
            raise
        return str(missing)             # make bitstream has not made it; qflow is missing
    (work / "gate.v").write_text(edit(verilog) if edit else verilog)
    (work / "cells_sim.v").write_text(CELLS[pair][1]() if pair in CELLS
                                      else gatelevel.cells_sim())
    board_pins = pair in ("board-synth", "routed")
    log(f"{equiv_netlists.title(pair, board)}: the pair as an and-inverter graph")
    # No opt beyond opt_expr: opt_merge would merge gold cells with gate cells.
    equiv_netlists.run_yosys(work, "pair", [
        *equiv_netlists.both(board_pins, top, cells),
        "miter -equiv -flatten -make_outputs gold gate pair",
        "hierarchy -top pair -purge_lib", f"delete t:{SCOPEINFO}", "techmap", "opt_expr",
        "opt_clean", "dffunmap", "write_json flops.json", "aigmap", "opt_clean",
        "setundef -undriven -anyseq", "write_rtlil pair.il",
        "write_aiger -ascii -symbols -map pair.map pair.aag"], "Yosys (the pair)")
    clock = "in_" + (equiv_netlists.BOARD_CLOCK if board_pins else export.CLOCK)
    odd = _odd_flops(yosys_json.read(work / "flops.json").modules["pair"], clock)
    if odd:
        return f"flip-flops other than rising-edge ones on the clock: {odd}"
    return top, cells, board_pins


def _check_pair(pair, board, work, log, edit, by_name):
    started = time.monotonic()
    title = equiv_netlists.title(pair, board)

    def said(text):
        log(f"{title}: {text}")

    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    prepared = _prepare(pair, board, work, log, edit)
    if isinstance(prepared, str):
        return Result(title, f"not checked: {prepared}", [],
                      seconds=time.monotonic() - started)
    top, cells, board_pins = prepared
    pair_ = equiv_aig.Pair(work)
    pins = list(pair_.pins)
    registers = [pair_.label[k] for k in pair_.registers]
    result = Result(title, "", pins, total=len(pins) + len(registers))
    # nextpnr keeps the names of the pins only, and so do the mappings to cells (ABC)
    if by_name and pair not in ("routed", *CELLS):
        said("by name (equiv_make, equiv_simple, equiv_induct)")
        result.by_name = equiv_proofs.by_name(work, board_pins, top, cells)

    said(f"simulation, {equiv_aig.SIM_LANES} lanes of {equiv_aig.SIM_CYCLES} cycles")
    latches, outputs = pair_.from_power_up()
    differs = equiv_aig.first_difference(pair_, outputs, start=0)
    if differs:
        result.method = "simulation from power-up: a counterexample"
        result.unproven = {differs[1]: f"differs in cycle {differs[0]} of a random run "
                                       f"from power-up"}
    else:
        _induction(work, pair_, latches, result, said)
    result.seconds = time.monotonic() - started
    return result


def _induction(work, pair, latches, result, log):
    """Steps 2 and 3 of the module's text into `result`, on a `pair` in which
    simulation (`latches`) found no difference."""
    pins = result.pins
    registers = [pair.label[k] for k in pair.registers]
    candidates, alone = equiv_aig.candidates(pair, latches)
    proven, dropped = equiv_proofs.prove(work, pair, candidates, log)
    labels = {label for label, _ in proven}
    dropped.update((pair.label[g], "no flip-flop of the gate netlist follows it in "
                                   "simulation") for g in alone)
    result.proven = [label for label in pins + registers if label in labels]
    result.unproven = {label: dropped[label] for label in pins + registers
                       if label not in labels}
    flops = [e for label, e in proven if label not in pair.pins]
    result.inverted = sum(inverted for _, _, inverted in flops)
    result.method = f"{equiv_proofs.DEPTH}-step induction from power-up: the pins and " \
                    f"{len(flops)} flip-flop pairs ({result.inverted} inverted; " \
                    f"{len(candidates)} candidates)"
    left = [pin for pin in pins if pin not in labels]
    why, result.bound = equiv_proofs.bounded(work, pair, left, [e for _, e in proven], log)
    result.unproven.update(why)
    result.after_reset = equiv_aig.after_reset(pair)


def _odd_flops(module, clock):
    """What cells of the pair's `module` (a yosys_json.Module) hold state other than
    rising-edge flip-flops on the clock pin (which the graph's latches are), as text;
    "" if none."""
    (clock_bit,) = module.ports[clock].bits
    odd = Counter(cell.type for cell in module.cells.values()
                  if yosys_json.holds_state(cell)
                  and not (cell.type == DFF_P and cell.connections["C"] == [clock_bit]))
    return ", ".join(f"{n} {kind}" for kind, n in sorted(odd.items()))


# -- the command's functions ------------------------------------------------------------

def check(pairs=PAIRS, boards=(), *, log=print, edit=None, by_name=True, work=WORK):
    """Check each of `pairs` ("verilog", "synth": the chip alone; "board-synth",
    "routed": the chip of each of `boards`' builds, sim.verification.gatelevel.Board
    each) against the RTL; a Result each.
    `edit(verilog)` changes each gate netlist first (a mutant); `by_name` runs Yosys's
    equiv_* flow too; `log(text)` hears progress. Each pair works in a directory of
    its own under `work` (under build/), made anew. A routed netlist that ``make
    bitstream`` has not made from the sources as they are is a Result that says so."""
    unknown = set(pairs) - set(PAIRS)
    if unknown:
        raise ValueError(f"unknown pairs {sorted(unknown)}; known: {', '.join(PAIRS)}")
    gatelevel.yosys()
    results = []
    for pair in PAIRS:
        if pair not in pairs:
            continue
        for board in (boards if pair in ("board-synth", "routed") else (None,)):
            key = (f"{board.name}-" if board else "") + pair
            results.append(_check_pair(pair, board, Path(work) / key, log, edit, by_name))
            log(results[-1].summary())
    return results


def report(results):
    """A Markdown table of `results`."""
    lines = ["| pair | method | proven | not proven (why) | bound | by name | seconds |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        pins = sum(pin in r.proven for pin in r.pins)
        registers = len(r.proven) - pins
        proven = f"{len(r.proven)} / {r.total} ({pins} / {len(r.pins)} pins, " \
                 f"{registers} / {r.total - len(r.pins)} flip-flops)" if r.total else "-"
        why = "; ".join(f"{', '.join(names[:6])}{' ...' if len(names) > 6 else ''} "
                        f"({len(names)}): {reason}" for reason, names in
                        _by_reason(r.unproven).items()) or "-"
        named = f"{r.by_name[0]} / {r.by_name[1]} nets (one pass: {r.by_name[2]})" \
            if r.by_name else "-"
        lines.append(f"| {r.pair} | {r.method} | {proven} | {why} | "
                     f"{r.bound or '-'} | {named} | {r.seconds:.1f} |")
    return "\n".join(lines)


def _by_reason(unproven):
    """{reason: [names]} of {name: reason}."""
    grouped = {}
    for name, reason in unproven.items():
        grouped.setdefault(reason, []).append(name)
    return grouped
