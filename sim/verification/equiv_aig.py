"""A pair of netlists as one and-inverter graph, simulated: the first step of
sim/verification/equiv.py. Yosys sets the gold and the gate netlist side by side on
shared inputs (``miter``) and writes the graph (``write_aiger``); here it runs from
power-up in lanes of random inputs, 64 to a machine word, to find a pin that differs,
and the flip-flops that agree (or agree inverted) in every lane and cycle, which the
proofs then take as candidates (sim/verification/equiv_proofs.py)."""

import dataclasses
import re
from pathlib import Path

import numpy as np

__all__ = ["SIM_LANES", "SIM_CYCLES", "AFTER_RESET", "Aig", "Pair", "candidates",
           "first_difference", "after_reset"]

SIM_LANES = 256             # four 64-bit words per net
SIM_CYCLES = 1000
SEED = 15                   # the random inputs are the same every run
AFTER_RESET = 100           # cycles simulated after a reset from random states


@dataclasses.dataclass
class Aig:
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


class Pair:
    """The miter's and-inverter graph and the names it needs: each latch's side
    ("gold" or "gate"), an RTLIL reference and a label; each pin bit's gold and gate
    outputs."""

    def __init__(self, work):
        self.aig = Aig.read(work / "pair.aag", work / "pair.map")
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

    def from_power_up(self):
        """Latch values (cycles, latches, words) and output values (cycles, outputs,
        words) of SIM_LANES lanes run for SIM_CYCLES cycles from power-up, under random
        inputs that are the same every run."""
        rng = np.random.default_rng(SEED)
        return self.aig.simulate(self.aig.power_up(SIM_LANES // 64, rng), SIM_CYCLES, rng)


def candidates(pair, latches):
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


def first_difference(pair, outputs, start):
    """(cycle, pin) where a pin first differs in `outputs`, from cycle `start` on."""
    gold, gate = (np.array(side) for side in zip(*(p[:2] for p in pair.pins.values())))
    differs = (outputs[start:, gold] != outputs[start:, gate]).any(axis=2)
    if not differs.any():
        return None
    cycle, pin = np.argwhere(differs)[0]
    return start + int(cycle), list(pair.pins)[pin]


def after_reset(pair):
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
    differs = first_difference(pair, runs[0][1], start=1)
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
