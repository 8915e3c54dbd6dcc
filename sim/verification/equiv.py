"""Formal equivalence of the chip's netlists: the RTL against the exported
Verilog, against Yosys's synth_ice40 netlist of the chip alone, against the chip as
each board build has it, synthesised and placed and routed, each with its FPGA family's
cell models, and against the chip in SkyWater 130 nm cells (sim/verification/sky130.py)
and against the chip placed and routed in OSU's standard cells, its post-layout netlist
(sim/verification/die.py; docs/equivalence.md). Boards that hand the same netlist share
one proof (`Proofs`).

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

By name, Yosys's own flow runs too where the gate netlist keeps names (the iCE40's
cells: the ECP5's and Gowin's boards are proven by values alone): ``equiv_make``
pairs the nets named alike, ``equiv_simple`` and ``equiv_induct`` prove them,
``equiv_status`` counts. One pass proves each net assuming all the others, the unproven
ones too, so the figure kept is that of a pass which assumes only what it proves: the
unproven names are left out and the pass is run again until none is unproven.
"""

import dataclasses
import hashlib
import shutil
import threading
import time
from collections import Counter
from pathlib import Path

from firmware_ref import cli
from hdl.eth import export

from sim import BUILD, yosys_json
from sim.yosys_json import DFF_P, SCOPEINFO

from sim.verification import die, equiv_aig, equiv_netlists, equiv_proofs, gatelevel, sky130

__all__ = ["PAIRS", "BOARD_PAIRS", "Result", "Shared", "Proofs", "check", "report"]

WORK = BUILD / "formal" / "equiv"
PAIRS = ("verilog", "synth", "board-synth", "routed", sky130.NETLIST, die.NETLIST)
BOARD_PAIRS = ("board-synth", "routed")         # a pair for each board build
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
    same_as: str = ""                   # the pair whose proof it took (Proofs)

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


@dataclasses.dataclass
class Shared:
    """A pair whose gate netlist another task of the run is proving (`Proofs.once`):
    `Proofs.settled` makes it that proof's Result, once every task has ended."""
    pair: str
    owner: str                          # the pair that is proving it
    key: tuple
    seconds: float

    def summary(self):
        return f"{self.pair}: the same netlist as {self.owner}'s, whose proof it takes"


class Proofs:
    """The proofs of one run by the netlists they are of. Boards of one family mostly
    hand the same chip (the iCEBreaker's, the HX8K Breakout's and the UPduino's
    synthesised chip is one netlist, and so on): a pair whose gate netlist is, byte for
    byte (a SHA-256 of its Verilog), that of the same pair of another board with the
    same cells' models, proven or being proven in this run, takes that proof rather
    than make it again, and its Result says whose it is (`same_as`). A pair whose proof
    is still being made by another task does not wait for it, holding a worker: it is a
    `Shared` until `settled`."""

    def __init__(self):
        self._lock = threading.Lock()
        self._first = {}            # key: [its first pair's title, its Result or None]

    def once(self, key, title, started, prove):
        """`prove()`'s Result for the first pair of `key` (titled `title`), else the
        first one's as this pair's, or a Shared while the first is still proving."""
        with self._lock:
            first = self._first.setdefault(key, [title, None])
        if first[0] == title:
            result = prove()
            with self._lock:
                first[1] = result
            return result
        return self._take(Shared(title, first[0], key, time.monotonic() - started))

    def settled(self, results):
        """`results` with each Shared the Result of the proof it shares."""
        return [self._take(r, strict=True) if isinstance(r, Shared) else r
                for r in results]

    def _take(self, shared, strict=False):
        with self._lock:
            proven = self._first[shared.key][1]
        if proven is None:
            if strict:
                raise RuntimeError(f"{shared.pair}: the same netlist as {shared.owner}, "
                                   f"which was not proven")
            return shared
        return dataclasses.replace(
            proven, pair=shared.pair, same_as=shared.owner, seconds=shared.seconds,
            method=f"{shared.owner}'s proof, the same netlist (sha256 "
                   f"{shared.key[-1][:12]}): {proven.method}")


# -- one pair ---------------------------------------------------------------------------

def _gate(pair, board, work, log, edit):
    """The pair's gate netlist in work/gate.v, with its cells' models (the board's
    family's): (its text, its top module, made of cells), or the reason it cannot be
    checked."""
    if pair == "synth":                 # synthesised from the gold netlist
        _gold(work)
    try:
        verilog, top, cells = (CELLS[pair][0](log=log), export.TOP, True) \
            if pair in CELLS else equiv_netlists.gate(pair, board, work, log)
    except cli.UserError as missing:
        if pair not in ("routed", die.NETLIST):
            raise
        return str(missing)             # make bitstream has not made it; qflow is missing
    verilog = edit(verilog) if edit else verilog
    (work / "gate.v").write_text(verilog)
    family = board.cells if board else "ice40"
    (work / "cells_sim.v").write_text(CELLS[pair][1]() if pair in CELLS
                                      else gatelevel.cells_sim(family))
    return verilog, top, cells


def _gold(work):
    """The gold netlist, the RTL, in work/gold.il (once)."""
    if not (work / "gold.il").exists():
        (work / "gold.il").write_text(export.netlist("rtlil"))


def _prepare(pair, board, work, log, top, cells):
    """The pair's and-inverter graph in `work`, from _gate's netlist and the gold one:
    whether the gate has the board chip's pins, or the reason it cannot be checked."""
    _gold(work)
    board_pins = pair in BOARD_PAIRS
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
    return board_pins


def _check_pair(pair, board, work, log, edit, by_name, proofs):
    started = time.monotonic()
    title = equiv_netlists.title(pair, board)
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    gate = _gate(pair, board, work, log, edit)
    if isinstance(gate, str):
        return Result(title, f"not checked: {gate}", [],
                      seconds=time.monotonic() - started)
    verilog, top, cells = gate
    key = (pair, board and board.cells, hashlib.sha256(verilog.encode()).hexdigest())
    return proofs.once(key, title, started, lambda: _prove(
        pair, board, work, log, (top, cells), by_name, title, started))


def _prove(pair, board, work, log, gate, by_name, title, started):
    """The proof of one pair whose netlists _gate wrote in `work` (`gate`: the gate's
    top module and whether it is made of cells)."""
    def said(text):
        log(f"{title}: {text}")

    top, cells = gate
    board_pins = _prepare(pair, board, work, log, top, cells)
    if isinstance(board_pins, str):
        return Result(title, f"not checked: {board_pins}", [],
                      seconds=time.monotonic() - started)
    pair_ = equiv_aig.Pair(work)
    pins = list(pair_.pins)
    registers = [pair_.label[k] for k in pair_.registers]
    result = Result(title, "", pins, total=len(pins) + len(registers))
    # nextpnr keeps the names of the pins only, and so do the mappings to cells (ABC).
    # By name is Yosys's probe of synth_ice40 (docs/equivalence.md), beside the proof:
    # the iCE40's netlists only; it would add 5 s to each other family's pair.
    if by_name and pair not in ("routed", *CELLS) and (board is None or
                                                       board.cells == "ice40"):
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

def check(pairs=PAIRS, boards=(), *, log=print, edit=None, by_name=True, work=WORK,
          proofs=None):
    """Check each of `pairs` ("verilog", "synth": the chip alone; "board-synth",
    "routed": the chip of each of `boards`' builds, sim.verification.gatelevel.Board
    each) against the RTL; a Result each.
    `edit(verilog)` changes each gate netlist first (a mutant); `by_name` runs Yosys's
    equiv_* flow too; `log(text)` hears progress. Each pair works in a directory of
    its own under `work` (under build/), made anew. A routed netlist that ``make
    bitstream`` has not made from the sources as they are is a Result that says so.
    A board whose chip is the very netlist of a pair proven before in `proofs` (a
    Proofs; this call's own by default) takes that proof, or, where another task is
    still proving it, is a Shared that `proofs.settled` makes a Result (`Proofs`)."""
    proofs = Proofs() if proofs is None else proofs
    unknown = set(pairs) - set(PAIRS)
    if unknown:
        raise ValueError(f"unknown pairs {sorted(unknown)}; known: {', '.join(PAIRS)}")
    gatelevel.yosys()
    results = []
    for pair in PAIRS:
        if pair not in pairs:
            continue
        for board in (boards if pair in BOARD_PAIRS else (None,)):
            key = (f"{board.name}-" if board else "") + pair
            results.append(_check_pair(pair, board, Path(work) / key, log, edit, by_name,
                                       proofs))
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
