"""One game of a cartridge in waves, to look at: the core's in Amaranth's simulator and
its golden model's, named alike (sim.waves.game), each with its GTKWave view."""

import tempfile
from pathlib import Path

from sim import catalogue
from sim.backends.amaranth import Amaranth
from sim.backends.core import pins
from sim.cartridges.lockstep import Played
from sim.cartridges.recording import recorded
from sim.waves import game as game_waves

__all__ = ["nth", "waves"]


def nth(package, name, number):
    """Game `number` of golden model `package` (of game `name`); a ValueError says how
    many there are."""
    count = 0
    for count, game in enumerate(package.games(), 1):
        if count - 1 == number:
            return game
    raise ValueError(f"{name} has {count} games: PLAY=0..{count - 1}, not {number}")


def waves(name, game, core_vcd, golden_vcd, *, core=None, gtkw=True):
    """Play `game` (the inputs of each clock, as `games()` gives them; or its number
    in `games()`) on game `name`'s core in Amaranth's simulator and on its golden model,
    writing the core's waves to `core_vcd` and the golden model's to `golden_vcd`, each
    whole or not at all. Both name the cartridge's pins alike (``cartridge.key``,
    ``cartridge.tx__valid``, the clock ``cartridge.cp``); the core's waves also hold its
    insides. With `gtkw`, a GTKWave save file beside each (sim.waves.game.view).
    Returns Played; a Mismatch is raised after both files are written, so that a
    difference can be looked at."""
    entry = catalogue.game(name)
    package = entry.checked()
    if isinstance(game, int):
        game = nth(package, entry.name, game)
    game_waves.write_golden(package, game, golden_vcd, entry.given())
    simulator = Amaranth(entry, pins=pins(entry, cartridge=True).mutant(core=core))
    recording = recorded(entry, cartridge=True, games=[game], cache=False)
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch, "amaranth.vcd")
        outputs = simulator.run(recording.lanes(), recording.lengths, waves=raw)
        game_waves.rename(raw, core_vcd, f"the {entry.name} cartridge")
    if gtkw:
        for path in (core_vcd, golden_vcd):
            game_waves.view(path, save_path=Path(path).with_suffix(".gtkw"))
    recording.compare(outputs, simulator.outputs)
    return Played(1, len(game))
