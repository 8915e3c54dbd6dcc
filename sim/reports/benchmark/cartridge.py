"""Cycles per second of the largest cartridge's core (CARTRIDGE) on every game of its
golden model, each a lane from power-up, every output read after every edge and
compared with the golden model's recording: every simulator of sim.backends' table that
runs it, made by its name there and timed through the protocol's `run`, and the golden
model on its first GOLDEN_GAMES games; each a ratio of plain Verilator's."""

import itertools

from sim import Mismatch, backends, catalogue
from sim.backends import BackendMissing

from .timing import GOLDEN, INSIDE, PEER, missing, row, run_timed, speed, timed, title

__all__ = ["CARTRIDGE", "GOLDEN_GAMES", "LONGEST_S", "cartridge_speeds"]

CARTRIDGE = "ultimate"      # the largest core (docs/performance.md)
GOLDEN_GAMES = 3            # the golden model is timed on the first games only
# A simulator whose speed on the chip says every game would take longer is not run: the
# cartridge is larger than the chip, so it would take longer still.
LONGEST_S = 30


def cartridge_speeds(*, repeats, quick, chip, log):
    """The cartridge table's rows; `chip`: the speed table's rows (sim.reports.benchmark
    .speeds), whose figures say which simulators are worth running here."""
    names = [GOLDEN, *map(title, backends.SIMULATORS)]
    if quick:
        return [missing(name, "", "not run with --quick") for name in names]
    from sim.cartridges.golden import Golden
    from sim.cartridges.recording import recorded
    log(f"{CARTRIDGE}: the golden model's recording (cached by its sources)")
    game = catalogue.game(CARTRIDGE)
    recording = recorded(game, cartridge=True)
    package = game.golden()
    first = list(itertools.islice(package.games(), GOLDEN_GAMES))
    runs, _ = timed(lambda: [Golden(package, **game.given()).play(played)
                             for played in first], repeats)
    rows = [row(GOLDEN, f"the first {GOLDEN_GAMES} games, one after the other",
                sum(map(len, first)), runs)]
    for name in backends.SIMULATORS:
        rows.append(_simulator_row(name, game, recording, repeats, chip, log))
    base = speed(rows, PEER)
    for entry in rows:
        if base and "cycles_per_s" in entry:
            entry["over_plain_verilator"] = entry["cycles_per_s"] / base
    return rows


def _simulator_row(name, game, recording, repeats, chip, log):
    shown, mode = title(name), f"{len(recording.lengths)} games as lanes, batch"
    on_chip = speed(chip, shown)
    if on_chip and recording.clocks / on_chip > LONGEST_S:
        return missing(shown, mode, f"not run: at its speed on the chip every game would "
                       f"take over {recording.clocks / on_chip:,.0f} s")
    try:
        simulator = backends.make(name, game, log=log)
    except BackendMissing as why:
        return missing(shown, mode, str(why))
    log(f"{CARTRIDGE}: {shown}")
    runs, got, inside = run_timed(simulator, recording.lanes(), recording.lengths, repeats,
                                  recording.power_up)
    try:
        recording.compare(got, simulator.outputs)
    except Mismatch as difference:
        raise Mismatch(f"{CARTRIDGE} on {shown}: {difference}") from None
    return row(shown, mode, recording.clocks, runs,
               "every output compared with the golden model's recording" +
               (f"; {INSIDE}" if inside else ""))
