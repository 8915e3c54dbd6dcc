"""The cartridges: each game in hdl/<name>/cartridge.py, beside its golden model in
firmware_ref/<name>/, found by that name; and lockstep at the console's pins.

A golden model that plays at the console's pins offers `Model` (``set`` the inputs,
``tick`` the clock, read ``probe``), `Inputs` and `Probe` (dataclasses named after the
cartridge's members, with ``tx_`` for the text stream) and `games()`, every game a
person can play as the inputs of each clock. `lockstep` runs them on the core in
Amaranth's simulator and compares every probe field after every edge.
"""

import dataclasses
import importlib
import pkgutil

import hdl

__all__ = ["names", "cartridge", "golden", "Mismatch", "lockstep"]


class Mismatch(AssertionError):
    """The core and its golden model disagree."""


def names():
    """The games that plug into the console, by their folder's name."""
    return sorted(info.name for info in pkgutil.iter_modules(hdl.__path__) if info.ispkg
                  and importlib.util.find_spec(f"hdl.{info.name}.cartridge") is not None)


def cartridge(name):
    """The cartridge class of game `name`."""
    if name not in names():
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(names())}")
    return importlib.import_module(f"hdl.{name}.cartridge").CARTRIDGE


def golden(name):
    """The golden model's package of game `name`, if it plays at the console's pins."""
    try:
        module = importlib.import_module(f"firmware_ref.{name}")
    except ModuleNotFoundError:
        return None
    return module if hasattr(module, "games") and hasattr(module, "Model") else None


def _pins(core):
    # The core's member for each Inputs or Probe field.
    def member(field):
        port = getattr(core.tx, field[3:]) if field.startswith("tx_") else getattr(core, field)
        return port.as_value() if hasattr(port, "as_value") else port   # boards as bits
    return member


def lockstep(name, games=None):
    """Play `games` (default: every game) on game `name`'s core beside its golden model.
    Returns the games and clocks played; raises Mismatch at the first difference."""
    from amaranth.sim import Simulator

    model_package = golden(name)
    if model_package is None:
        raise ValueError(f"game {name!r} has no golden model at the console's pins")
    games = list(model_package.games() if games is None else games)
    core = cartridge(name)()
    member = _pins(core)
    inputs = [f.name for f in dataclasses.fields(model_package.Inputs)]
    outputs = [f.name for f in dataclasses.fields(model_package.Probe)]
    clocks = 0

    async def bench(ctx):
        nonlocal clocks
        for number, session in enumerate(games):
            model = model_package.Model()
            for step, pins in enumerate(session):
                model.set(pins)
                for field in inputs:
                    ctx.set(member(field), getattr(pins, field))
                await ctx.tick()
                model.tick()
                clocks += 1
                expected = model.probe
                for field in outputs:
                    got = ctx.get(member(field))
                    want = getattr(expected, field)
                    if got != want:
                        raise Mismatch(f"game {number}, clock {step}: {field} is {got} in "
                                       f"the core, {want} in the golden model")

    simulator = Simulator(core)
    simulator.add_clock(1e-6)
    simulator.add_testbench(bench)
    simulator.run()
    return len(games), clocks
