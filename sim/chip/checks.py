"""The chip's three lockstep checks by name, on a Bench of any simulator
(sim.chip.lockstep): ``ttt netlist`` runs them on the exported netlist under cocotb.

- ``e2_session``: the paper's E.2 session, row for row against its trace;
- ``whole_games``: every game from the chosen openings, each press;
- ``random_keys``: a careless person at the pins: resets mid-search, chords, held
  keys, setups.

Each takes the simulator and its options and returns the lines it says of itself; a
difference from the golden model or the paper raises `Mismatch`.
"""

import random

from sim import Mismatch
from sim.chip import e2, games, lanes, lockstep
from sim.chip.stimulus import random_session

__all__ = ["CHECKS", "SESSION_EDGES", "e2_session", "whole_games", "random_keys",
           "openings"]

SESSION_EDGES = 1500        # a random session's length


def e2_session(simulator, *, waves=None, **_):
    """E.2 on `simulator`, its waves to `waves` (a path)."""
    rows = lockstep.simulate(lockstep.replaying_e2, simulator=simulator, vcd=waves)
    differences = e2.compare(rows, e2.paper_rows(), hardware=True)
    if differences:
        raise Mismatch("E.2 differs from the paper's trace:\n" +
                       "\n".join(map(str, differences[:10])))
    return [f"E.2: all {len(rows)} rows match the paper's trace"]


def whole_games(simulator, *, openings=games.OPENINGS, **_):
    """Every game from `openings` (sim.chip.games.OPENINGS' items), one after another."""
    presses, _ = lanes.presses(openings)
    said = []

    async def testbench(bench):
        for opening in openings:
            restored = await lockstep.run(
                bench, lockstep.walking_games(bench, opening, presses[opening]))
            said.append(f"opening {'user' if opening is None else opening}: "
                        f"{len(presses[opening])} presses, {restored} restores, "
                        f"{bench.cycle} cycles so far")
    lockstep.simulate(testbench, simulator=simulator)
    return said


def random_keys(simulator, *, sessions=4, **_):
    """`sessions` random sessions, one after another."""
    async def testbench(bench):
        for seed in range(sessions):
            for inputs in random_session(random.Random(seed), SESSION_EDGES):
                bench.set(inputs)
                await bench.tick()
        return bench.cycle
    cycles = lockstep.simulate(testbench, simulator=simulator)
    return [f"{sessions} random sessions, {cycles} cycles"]


CHECKS = {"e2_session": e2_session, "whole_games": whole_games, "random_keys": random_keys}


def openings(text):
    """The openings `text` names: 'all', or a comma list of 'user' and 0 to 7."""
    if text == "all":
        return list(games.OPENINGS)
    return [None if item == "user" else int(item) for item in text.split(",")]
