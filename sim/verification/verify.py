"""Every game in lockstep with the golden model: ``make verify``, for any game.

    ttt verify [--game GAME] [--backend auto|bitlanes|verilator-cxx|compiled|verilator|
                                        amaranth|icarus] [--jobs N]
    ttt verify --netlist synth|routed [--board icebreaker|icestick] [--jobs N]

The exhaustive check of a game: its golden recording (sim.cartridges.recording) played
on a simulator (sim.backends), every output compared after every clock edge
(sim.cartridges.lockstep). For the 1990 chip, the default, that is every game a user can
play, in lanes of a few dozen key presses, each an independent chip from power-up, at
the chip's pins and the internal nodes E.2 prints; for a cartridge every game of its
golden model, at the cartridge's pins. ``auto`` is the fastest simulator installed that
runs the game (sim.backends.fastest).

The golden model's inputs follow its state, which is the chip's up to the first
difference, where the check stops and names it.

With ``--netlist`` the chip checked is the one a board build flashes: its synthesised
(``synth``) or placed and routed (``routed``, from ``make bitstream``) netlist, cut out of
the board's and simulated gate by gate (sim.verification.gatelevel.Gates, a simulator of
the same protocol), compared at its output pins.
"""

import dataclasses
import sys
import time

from sim import Mismatch, backends, catalogue
from sim.backends import AUTO, PLAIN_VERILATOR, SIMULATORS
from sim.backends.core import pins
from sim.cartridges.lockstep import lockstep, play
from sim.cartridges.recording import recorded
from sim.chip.lanes import PRESSES_PER_LANE

__all__ = ["AUTO", "CHOICES", "BITLANES", "PLAIN_VERILATOR", "Outcome", "verify",
           "fastest", "throttled", "cartridge", "run"]

# `ttt verify --backend`'s names: the fastest installed, or a simulator of the table.
CHOICES = (AUTO, *SIMULATORS)
BITLANES = "bitlanes"       # make verify's simulator, where it is installed


@dataclasses.dataclass(frozen=True)
class Outcome:
    backend: str
    games: int
    presses: int
    cycles: int
    seconds: float


def verify(backend="compiled", *, gates=None, jobs=None, progress=None,
           per_lane=PRESSES_PER_LANE):
    """Run the exhaustive check of the chip on simulator `backend` (a name, or a
    simulator made already), or on `gates`: a simulator of the protocol (sim.backends)
    such as the gate-level chip of a board build (sim.verification.gatelevel.Gates),
    when `backend` is not used. Returns its Outcome or raises Mismatch."""
    start = time.perf_counter()
    simulator = gates or (backends.make(backend, catalogue.CHIP, log=progress)
                          if isinstance(backend, str) else backend)
    recording = recorded(catalogue.CHIP, forced=simulator.forces_power_up,
                         one_lane=simulator.lanes == 1, per_lane=per_lane, jobs=jobs,
                         progress=progress)
    if progress:
        progress(f"{simulator.what}: {len(recording.lengths)} lanes, {recording.clocks} "
                 f"cycles" + (", checked in bit planes" if hasattr(simulator, "check")
                              else ""))
    total = len(recording.lengths)
    cycles = play(recording, simulator, progress=progress and (
        lambda lanes, cycles: progress(f"{simulator.name}: {lanes}/{total} lanes, "
                                       f"{cycles} cycles")))
    return Outcome(simulator.name, games=recording.games, presses=recording.presses,
                   cycles=cycles, seconds=time.perf_counter() - start)


def fastest(game=catalogue.CHIP, *, log=None):
    """The name of the fastest simulator that runs `game` here, and why each faster one
    does not (sim.backends.fastest); `log(text)` hears what is built to find out."""
    simulator, skipped = backends.fastest(game, log=log)
    return simulator.name, skipped


def throttled(log, seconds):
    """A progress callback for `verify` that passes its text to `log`: for each new phase
    (the text before its colon), then within one at most once in `seconds`."""
    last = {"phase": None, "time": 0.0}

    def progress(text):
        phase, now = text.split(":")[0], time.monotonic()
        if phase != last["phase"] or now - last["time"] >= seconds:
            log(text)
            last.update(phase=phase, time=now)
    return progress


def cartridge(name, backend=AUTO):
    """``ttt verify --game``: every game of game `name` in lockstep with its golden
    model at the cartridge's pins (the chip's too), on `backend` (one of CHOICES);
    prints the progress and the outcome, 1 if they differ. A game without a golden
    model there is refused in one line."""
    game = catalogue.game(name)
    simulator = backends.make(backend, game, pins=pins(game, cartridge=True),
                              log=lambda text: print(text, flush=True))
    backend = simulator.name
    print(f"every game of {name} in lockstep with its golden model, at the cartridge's "
          f"pins, on the {backend} backend", flush=True)
    progress = throttled(lambda text: print(f"  {text}", flush=True), 5)
    began = time.perf_counter()
    try:
        played, clocks = lockstep(
            game, backend=simulator, cache=True,
            progress=lambda games, clocks: progress(f"{backend}: {games} games, "
                                                    f"{clocks} clocks"))
    except Mismatch as difference:
        print(f"DIFFERENT: {difference}")
        return 1
    seconds = time.perf_counter() - began
    print(f"all {played} games agree: {clocks} clocks, every pin of the cartridge at "
          f"every edge, in {seconds:.1f} s ({clocks / seconds:,.0f} cycles/s)")
    return 0


def run(backend=AUTO, *, gates=None, name=None, jobs=None):
    """``ttt verify``: `verify` with its progress on one line (a terminal) or a line a
    second (a log), and its outcome; 1 if the chip and the golden model differ. With
    `gates`, `gates(log)` makes the chip that `name` names (tools are checked before any
    work), which is simulated as it comes: `backend` must be AUTO."""
    if gates is not None:
        if backend != AUTO:
            raise ValueError(f"a netlist runs on its own simulator, not {backend!r}")
        print(f"every game in lockstep on the {name}, gate by gate, at the chip's pins",
              flush=True)
    else:
        log = (lambda text: print(text, flush=True))
        if backend == AUTO:
            backend, skipped = backends.fastest(catalogue.CHIP, log=log)
            for reason in skipped:
                print(f"not using {reason}")
        else:
            backend = backends.make(backend, catalogue.CHIP, log=log)
        print(f"every game in lockstep on the {backend.name} backend", flush=True)
    tty = sys.stdout.isatty()
    if tty:                     # one line, rewritten in place
        def progress(text):
            print(f"\r  {text:<70}", end="", flush=True)
    else:                       # in a log, a line per phase and then one a second at most
        progress = throttled(lambda text: print(f"  {text}", flush=True), 1)
    try:
        chip = gates and gates(progress)
        outcome = verify(backend, gates=chip, jobs=jobs, progress=progress)
    except Mismatch as difference:
        print(f"\nDIFFERENT: {difference}")
        return 1
    finally:
        if tty:
            print()             # below the progress line
    compared = (f"the chip's pins ({', '.join(chip.outputs)})" if chip
                else "every pin and E.2 node")
    print(f"all {outcome.games} games agree: {outcome.presses} key presses, "
          f"{outcome.cycles} cycles, {compared} at every edge, "
          f"in {outcome.seconds:.1f} s ({outcome.cycles / outcome.seconds:,.0f} cycles/s)")
    return 0

