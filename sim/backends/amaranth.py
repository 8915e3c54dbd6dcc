"""Amaranth's own simulator, the core as it is written, as the protocol's simulator
(sim.backends): any game, no tool to install, the slowest.

Each lane is the core from power-up: the simulation is reset to it before each lane,
and a lane's power-up value is forced into its register before the first edge (the
chip's random counter), as the compiled chips force it. Many clocks are spread over the
cores, a process each, forked with the simulator made.
"""

import os

import numpy as np
from amaranth.hdl import Value
from amaranth.sim import Simulator

from sim.backends import BackendMissing
from sim.backends import core as sim_core
from sim.chip import lanes

__all__ = ["Amaranth"]

# Below this many clocks a run stays in one process: forking costs more than it saves.
SPREAD_CLOCKS = 20_000


class Amaranth:
    """The protocol's simulator on Amaranth's simulator, for the design of any game's
    pins (sim.backends.core.Source), a mutant's too, as it is written in Amaranth."""
    name, what = "amaranth", "Amaranth's simulator"
    forces_power_up = True
    lanes = None

    def __init__(self, game, *, pins=None, log=None, jobs=None):
        self.game, self.pins = game, pins or sim_core.pins(game)
        self.outputs = self.pins.outputs
        self.jobs = jobs or os.cpu_count() or 1
        try:
            self.pins.source.written()
        except BackendMissing as missing:
            raise BackendMissing(f"the {self.name} backend cannot run: {missing}") from None
        self._built = None

    def _design(self):
        """The design, once: (it, its inputs, its outputs, its power-up register)."""
        pins = self.pins
        design = pins.source.elaboratable()

        def signal(path):
            return pins.source.find(design, path)
        return (design, [signal(pins.signals[n]) for n in pins.inputs],
                [signal(pins.signals[n]) for n in self.outputs],
                pins.power_up and signal(pins.power_up))

    def run(self, inputs, lengths, power_up=None, *, before=False, waves=None):
        """The protocol's `run`; with `waves` (a path; one lane), Amaranth's waves of it
        (VCD), every port traced."""
        inputs = np.ascontiguousarray(inputs, np.uint32)
        power_up = np.zeros(len(inputs), np.uint32) if power_up is None else \
            np.broadcast_to(power_up, (len(inputs),))
        jobs = min(self.jobs, len(inputs))
        if waves is not None or jobs < 2 or int(np.sum(lengths)) < SPREAD_CLOCKS:
            outputs = self._lanes(range(len(inputs)), inputs, lengths, power_up, before,
                                  waves)
            return (outputs[0], outputs[1]) if before else outputs[0]
        global _RUNNING
        self._simulator()       # made once, here: the forked workers inherit it
        _RUNNING = (self, inputs, lengths, power_up, before)  # the forked workers' to read
        outputs = np.zeros((2, *inputs.shape[:2], len(self.outputs)), np.uint32)
        try:
            with lanes.pool(jobs) as workers:
                # A lane at a time, the longest first, for whichever worker is free.
                order = np.argsort(-np.asarray(lengths), kind="stable").tolist()
                for n, found in workers.imap_unordered(_lane, order):
                    outputs[:, n] = found
        finally:
            _RUNNING = None
        return (outputs[0], outputs[1]) if before else outputs[0]

    def _simulator(self):
        """The design in a simulator, made once (and inherited by forked workers): the
        simulator, its inputs, outputs and power-up register, and what it plays."""
        if self._built is None:
            design, driven, read, register = self._design()
            playing = {}

            def shown(ctx):
                return [int(getattr(v, "value", v)) for v in
                        (ctx.get(signal) for signal in read)]

            async def bench(ctx):
                inputs, length, power_up, after, before = playing["lane"]
                if register is not None:
                    ctx.set(register, power_up)     # at power-up, before the first edge
                last = [None] * len(driven)
                for c in range(length):
                    # Only what changes: each set settles the whole design at once.
                    for k, pin in enumerate(inputs[c].tolist()):
                        if pin != last[k]:
                            ctx.set(driven[k], pin)
                            last[k] = pin
                    if before is not None:
                        before[c] = shown(ctx)
                    await ctx.tick()
                    after[c] = shown(ctx)
                    await ctx.delay(float(period / 2))      # to the falling edge

            period = self.pins.period
            simulator = Simulator(design)
            simulator.add_clock(float(period), phase=float(period))
            simulator.add_testbench(bench)
            # Every port, those the core leaves unused too, which Amaranth traces beside
            # the design ("bench.tx__valid").
            ports = [Value.cast(v) for _, _, v in design.signature.flatten(design)]
            self._built = simulator, playing, ports, [False]
        return self._built

    def _lanes(self, numbers, inputs, lengths, power_up, before, waves=None):
        """Lanes `numbers` of the run, one after the other: what they show after each
        edge and, with `before`, before it, (2, lanes, cycles, outputs)."""
        numbers = list(numbers)
        outputs = np.zeros((2, len(numbers), inputs.shape[1], len(self.outputs)), np.uint32)
        simulator, playing, ports, used = self._simulator()
        for k, n in enumerate(numbers):
            playing["lane"] = (inputs[n], int(lengths[n]), int(power_up[n]), outputs[0, k],
                               outputs[1, k] if before else None)
            if used[0]:
                simulator.reset()               # the core at power-up, as the model
            used[0] = True
            if waves is None:
                simulator.run()
                continue
            with simulator.write_vcd(str(waves), traces=ports):
                simulator.run()
        return outputs


_RUNNING = None


def _lane(n):
    simulator, inputs, lengths, power_up, before = _RUNNING
    return n, simulator._lanes([n], inputs, lengths, power_up, before)[:, 0]
