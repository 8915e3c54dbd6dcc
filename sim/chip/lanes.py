"""Every game a user can play against the chip, split into lanes: the chip's recording.

The games of every opening (sim.chip.games) are walked as the pin-level benches walk
them (`games.walking_games`): each key press of the golden model's game tree, the
chip reset with a position entered to go back to a branch point. `plan` splits the
presses into lanes of a few dozen, each lane an independent chip from power-up; the
golden model plays each lane and records its inputs and probe every cycle
(firmware_ref.eth.batch), in one process per core (`rows`).

A lane's chip powers up with its random counter at the lane's opening where the
simulator can force it (`forced`), else at 0, as an FPGA configures every flip-flop, and
the walk holds reset until the counter comes round. A simulator that cannot bring the
chip back to power-up plays every opening in one lane (`one_lane`), as one simulation
would.
"""

import collections
import dataclasses
import multiprocessing
import os
import sys

from firmware_ref import cli
from firmware_ref.eth.batch import Recorder
from firmware_ref.eth.pins import clocked

from sim.chip import games

__all__ = ["PRESSES_PER_LANE", "Lane", "presses", "plan", "one_lane", "record", "rows",
           "pool"]

PRESSES_PER_LANE = 48       # about 60 lanes: both cores busy, short padding


@dataclasses.dataclass(frozen=True)
class Lane:
    """Presses of the games of one opening or more, played on a chip whose random
    counter powers up at `power_up`: `walks` is ((opening, presses), ...), the presses
    as `presses` gives them, walked one after the other."""
    walks: tuple
    power_up: int

    @property
    def opening(self):
        """The opening of the lane's first walk (None: the user begins)."""
        return self.walks[0][0]

    @property
    def pressed(self):
        """How many keys the lane presses."""
        return sum(len(keys) for _, keys in self.walks)

    def about(self):
        """The lane in words, as a difference in it is reported."""
        return "the user begins" if self.opening is None else \
            f"the chip opens at {self.opening}"


def presses(openings=games.OPENINGS):
    """Every key press of every game from `openings`, by opening, in the golden walk's
    order: (registers of the waiting chip the key goes to, key); and how many games
    they hold. One walk of the game tree."""
    found = collections.defaultdict(list)
    count = sum(1 for _ in games.all_games(
        openings, on_press=lambda opening, registers, key:
        found[opening].append((registers, key))))
    return found, count


def plan(per_lane=PRESSES_PER_LANE, openings=games.OPENINGS, *, forced=True):
    """The lanes that together press every key of every game of `openings`, and the
    count of those games. `forced`: each lane's counter powers up at its opening's."""
    pressed, count = presses(openings)
    lanes = []
    for opening in openings:
        power_up = 0 if opening is None or not forced else \
            games.opening_chip(opening).random
        mine = pressed[opening]
        lanes += [Lane(((opening, tuple(mine[k:k + per_lane])),), power_up)
                  for k in range(0, len(mine), per_lane)]
    return lanes, count


def one_lane(openings=games.OPENINGS):
    """Every game of `openings` in one lane from power-up (counter 0), the openings one
    after the other, and the count of those games."""
    pressed, count = presses(openings)
    return [Lane(tuple((opening, tuple(pressed[opening])) for opening in openings), 0)], \
        count


def record(lane):
    """The golden model's cycles of `lane`: its packed rows (firmware_ref.eth.batch)."""
    model = Recorder(random=lane.power_up)
    for opening, presses in lane.walks:
        clocked(model, games.walking_games(model, opening, presses))
    return model.rows


def rows(lanes, *, jobs=None, progress=None):
    """Record every lane, one process per core (`jobs`); returns their rows in order.
    `progress(done, total, cycles)` is called as lanes finish."""
    jobs = min(jobs or os.cpu_count() or 1, len(lanes))
    found, cycles = [None] * len(lanes), 0
    if jobs <= 1:
        results = ((n, record(lane)) for n, lane in enumerate(lanes))
        for done, (n, packed) in enumerate(results, 1):
            found[n] = packed
            cycles += len(packed)
            if progress:
                progress(done, len(lanes), cycles)
        return found
    with pool(jobs) as workers:
        for done, (n, packed) in enumerate(workers.imap_unordered(_record_numbered,
                                                                  enumerate(lanes)), 1):
            found[n] = packed
            cycles += len(packed)
            if progress:
                progress(done, len(lanes), cycles)
    return found


def pool(jobs):
    """`jobs` worker processes (a multiprocessing Pool, forked where that is safe) that
    leave Ctrl-C to the parent (firmware_ref.cli)."""
    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    return ctx.Pool(jobs, initializer=cli.ignore_interrupts)


def _record_numbered(item):
    n, lane = item
    return n, record(lane)
