"""One golden recording for every game: the inputs of every lane and every output the
golden model shows after every clock, as arrays, recorded once and cached.

A game is played in lanes, each a core from power-up. What differs between games is
data, held by the `Recording`: its input and output names (sim.backends.core.pins), its
lanes and each lane's power-up, and how a difference in it is named.

- A cartridge: each game of its golden model's ``games()`` is a lane, played on the
  golden model at the console's pins (sim.cartridges.golden).
- The 1990 chip: every game a user can play, its key presses split into lanes
  (sim.chip.lanes), the chip's pins and the nodes E.2 prints recorded by the golden
  model in batch (firmware_ref.eth.batch), in one process per core; where it does not
  know a node (E.2's 'u') the recording says so (`known`). A lane's random counter
  powers up at its opening's value where the simulator can force it, else at 0 with
  the reset held until it comes round, or every opening is one lane, for a simulator
  that cannot go back to power-up.

`recorded` keeps every recording of every game in ``build/golden/<game>/`` (sim.cache),
keyed by every source of the golden models (sim.golden_sources), its columns (the
pins' names), what the console gives the core, and for the chip the walk that plans
its lanes: a change to any of them records anew. A golden model changed in a running
process (monkeypatched) is not in the key: ask for ``cache=False`` then.
"""

import dataclasses
import operator
from pathlib import Path

import numpy as np

from firmware_ref.eth.batch import UNKNOWN, columns
from firmware_ref.eth.cycle import State

from sim import BUILD, Mismatch, catalogue, golden_sources
from sim.backends.core import Pins, pins
from sim.cartridges.golden import Golden
from sim.chip import games as chip_games
from sim.chip import lanes as chip_lanes
from sim.cache import cached

__all__ = ["CACHE", "HISTORY", "Recording", "recorded"]

CACHE = BUILD / "golden"
HISTORY = 5                 # the cycles up to a difference that its report shows
# The modules whose walk plans the chip's lanes: their text is part of its key.
WALK = [Path(module.__file__) for module in (chip_lanes, chip_games)]


@dataclasses.dataclass(frozen=True, eq=False)
class Recording:
    """A game's lanes at its `pins` (sim.backends.core.Pins) and what its golden model
    shows in them there. `driven` (clocks, inputs) and `expected` (clocks, outputs)
    uint32 hold the lanes one after the other, lane l `lengths[l]` clocks from power-up
    at `power_up[l]`; `known` (like `expected`,
    or None: everywhere) where the golden model knows the value. `numbers` are the
    lanes' numbers where they are a part of a larger recording. A difference is named
    `where` (formatted with the lane, its `about` and the cycle, counted from
    `counted_from`) in the `machine`, its values `shown` by name. `games` and `presses`
    count what the lanes play; `key` and `folder` say where it is cached (None: not)."""
    pins: Pins
    lengths: np.ndarray
    power_up: np.ndarray
    driven: np.ndarray
    expected: np.ndarray
    known: np.ndarray | None
    games: int
    presses: int | None = None
    about: tuple = ()
    numbers: np.ndarray | None = None
    key: str | None = None
    folder: Path | None = None
    where: str = "game {lane}, clock {cycle}"
    counted_from: int = 0
    machine: str = "core"
    shown: dict = dataclasses.field(default_factory=dict)

    @property
    def game(self):
        return self.pins.game

    @property
    def inputs(self):
        return self.pins.inputs

    @property
    def outputs(self):
        return self.pins.outputs

    @property
    def starts(self):
        """Where each lane begins in the flat arrays, and where the last ends."""
        return np.concatenate([[0], np.cumsum(self.lengths)]).astype(np.int64)

    @property
    def clocks(self):
        return int(self.lengths.sum())

    def part(self, lanes):
        """The lanes `lanes` (their indices here) as a recording of their own."""
        lanes = np.asarray(lanes, np.int64)
        starts = self.starts
        rows = np.concatenate([np.arange(starts[n], starts[n + 1]) for n in lanes]) \
            if len(lanes) else np.zeros(0, np.int64)
        numbers = lanes if self.numbers is None else self.numbers[lanes]
        return dataclasses.replace(
            self, lengths=self.lengths[lanes], power_up=self.power_up[lanes],
            driven=self.driven[rows], expected=self.expected[rows],
            known=None if self.known is None else self.known[rows],
            about=tuple(self.about[n] for n in lanes) if self.about else (),
            numbers=numbers, key=None, folder=None)

    def lanes(self):
        """The lanes' inputs as a simulator runs them: (lanes, cycles, inputs) uint32,
        every lane padded with zeros to the longest."""
        inputs = np.zeros((len(self.lengths), int(self.lengths.max(initial=0)),
                           len(self.inputs)), np.uint32)
        for n, (begin, end) in enumerate(zip(self.starts[:-1], self.starts[1:])):
            inputs[n, :end - begin] = self.driven[begin:end]
        return inputs

    def padded(self):
        """Every lane padded to the longest: (inputs (lanes, cycles, inputs) uint32,
        expected (lanes, cycles, outputs) int64, UNKNOWN where not known, lengths)."""
        expected = np.full((len(self.lengths), int(self.lengths.max(initial=0)),
                            len(self.outputs)), UNKNOWN, np.int64)
        wanted = self.expected.astype(np.int64)
        if self.known is not None:
            wanted[~self.known] = UNKNOWN
        for n, (begin, end) in enumerate(zip(self.starts[:-1], self.starts[1:])):
            expected[n, :end - begin] = wanted[begin:end]
        return self.lanes(), expected, self.lengths

    def compare(self, outputs, names):
        """Raise Mismatch at the first difference, lane by lane in order, then cycle by
        cycle, then in the order of `names`, between `outputs` ((lanes, cycles, names)
        from a simulator's run of these lanes) and the golden model."""
        picked = [self.outputs.index(name) for name in names]
        for n, (begin, end) in enumerate(zip(self.starts[:-1], self.starts[1:])):
            want = self.expected[begin:end, picked]
            got = outputs[n, :end - begin]
            wrong = got != want
            if self.known is not None:
                wrong &= self.known[begin:end, picked]
            if wrong.any():
                cycle, column = (int(k) for k in np.argwhere(wrong)[0])
                raise Mismatch(self._report(n, cycle, column, names, picked, got))

    def _report(self, n, cycle, column, names, picked, got):
        begin = int(self.starts[n])
        name = names[column]
        show = self.shown.get(name, str)
        want = self.expected[begin:begin + cycle + 1, picked].astype(np.int64)
        if self.known is not None:
            want[~self.known[begin:begin + cycle + 1, picked]] = UNKNOWN
        number = n if self.numbers is None else int(self.numbers[n])
        where = self.where.format(lane=number, about=self.about[n] if self.about else "",
                                  cycle=cycle + self.counted_from)
        lines = [f"{where}: {name} is {show(int(got[cycle, column]))} in the "
                 f"{self.machine}, {show(int(want[cycle, column]))} in the golden model",
                 f"inputs ({' '.join(self.inputs)}): "
                 f"{self.driven[begin + cycle].tolist()}",
                 f"last cycles (golden model above, {self.machine} below), "
                 + " ".join(names) + ":"]
        for c in range(max(0, cycle - HISTORY + 1), cycle + 1):
            lines += [f"  {c + self.counted_from:>7} model {want[c].tolist()}",
                      f"  {'':>7} {self.machine:<5} {got[c].tolist()}"]
        return "\n".join(lines)


def recorded(game, *, cartridge=False, games=None, forced=True, one_lane=False,
             cache=True, per_lane=chip_lanes.PRESSES_PER_LANE, jobs=None, progress=None):
    """The golden recording of `game` (a name or a catalogue entry) at its own pins, or
    with `cartridge` at the console's pins (sim.backends.core.pins), cached unless
    `cache` is false. At the console's pins the lanes are `games` (each the inputs of
    each clock; default every game of its golden model, the only ones cached). At the
    chip's own they are every game a user can play, `per_lane` presses to a lane, each
    powering up with its opening's random counter if `forced`, else at 0; or all in one
    lane (`one_lane`). `jobs`: the processes that record the chip; `progress(text)`
    hears how far."""
    entry = catalogue.game(game)
    names = pins(entry, cartridge=cartridge)
    if entry.chip and not cartridge:        # the chip's own lanes, recorded clock by clock
        return _chip(names, forced=forced and not one_lane, one_lane=one_lane,
                     cache=cache, per_lane=per_lane, jobs=jobs, progress=progress)
    return _cartridge(names, games, cache and games is None, progress)


def _cartridge(names, games, cache, progress):
    game = names.game
    package = game.checked()
    given = game.given()

    def record():
        golden = Golden(package, **given)
        values = operator.attrgetter(*names.inputs)
        lengths, driven, shown = [], [], []
        for played in package.games() if games is None else games:
            lengths.append(len(played))
            driven += [values(clock) for clock in played]
            shown += golden.play(played)
        driven = np.array(driven, np.int64).reshape(-1, len(names.inputs))
        shown = np.array(shown, np.int64).reshape(-1, len(names.outputs))
        if any(((a < 0) | (a >= 2 ** 32)).any() for a in (driven, shown)):
            raise ValueError(f"the {game.name} golden model's values do not fit 32 bits")
        return {"lengths": np.array(lengths, np.int64),
                "driven": driven.astype(np.uint32), "expected": shown.astype(np.uint32)}

    key, folder, arrays = _kept(game, "games", [*_shape(names), repr(sorted(given.items()))],
                                record,
                                cache, f"recording the {game.name} golden model", progress)
    return Recording(names, arrays["lengths"],
                     np.zeros(len(arrays["lengths"]), np.uint32), arrays["driven"],
                     arrays["expected"], None, games=len(arrays["lengths"]), key=key,
                     folder=folder)


def _chip(names, *, forced, one_lane, cache, per_lane, jobs, progress):
    game = names.game

    def record():
        lanes, count = chip_lanes.one_lane() if one_lane else \
            chip_lanes.plan(per_lane, forced=forced)
        rows = chip_lanes.rows(lanes, jobs=jobs, progress=progress and (
            lambda done, total, cycles: progress(f"golden model: {done}/{total} lanes, "
                                                 f"{cycles} cycles")))
        driven, expected = (np.concatenate(found) for found in
                            zip(*(columns(packed) for packed in rows)))
        return {"lengths": np.array([len(packed) for packed in rows], np.int64),
                "power_up": np.array([lane.power_up for lane in lanes], np.uint32),
                "openings": np.array([-1 if lane.opening is None else lane.opening
                                      for lane in lanes], np.int64),
                "counts": np.array([count, sum(lane.pressed for lane in lanes)], np.int64),
                "driven": driven.astype(np.uint32),
                "known": expected != UNKNOWN,
                "expected": np.where(expected == UNKNOWN, 0, expected).astype(np.uint32)}

    variant = "one lane" if one_lane else f"{per_lane} presses a lane, " + \
        ("forced" if forced else "from 0")
    key, folder, arrays = _kept(
        game, variant.replace(" ", "-").replace(",", ""),
        [*_shape(names), variant, *(path.read_text() for path in WALK)], record, cache,
        "recording the golden model of every game", progress)
    games, presses = (int(n) for n in arrays["counts"])
    return Recording(
        names, arrays["lengths"], arrays["power_up"],
        arrays["driven"], arrays["expected"], arrays["known"], games=games,
        presses=presses, key=key, folder=folder,
        about=tuple("the user begins" if opening < 0 else f"the chip opens at {opening}"
                    for opening in arrays["openings"].tolist()),
        where="cycle {cycle} of lane {lane} ({about})", counted_from=1, machine="chip",
        shown={"state": lambda value: State(value).name.lower(),
               "led": lambda value: f"{value:018b}"})


def _shape(names):
    """What shapes a recording's arrays besides the golden models: its columns."""
    return [" ".join(names.inputs), " ".join(names.outputs)]


def _kept(game, variant, parts, record, cache, doing, progress):
    """The arrays `record()` makes, read from the cache `CACHE/<game>/<variant>/` under
    the key of `parts` and the golden models' sources (made there once, `progress`
    told), or made now if not `cache`: (key, folder, arrays), key and folder None if
    not cached."""
    if not cache:
        return None, None, record()

    def build(work):
        np.savez(work / "recording.npz", **record())
        return [work / "recording.npz"]
    path = cached(CACHE / game.name / variant, [*parts, *golden_sources()],
                  "recording.npz", build, doing=doing, log=progress)
    with np.load(path) as saved:
        return path.parent.name, path.parent, {name: saved[name] for name in saved.files}
