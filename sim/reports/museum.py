"""The museum: every machine through every game, weighed by perfect play: ``make museum``.

``ttt museum`` takes each machine of sim.cartridges.scores's `MACHINES` whose game folder is there
(or those named by ``--machines``, which may also name any game folder) and

1. plays every game of its golden model on its core in lockstep (sim.cartridges.lockstep),
   on the fastest simulator installed (sim.backends.fastest): a difference is one line
   and exit status 2, and nothing is written;
2. scores it from its golden model's games (sim.cartridges.scores `score`): outcomes per side,
   blunders against perfect play, the console's think time per machine move;
3. measures its core alone on an iCE40 HX1K (sim.cartridges.corecost, cached), unless
   ``--no-cost``;

then prints the table and writes build/museum.json, build/museum.md (the table and
"Where they lose": each position where a machine's move gives away a game it would
not have lost, its move and perfect play's) and build/museum.png, each whole or not at all.
"""

import json
import time
from pathlib import Path

from firmware_ref.cli import UserError, replacing
from firmware_ref.perfect import DRAW, WIN
from firmware_ref.places import EMPTY, MARKS

from sim import BUILD, Mismatch, backends, catalogue
from sim.backends import AUTO, BackendMissing
from sim.backends.core import pins
from sim.cartridges import corecost, scores
from sim.cartridges.lockstep import lockstep
from sim.tools import SEEDS

__all__ = ["JSON", "MARKDOWN", "PICTURE", "SIDE_FIELDS", "chosen", "check", "entry",
           "table", "where_they_lose", "picture", "run"]

JSON, MARKDOWN, PICTURE = "museum.json", "museum.md", "museum.png"
SIDE_FIELDS = ("games", "lost", "drawn", "won", "blunders", "worst_cycles", "mean_cycles")
VALUES = {WIN: "won", DRAW: "drawn"}
BACKEND = AUTO          # the simulator of the lockstep: the fastest installed


def chosen(names=None):
    """[(key, game folder)]: the museum's machines that are built, or `names` (keys of
    `MACHINES` or game folders, a museum machine's folder under its key, each once);
    UserError for a name that is neither."""
    built = catalogue.names()
    if names is None:
        return [(key, game) for key, game in scores.MACHINES.items() if game in built]
    keys = {game: key for key, game in scores.MACHINES.items()}
    picked = []
    for name in dict.fromkeys(keys.get(name, name) for name in names):
        game = scores.MACHINES.get(name, name)
        if game not in built:
            keys = [k for k, folder in scores.MACHINES.items() if folder in built]
            raise UserError(f"no machine {name!r}; the built ones are: {', '.join(keys)} "
                            f"(or any game folder: {', '.join(built)})")
        picked.append((name, game))
    return picked


def check(key, game, log=print):
    """Lockstep of `game`'s core with its golden model over every game: (Played, backend,
    seconds). A difference is a UserError naming the machine."""
    began = time.monotonic()
    entry = catalogue.game(game)
    try:
        # At the pins the lockstep plays: the console's, the chip's behind its adapter.
        simulator = backends.make(BACKEND, entry, pins=pins(entry, cartridge=True))
        played = lockstep(game, backend=simulator, cache=True)
    except BackendMissing as missing:
        raise UserError(f"{key}: no backend can run its lockstep: {missing}") from None
    except Mismatch as difference:
        first = str(difference).splitlines()[0]
        raise UserError(f"{key}: the core differs from its golden model: {first}") \
            from None
    return played, simulator.name, time.monotonic() - began


def _side(side):
    return {"games": side.games, "lost": side.lost, "drawn": side.drawn, "won": side.won,
            "blunders": len(side.blunders),
            "worst_cycles": max(side.cycles, default=0),
            "mean_cycles": round(sum(side.cycles) / len(side.cycles), 2)
            if side.cycles else 0}


def entry(score, cost=None, lockstep=None):
    """A machine's object in museum.json: a side object (`SIDE_FIELDS`) per side it
    plays, its core's cost (None if not measured) and its lockstep."""
    out = {name: _side(score[name]) for name in scores.SIDES if name in score}
    out["logic_cells"] = cost and cost["logic_cells"]
    out["fmax_mhz"] = cost and cost["fmax_mhz"]
    if lockstep:
        out["lockstep"] = lockstep
    return out


def table(entries):
    """The museum's table, Markdown."""
    rows = ["| machine | side | games | lost | drawn | won | blunders | worst cycles "
            "| mean cycles | logic cells | fmax MHz |", "|---" * 11 + "|"]
    for key, machine in entries.items():
        for side in scores.SIDES:
            if side in machine:
                s = machine[side]
                rows.append(f"| {key} | {side} | " + " | ".join(
                    str(s[f]) for f in SIDE_FIELDS) + f" | {_shown(machine['logic_cells'])}"
                    f" | {_shown(machine['fmax_mhz'])} |")
    return "\n".join(rows) + "\n"


def _shown(value):
    return "-" if value is None else str(value)


def _board(places, move):
    """Three lines of `places`, the machine's move marked ``o``."""
    marks = [MARKS[v] for v in places]
    marks[move] = "o"
    return ["  " + " ".join(marks[r:r + 3]) for r in (0, 3, 6)]


def where_they_lose(scored):
    """The section "Where they lose": for each machine, each position where its move
    loses a game it had not lost (cells 1..9, row-major as in the thesis)."""
    out = ["## Where they lose", "",
           "Each position where a machine's move turns a game it would not lose into one "
           "it loses with best play against it. O: the machine's stones, X: the "
           "person's, o: its move; cells are numbered 1..9 row by row, as in the thesis; "
           "perfect play is firmware_ref/perfect.py's.", ""]
    for key, score in scored.items():
        moves = sorted({m.before: m for side in score.values()
                        for m in side.blunders.values() if m.loses}.values(),
                       key=lambda m: (m.before.count(EMPTY) * -1, m.before))
        out += [f"### {key}", ""]
        if not moves:
            out += ["It never gives a game away.", ""]
            continue
        out.append(f"{len(moves)} positions:")
        out.append("")
        for m in moves:
            best = ("cell " if len(m.best) == 1 else "cells ") + ", ".join(
                str(k + 1) for k in sorted(m.best))
            out += ["```", *_board(m.before, m.place), "```",
                    f"it played cell {m.place + 1} and loses; the position was "
                    f"{VALUES[m.value]} for it; perfect play: {best}.", ""]
    return "\n".join(out) + "\n"


def picture(entries, path):
    """build/museum.png: per machine and side, lost/drawn/won as shares of its games,
    and the worst and mean think time per move on a log scale; written whole."""
    import matplotlib
    matplotlib.use("Agg")           # no screen needed
    from matplotlib import pyplot

    rows = [(f"{key} ({side})", machine[side]) for key, machine in entries.items()
            for side in scores.SIDES if side in machine]
    figure, (outcomes, think) = pyplot.subplots(
        1, 2, figsize=(11, 1 + 0.4 * max(len(rows), 1)), sharey=True)
    names = [name for name, _ in rows]
    left = [0.0] * len(rows)
    for field, colour in (("lost", "tab:red"), ("drawn", "tab:gray"), ("won", "tab:green")):
        shares = [s[field] / s["games"] if s["games"] else 0 for _, s in rows]
        outcomes.barh(names, shares, left=left, color=colour, label=field)
        left = [a + b for a, b in zip(left, shares)]
    outcomes.set_xlim(0, 1)
    outcomes.set_xlabel("share of its games (the machine's outcome)")
    outcomes.legend(loc="lower right", fontsize="small")
    outcomes.invert_yaxis()
    think.barh(names, [max(s["worst_cycles"], 1) for _, s in rows], color="tab:blue",
               label="worst")
    think.barh(names, [max(s["mean_cycles"], 1) for _, s in rows], color="tab:cyan",
               label="mean")
    think.set_xscale("log")
    think.set_xlim(left=1)
    think.set_xlabel("think time per machine move (clocks, busy)")
    think.legend(loc="lower right", fontsize="small")
    figure.suptitle("The museum: every game against every machine")
    figure.tight_layout()
    with replacing(path, "wb") as file:
        figure.savefig(file, format="png", dpi=100)
    pyplot.close(figure)


def run(names=None, *, seeds=SEEDS, cost=True, out=BUILD, log=print):
    """The museum (see the module's text) of `names` (default: every built machine);
    returns the entries written to museum.json."""
    machines = chosen(names)
    try:                # before minutes of work, not after
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot write to {out}: {error.strerror}") from None
    built = catalogue.names()
    missing = [key for key, game in scores.MACHINES.items()
               if names is None and game not in built]
    if missing:
        log(f"not built yet: {', '.join(missing)}")
    if not machines:
        raise UserError("no machine of the museum is built yet")
    log("Lockstep, every core against its golden model over every game:")
    checked = {}
    for key, game in machines:
        played, backend, seconds = check(key, game, log)
        checked[key] = {"games": played.games, "clocks": played.clocks,
                        "backend": backend}
        log(f"  {key}: {played.games} games, {played.clocks} clocks equal "
            f"({backend}, {seconds:.1f} s)")
    scored, entries = {}, {}
    log("Scores against perfect play:")
    for key, game in machines:
        began = time.monotonic()
        scored[key] = scores.score(game)
        log(f"  {key}: {sum(s.games for s in scored[key].values())} games scored in "
            f"{time.monotonic() - began:.1f} s")
    if cost:
        log(f"Cost of each core alone, iCE40 HX1K, median of seeds "
            f"{' '.join(map(str, seeds))}:")
    for key, game in machines:
        measured = corecost.measure(game, seeds, log=log) if cost else None
        entries[key] = entry(scored[key], measured, checked[key])
    text = table(entries)
    print(text)
    out = Path(out)
    with replacing(out / JSON) as file:
        json.dump(entries, file, indent=1)
        file.write("\n")
    with replacing(out / MARKDOWN) as file:
        file.write("# The museum (written by ttt museum)\n\n" + text + "\n"
                   + where_they_lose(scored))
    picture(entries, out / PICTURE)
    log(f"wrote {out / JSON}, {out / MARKDOWN} and {out / PICTURE}")
    return entries
