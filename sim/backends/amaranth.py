"""Amaranth's own simulator, the core as it is written, as the protocol's simulator
(sim.backends): any game, no tool to install, the slowest.

Each lane is the core from power-up: the simulation is reset to it before each lane.
The chip's random counter powers up at a lane's value by building the chip with it
(``Chip(random_init=...)``), once for each value among the lanes. Many clocks are
spread over the cores, a process each, forked with the simulator made.
"""

import os

import numpy as np
from amaranth.hdl import Value
from amaranth.sim import Simulator

from hdl.eth.chip import Chip

from sim.backends import core as sim_core
from sim.chip import lanes
from sim.chip.lockstep import resolve
from sim.waves.game import PERIOD

__all__ = ["Amaranth"]

# Below this many clocks a run stays in one process: forking costs more than it saves.
SPREAD_CLOCKS = 50_000


class Amaranth:
    """The protocol's simulator on Amaranth's simulator: the chip (`core`, if given, a
    class like hdl.eth.chip.Chip: a mutant) or a cartridge (`core` in place of the
    game's own class)."""
    name = "amaranth"
    forces_power_up = True
    lanes = None

    def __init__(self, game, *, pins=None, core=None, log=None, jobs=None):
        self.game, self.pins = game, pins or sim_core.pins(game)
        self.outputs = self.pins.outputs
        self.core = core
        self.jobs = jobs or os.cpu_count() or 1

    def _design(self, power_up):
        """The design for lanes that power up at `power_up`: (it, its inputs, outputs)."""
        if self.pins.chip:
            design = (self.core or Chip)(random_init=int(power_up))
            return (design, [resolve(design, self.pins.signals[n]) for n in self.pins.inputs],
                    [resolve(design, self.pins.signals[n]) for n in self.outputs])
        design = (self.core or self.game.cartridge())(**self.game.given())
        return (design, [sim_core.member(design, n) for n in self.pins.inputs],
                [sim_core.member(design, n) for n in self.outputs])

    def run(self, inputs, lengths, power_up=None, *, vcd=None):
        """The protocol's `run`; with `vcd` (a path; one lane), Amaranth's waves of it,
        every port traced."""
        inputs = np.ascontiguousarray(inputs, np.uint32)
        power_up = np.zeros(len(inputs), np.uint32) if power_up is None or \
            self.pins.power_up is None else np.broadcast_to(power_up, (len(inputs),))
        jobs = min(self.jobs, len(inputs))
        if vcd is not None or jobs < 2 or int(np.sum(lengths)) < SPREAD_CLOCKS:
            return self._lanes(range(len(inputs)), inputs, lengths, power_up, vcd)
        global _RUNNING
        _RUNNING = (self, inputs, lengths, power_up)     # the forked workers' to read
        outputs = np.zeros((*inputs.shape[:2], len(self.outputs)), np.uint32)
        parts = [range(k, len(inputs), jobs) for k in range(jobs)]
        try:
            with lanes.pool(jobs) as workers:
                for part, found in zip(parts, workers.map(_part, parts)):
                    outputs[list(part)] = found
        finally:
            _RUNNING = None
        return outputs

    def _lanes(self, numbers, inputs, lengths, power_up, vcd=None):
        """Lanes `numbers` of the run, one after the other: their outputs."""
        numbers = list(numbers)
        outputs = np.zeros((len(numbers), inputs.shape[1], len(self.outputs)), np.uint32)
        for value in sorted(set(power_up[numbers].tolist())):
            design, driven, read = self._design(value)
            playing = {}

            async def bench(ctx):
                k, n = playing["lane"]
                for c in range(int(lengths[n])):
                    for signal, pin in zip(driven, inputs[n, c].tolist()):
                        ctx.set(signal, pin)
                    await ctx.tick()
                    outputs[k, c] = [int(getattr(v, "value", v)) for v in
                                     (ctx.get(signal) for signal in read)]
                    await ctx.delay(float(PERIOD / 2))      # to the falling edge

            simulator = Simulator(design)
            simulator.add_clock(float(PERIOD), phase=float(PERIOD))
            simulator.add_testbench(bench)
            first = True
            for k, n in enumerate(numbers):
                if power_up[n] != value:
                    continue
                playing["lane"] = k, n
                if not first:
                    simulator.reset()           # the core at power-up, as the model
                first = False
                if vcd is None:
                    simulator.run()
                    continue
                # Every port, those the core leaves unused too, which Amaranth traces
                # beside the design ("bench.tx__valid").
                ports = [Value.cast(v) for _, _, v in design.signature.flatten(design)]
                with simulator.write_vcd(str(vcd), traces=ports):
                    simulator.run()
        return outputs


_RUNNING = None


def _part(numbers):
    simulator, inputs, lengths, power_up = _RUNNING
    return simulator._lanes(numbers, inputs, lengths, power_up)
