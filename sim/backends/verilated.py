"""The chip on plain Verilator: the exported Verilog, a C++ loop, ctypes; no cocotb.

This is the peer an FPGA engineer would pick, and the one the compiled backend
(sim.backends.compiled) is measured against in ``make benchmark``. It runs the same
workload as `compiled.Chips.run`: lanes of pin inputs, each lane a chip from power-up
with its random counter forced to a value, and every probe signal (the pins and E.2's
internal nodes, sim.chip.signals.PROBE_PATHS) read after every rising edge.

- The exported Verilog (hdl.eth.export) goes in whole. A wrapper module instantiates
  it and brings each internal probe out as a port through a hierarchical reference, so
  the model reads the very registers the other backends read, and nothing is made
  public but those and the random counter (which is forced at power-up, through a
  Verilator configuration file).
- The harness (sim/backends/verilated_chip.cc) is built with the model into a shared
  library, loaded with ctypes: one call runs every lane, as the compiled backend's
  batch does, so the two are timed on the same terms.
- Built once, under ``build/verilated/<key>/``: the key hashes the Verilog, the
  wrapper, the harness, Verilator's version and its flags.
"""

import ctypes
import functools
import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from hdl.eth import export

from sim import BUILD, ROOT
from sim.backends import BackendMissing
from sim.chip.signals import INPUT_PINS, PROBE_PATHS, WAVES
from sim.tools import run_tool, tool_version

__all__ = ["Chips", "library", "available"]

CACHE = BUILD / "verilated"
FAILED = CACHE / "failed"
HARNESS = Path(__file__).with_name("verilated_chip.cc")
TOP = "ttt_probed"
# -O3 and no tracing: what a person timing Verilator would build. --x-initial unique
# keeps Verilog's initial values (the chip's power-up), which the golden model assumes.
VERILATOR_ARGS = ["-O3", "--x-assign", "fast", "--x-initial", "unique", "-Wno-fatal",
                  "-Wno-lint", "-Wno-style", "-CFLAGS", "-O2 -fPIC", "-LDFLAGS", "-shared"]
# Measured on the project's 2-core machine (2026-11-25): about 20 s the first time.
BUILD_S = 20
# The random counter, as Verilator names it inside the model once it is public.
RANDOM = "ttt_probed__DOT__chip__DOT__move__DOT__random"


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


def wrapper():
    """The Verilog of TOP: ttt_chip with every probe path as an output port, in
    PROBE_PATHS' order, and the input pins in INPUT_PINS' order."""
    lines = [f"module {TOP}(input cp,"]
    for pin in INPUT_PINS:
        lines.append(f"  input [{WAVES[pin] - 1}:0] {pin},")
    outputs = list(PROBE_PATHS.values())
    for n, path in enumerate(outputs):
        lines.append(f"  output [{WAVES[path] - 1}:0] {_port(path)}"
                     + (");" if n == len(outputs) - 1 else ","))
    pins = {path for path in outputs if "." not in path}
    connections = [f".{name}({name})" for name in ("cp", *INPUT_PINS)]
    connections += [".scan(1'b0)", ".scanin(1'b0)", ".scanout()"]
    connections += [f".{path}({_port(path)})" for path in outputs if path in pins]
    lines.append(f"  {export.TOP} chip({', '.join(connections)});")
    for path in outputs:
        if path not in pins:
            lines.append(f"  assign {_port(path)} = chip.{path};")
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


def _ports_header():
    copy_in = " ".join(f"chip->{pin} = in[{k}];" for k, pin in enumerate(INPUT_PINS))
    copy_out = " ".join(f"out[{k}] = chip->{_port(path)};"
                        for k, path in enumerate(PROBE_PATHS.values()))
    return (f'#include "V{TOP}.h"\n#include "V{TOP}___024root.h"\n'
            f"#define TTT_CLASS V{TOP}\n#define TTT_RANDOM {RANDOM}\n"
            f"#define TTT_N_INPUTS {len(INPUT_PINS)}\n"
            f"#define TTT_N_OUTPUTS {len(PROBE_PATHS)}\n"
            f"#define TTT_INPUTS {copy_in}\n#define TTT_OUTPUTS {copy_out}\n")


CONFIG = f"""`verilator_config
public_flat_rw -module "*" -var "random"
"""


@functools.cache
def _verilog():
    return export.netlist("verilog")    # hdl/ does not change while Python runs


def library(*, edit=None, log=None):
    """The path of the built model and harness, built first if the cache has none.
    `edit` changes the chip's Verilog before it is built (a mutant, to show that the
    check catches it)."""
    available()
    chip = edit(_verilog()) if edit else _verilog()
    parts = [chip, wrapper(), _ports_header(), CONFIG, HARNESS.read_text(),
             tool_version("verilator"), " ".join(VERILATOR_ARGS)]
    key = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]
    target = CACHE / key / f"{TOP}.so"
    if target.exists():
        return target
    if log:
        log(f"verilator: building the chip with a C++ harness into "
            f"{_shown(target.parent)} (once, about {BUILD_S} s)")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as work:
        work = Path(work)
        (work / "chip.v").write_text(chip)
        (work / "top.v").write_text(wrapper())
        (work / "config.vlt").write_text(CONFIG)
        (work / "obj").mkdir()
        (work / "obj" / "ttt_ports.h").write_text(_ports_header())
        run_tool(["verilator", "--cc", "--exe", "--build", "-j", "2", "--top-module", TOP,
                  *VERILATOR_ARGS, "--Mdir", "obj", "-o", target.name, "config.vlt",
                  "top.v", "chip.v", str(HARNESS)], work, "Verilator", FAILED, log=log)
        os.replace(work / "obj" / target.name, target)
    return target


def _shown(path):
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


_LIBRARIES = {}


def _load(path):
    if path not in _LIBRARIES:
        lib = ctypes.CDLL(str(path))
        pointer = np.ctypeslib.ndpointer
        lib.ttt_run.argtypes = [ctypes.c_int64, pointer(np.int64, flags="C"),
                                ctypes.c_int64, pointer(np.uint32, flags="C"),
                                pointer(np.uint32, flags="C"), pointer(np.uint32, flags="C")]
        lib.ttt_run.restype = None
        _LIBRARIES[path] = lib
    return _LIBRARIES[path]


class Chips:
    """`lanes` chips on Verilator, each from power-up with its random counter at
    `random` (a value, or one per lane), run in batch as `compiled.Chips.run` runs;
    `edit` as `library` takes it."""

    def __init__(self, lanes=1, *, random=0, edit=None, log=None):
        if lanes < 1:
            raise ValueError(f"at least one lane, not {lanes}")
        self._lib = _load(library(edit=edit, log=log))
        self.lanes = lanes
        self._random = np.ascontiguousarray(np.broadcast_to(random, (lanes,)), np.uint32)

    def run(self, inputs, lengths=None):
        """`inputs` is (lanes, cycles, INPUT_PINS); lane l runs lengths[l] cycles (all,
        by default). Returns (lanes, cycles, PROBE_PATHS) uint32 just after each rising
        edge, zero past a lane's length: what `compiled.Chips.run` returns."""
        inputs = np.ascontiguousarray(inputs, dtype=np.uint32)
        lanes, cycles, width = inputs.shape
        if lanes != self.lanes or width != len(INPUT_PINS):
            raise ValueError(f"inputs are {inputs.shape}, not ({self.lanes}, cycles, "
                             f"{len(INPUT_PINS)})")
        lengths = np.full(lanes, cycles, np.int64) if lengths is None else \
            np.ascontiguousarray(lengths, dtype=np.int64)
        if lengths.shape != (lanes,) or (lengths < 0).any() or (lengths > cycles).any():
            raise ValueError(f"lengths must be {lanes} values from 0 to {cycles}")
        result = np.zeros((lanes, cycles, len(PROBE_PATHS)), np.uint32)
        self._lib.ttt_run(lanes, lengths, cycles, self._random, inputs, result)
        return result
