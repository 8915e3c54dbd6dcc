"""Change any one transition of the HDL controller: the lockstep checks must fail.

The mutants are sim.verification.mutants's: hdl/eth/controller.py with one transition altered. The
mutant controller goes into an otherwise unchanged Chip.
"""

import functools
import random

import pytest

import hdl.eth.chip
from firmware_ref.cartridge import board_places
from firmware_ref.eth.pins import pressing, starting
from sim.bench import lockstep
from sim.chip import e2, games
from sim.verification.mutants import SOURCE, controller_from, mutants
from sim.chip.stimulus import random_session


def test_the_unmutated_source_passes_the_battery(monkeypatch):
    monkeypatch.setattr(hdl.eth.chip, "Controller", controller_from(SOURCE))
    battery()


@functools.cache
def late_presses():
    """50 key presses late in games (short searches), from the golden game walk:
    they reach the ends a session of random keys rarely does (the user filling the
    board, the last move of a ground search)."""
    presses = []
    for _ in games.all_games(on_press=lambda o, r, k: presses.append((r.board, k))):
        pass
    late = sorted({(b, k) for b, k in presses if board_places(b).count(0) <= 4})
    return random.Random(1).sample(late, 50)


def battery():
    lockstep.simulate(lockstep.replaying_e2)

    async def late_games(bench):
        for board, key in late_presses():
            await lockstep.run(bench, starting(bench, userbegins=True,
                                               position=board_places(board)))
            await lockstep.run(bench, pressing(bench, key))
    lockstep.simulate(late_games)
    for seed in range(4):
        rng = random.Random(seed)
        session = random_session(rng, 1500)

        async def testbench(bench):
            for inputs in session:
                bench.set(inputs)
                await bench.tick()
        lockstep.simulate(testbench, random=rng.randrange(8))


@pytest.mark.parametrize("name, source", list(mutants()), ids=lambda x: x if
                         len(x) < 60 else None)
def test_a_changed_transition_is_caught(monkeypatch, name, source):
    assert source != SOURCE
    monkeypatch.setattr(hdl.eth.chip, "Controller", controller_from(source))
    with pytest.raises(lockstep.Mismatch):
        battery()
