"""The cocotb test of a cartridge: every game asked for, played on the core exported as
Verilog inside the simulator (Verilator or Icarus), in lockstep with its golden model.
It is the ``verilator`` backend of `sim.cartridges.bench.lockstep`, which exports and
builds the core (top module ``cartridge``, clock ``cp`` and ``rst``) and runs this test
by its name; as sim/backends/cocotb_chip.py is to sim/backends/netlist.py.

The test reads the game's golden model (`sim.cartridges.bench.golden`) and the games to
play (a pickle, or all of ``games()``), drives the ports, compares every output with the
golden model just after every rising edge, and writes what happened to a JSON file that
the bench reads back. Between games ``rst`` is high for one clock, which puts every
register at its power-up value, where a new golden model starts.

Environment (set by the bench): TTT_CARTRIDGE (the game's name), TTT_CARTRIDGE_GAMES (a
pickle of the games; unset: all of them), TTT_CARTRIDGE_RESULT (the JSON file).
"""

import json
import os
import pickle
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

from sim import Mismatch
from sim.cartridges import bench as cartridges

__all__ = ["games"]

PERIOD_NS = int(cartridges.PERIOD * 10**9)


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
                raise Mismatch(f"game {outcome['games']}, clock {check.clock}: {field} "
                               f"is {handle.value} in the core") from None
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
    except Mismatch as mismatch:
        outcome["mismatch"] = str(mismatch)
        raise
    finally:
        Path(os.environ["TTT_CARTRIDGE_RESULT"]).write_text(json.dumps(outcome))
