"""Lockstep through the simulator table: any game's lanes on any simulator
(sim.backends), every output compared with the golden model's recording
(sim.cartridges.recording) after every rising edge.

`play` gives a recording's lanes to a simulator, a run at a time (the first short, at
most a few hundred megabytes), and compares what comes back; a simulator that checks
faster than it reads back (``check``, the bit-parallel chips) checks, and the part that
differs is then run again and compared lane by lane, so that every difference is named
alike: the lane (a game of a cartridge), the cycle, the signal and both values.
`lockstep` does it for a game by name, on a simulator by name.
"""

from typing import NamedTuple

from sim import Mismatch, backends, catalogue
from sim.backends.core import pins as core_pins
from sim.cartridges.recording import recorded

__all__ = ["Played", "MEMORY", "play", "lockstep"]

# The bytes of one run's lanes, inputs and outputs, padded to the longest: the lanes
# beyond go in the next run (the ETH cartridge's 1962 games would take gigabytes).
MEMORY = 1 << 28


class Played(NamedTuple):
    games: int
    clocks: int


def _runs(recording, simulator):
    """The recording's lanes in order, split into runs: the first of one lane, each
    twice as many lanes as the last, so that a difference early on is found early; no
    run over `MEMORY` or the lanes the simulator takes at once."""
    width = 4 * (len(recording.inputs) + len(simulator.outputs))
    lengths = recording.lengths.tolist()
    start, most = 0, 1
    while start < len(lengths):
        end, longest = start, 0
        while end < len(lengths) and end - start < min(most, simulator.lanes or most):
            wider = max(longest, lengths[end])
            if end > start and (end - start + 1) * wider * width > MEMORY:
                break
            end, longest = end + 1, wider
        yield list(range(start, end))
        start, most = end, 2 * most


def play(recording, simulator, *, progress=None):
    """Every lane of `recording` on `simulator`, compared with the golden model after
    every edge; returns the clocks played. Raises Mismatch at the first difference, and
    ValueError for a simulator made for other pins than the recording's (what it reads
    would be taken for other signals). `progress(lanes, clocks)` hears of each run done."""
    played = getattr(simulator, "pins", None)       # a board build's gates have none
    other_game = played is not None and \
        (played.game.name, played.inputs) != (recording.game.name, recording.inputs)
    if other_game or not set(simulator.outputs) <= set(recording.outputs):
        raise ValueError(f"the {simulator.name} simulator reads other pins than the "
                         f"{recording.game.name} recording holds")
    if hasattr(simulator, "check"):
        differ = simulator.check(recording)
        if differ:
            _read_back(recording.part(differ), simulator)
            raise Mismatch(f"the {simulator.name} simulator differs in the lanes "
                           f"{', '.join(map(str, differ))}, but not lane by lane")
        if progress:
            progress(len(recording.lengths), recording.clocks)
        return recording.clocks
    return _read_back(recording, simulator, progress)


def _read_back(recording, simulator, progress=None):
    """`play` by reading every lane back, run by run."""
    done = clocks = 0
    for lanes in _runs(recording, simulator):
        part = recording if len(lanes) == len(recording.lengths) else \
            recording.part(lanes)
        part.compare(simulator.run(part.lanes(), part.lengths, part.power_up),
                     simulator.outputs)
        done, clocks = done + len(lanes), clocks + part.clocks
        if progress:
            progress(done, clocks)
    return clocks


def lockstep(name, games=None, *, backend="amaranth", core=None, progress=None,
             cache=False):
    """Play game `name`'s `games` (default: every game of its golden model's `games()`)
    on its core beside its golden model at the console's pins (the chip behind its
    adapter too), every output compared after every rising edge, on simulator `backend`
    (a name of sim.backends.SIMULATORS, or AUTO; or a simulator made for the game at
    the console's pins). `core`: another cartridge class to check against the same
    golden model (a mutant, say: the pins' design made of it, `Pins.mutant`).
    `progress(games, clocks)` hears of each run of games. `cache`: the golden recording
    of every game is kept (a golden model changed in this process is not seen then). Returns Played(games, clocks); raises
    Mismatch at the first difference, BackendMissing (a UserError, one line) if the
    simulator cannot run here."""
    game = catalogue.game(name)
    pins = core_pins(game, cartridge=True).mutant(core=core)
    simulator = backends.make(backend, game, pins=pins) \
        if isinstance(backend, str) else backend
    recording = recorded(game, cartridge=True, cache=cache,
                         games=None if games is None else list(games))
    return Played(recording.games, play(recording, simulator, progress=progress))
