"""The cocotb test that runs lanes of any game's netlist inside the simulator (Verilator
or Icarus): the ``verilator`` and ``icarus`` simulators of sim.backends.netlist run it by
its name (``make netlist`` runs the chip's checks on them).

It reads the lanes' inputs (an .npz of ``inputs`` (lanes, cycles, inputs) and
``lengths``), drives the ports clock by clock, reads the outputs just after every rising
edge (and, asked, just before it, the new inputs settled) and writes them to another
.npz (``outputs`` and ``before``, (lanes, cycles, outputs)) that the simulator's `run`
reads back; the golden model compares them there. Between lanes the
reset port is high for one clock, which puts every register at its power-up value; a
netlist without one runs a single lane. A value that is not 0 or 1 in every bit (x, z)
is read as all ones, which no golden model shows.

Environment (set by sim.backends.netlist): TTT_LANES_IN and TTT_LANES_OUT (the files),
TTT_LANES_INPUTS and TTT_LANES_OUTPUTS (the signals, comma-separated, dotted paths
below the top), TTT_LANES_LOW (inputs held low, comma-separated), TTT_LANES_RESET (the
reset port, or empty), TTT_LANES_PERIOD_NS (the clock's period), TTT_LANES_BEFORE (1:
read before the edges too).
"""

import os

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

from sim.waves.game import CLOCK

__all__ = ["lanes"]

UNREADABLE = 0xFFFF_FFFF


def _handle(dut, path):
    for part in path.split("."):
        dut = getattr(dut, part)
    return dut


def _value(handle):
    try:
        return int(handle.value)
    except ValueError:
        return UNREADABLE


@cocotb.test()
async def lanes(dut):
    """Every lane from power-up, its outputs after every rising edge."""
    with np.load(os.environ["TTT_LANES_IN"]) as given:
        inputs, lengths = given["inputs"], given["lengths"]
    driven = [_handle(dut, p) for p in os.environ["TTT_LANES_INPUTS"].split(",")]
    read = [_handle(dut, p) for p in os.environ["TTT_LANES_OUTPUTS"].split(",")]
    reset = os.environ["TTT_LANES_RESET"]
    if not reset and len(inputs) > 1:
        raise ValueError("a netlist without a reset runs one lane")
    outputs = np.zeros((*inputs.shape[:2], len(read)), np.uint32)
    before = np.zeros_like(outputs) if os.environ["TTT_LANES_BEFORE"] == "1" else None
    period = int(os.environ["TTT_LANES_PERIOD_NS"])
    clock = getattr(dut, CLOCK)
    for port in filter(None, [reset, *os.environ["TTT_LANES_LOW"].split(",")]):
        getattr(dut, port).value = 0
    clock.value = 0
    if len(lengths) and lengths[0]:
        # The first inputs from time 0, as E.1 applies them and the golden waves show.
        for handle, value in zip(driven, inputs[0, 0].tolist()):
            handle.value = value
    await Timer(period // 2, unit="ns")
    Clock(clock, period, unit="ns").start(start_high=False)    # rising at one period, ...
    for lane, length in enumerate(lengths.tolist()):
        if lane:                        # back to power-up, where the golden model starts
            getattr(dut, reset).value = 1
            await RisingEdge(clock)
            await FallingEdge(clock)
            getattr(dut, reset).value = 0
        for cycle in range(length):
            for handle, value in zip(driven, inputs[lane, cycle].tolist()):
                handle.value = value
            if before is not None:
                await ReadOnly()
                before[lane, cycle] = [_value(handle) for handle in read]
            await RisingEdge(clock)
            await ReadOnly()
            outputs[lane, cycle] = [_value(handle) for handle in read]
            await FallingEdge(clock)
    np.savez(os.environ["TTT_LANES_OUT"], outputs=outputs,
             **({} if before is None else {"before": before}))
