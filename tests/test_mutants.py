"""Change any one transition of the HDL controller: the lockstep checks must fail.

Each mutant is hdl/eth/controller.py with one transition altered: every ``goto`` sent to
another state, and the states that stay (setup in justreset, waiting without a key,
finished) made to leave. The mutant controller goes into an otherwise unchanged Chip.
"""

import random
import re
from pathlib import Path

import pytest

import hdl.eth.chip
import hdl.eth.controller
from firmware_ref.eth.cycle import places
from firmware_ref.eth.pins import pressing, starting
from sim import e2, games, lockstep
from sim.stimulus import random_session

SOURCE = Path(hdl.eth.controller.__file__).read_text()
GOTO = re.compile(r"goto\(State\.(\w+)\)")
CODES = {name: member.value for name, member in hdl.eth.controller.State.__members__.items()}
NAMES = {code: name for name, code in CODES.items()}
STAYS = {   # a transition that keeps the state, and one that leaves it instead
    "justreset setup": ("toggle(Choose.key)\n                with m.Elif(self.userbegins)",
                        "toggle(Choose.key)\n                    goto(State.waiting)\n"
                        "                with m.Elif(self.userbegins)"),
    "waiting idle": ("m.d.comb += self.copyboard.eq(1)\n\n            with m.Case(State.userjustmoved)",
                     "m.d.comb += self.copyboard.eq(1)\n                    "
                     "goto(State.userjustmoved)\n\n            with m.Case(State.userjustmoved)"),
    "finished stays": ("self.win.eq(self.wins),\n                ]",
                       "self.win.eq(self.wins),\n                ]\n"
                       "                goto(State.waiting)"),
}


def mutants():
    for n, found in enumerate(GOTO.finditer(SOURCE)):
        target = NAMES[(CODES[found.group(1)] + 1) % 8]
        line = SOURCE.count("\n", 0, found.start()) + 1
        yield (f"line {line}: goto {found.group(1)} -> {target}",
               SOURCE[:found.start()] + f"goto(State.{target})" + SOURCE[found.end():])
    for name, (old, new) in STAYS.items():
        assert SOURCE.count(old) == 1, name
        yield name, SOURCE.replace(old, new)


def controller_from(source):
    """The Controller class of `source`, with the real State and Choose enums so that
    it plugs into the other blocks."""
    source = re.sub(r"class (State|Choose)\(enum\.Enum.*?\n\n\n", "", source, flags=re.S)
    namespace = {"__name__": "hdl.eth.controller_mutant", "__package__": "hdl.eth",
                 "State": hdl.eth.controller.State, "Choose": hdl.eth.controller.Choose}
    exec(compile(source, "hdl/eth/controller.py (mutant)", "exec"), namespace)
    return namespace["Controller"]


def test_the_unmutated_source_passes_the_battery(monkeypatch):
    monkeypatch.setattr(hdl.eth.chip, "Controller", controller_from(SOURCE))
    battery()


def _late_presses():
    """50 key presses late in games (short searches), from the golden game walk:
    they reach the ends a session of random keys rarely does (the user filling the
    board, the last move of a ground search)."""
    presses = []
    for _ in games.all_games(on_press=lambda o, r, k: presses.append((r.board, k))):
        pass
    late = sorted({(b, k) for b, k in presses if places(b).count(0) <= 4})
    return random.Random(1).sample(late, 50)


LATE = _late_presses()


def battery():
    lockstep.simulate(lambda bench: lockstep.run(bench, e2.replaying(bench)))

    async def late_games(bench):
        for board, key in LATE:
            await lockstep.run(bench, starting(bench, userbegins=True,
                                               position=places(board)))
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
