"""The chip against the golden model, every pin at every clock edge.

Each test runs on Amaranth's simulator and on the compiled chip (CXXRTL, sim.backends.compiled):
`simulate` runs a Bench of either, one lane of the simulators' protocol."""

import functools
import random
import re
from collections import defaultdict

import pytest

from firmware_ref.eth import cycle
from firmware_ref.eth.cycle import NO_KEY, CycleModel, State, key_down
from firmware_ref.eth.pins import start, starting
from sim.bench import lockstep
from sim.chip import e2, games, lanes
from sim.chip.stimulus import random_session

SEARCH = (State.SETBOARDI, State.RATING, State.RETURNED)


@pytest.fixture(scope="module", params=["amaranth", "compiled"])
def chip_simulator(request):
    return lockstep.chip_simulator(request.param)


@pytest.fixture
def simulate(chip_simulator):
    return functools.partial(lockstep.simulate, simulator=chip_simulator)


def test_e2_on_the_hdl_matches_the_paper_and_the_model(simulate):
    rows = simulate(lockstep.replaying_e2)
    assert e2.compare(rows, e2.paper_rows(), hardware=True) == []
    # Where the paper knows a value the HDL must show it; 'u' is only for the unwritten.
    unknown = [d for d in e2.compare(rows, e2.paper_rows())]
    assert {d.column for d in unknown} == {"choose", "toggleN", "i"}
    assert all(d.paper == "u" for d in unknown)


def test_the_chip_read_edge_by_edge_is_what_one_run_shows():
    # e2.replaying reads the bench's probe before and after each edge, a run each time.
    simulator = lockstep.chip_simulator("compiled")
    read = lockstep.simulate(lambda bench: lockstep.run(bench, e2.replaying(bench)),
                             simulator=simulator)
    assert read == lockstep.simulate(lockstep.replaying_e2, simulator=simulator)
    assert e2.compare(read, e2.paper_rows(), hardware=True) == []


@pytest.fixture(scope="module")
def presses():
    return lanes.presses()[0]


# The openings make test plays on each simulator, the others in make test-slow (every
# game on Amaranth's is two minutes): make verify plays every game on the bit-parallel
# chips in make test, and tests/test_verilated.py reads the compiled chip against them.
SAMPLE = {"compiled": ("user-first", "chip-opens-0"), "amaranth": ("chip-opens-0",)}


def _every_game():
    """Every opening on the compiled chip and on Amaranth's simulator."""
    ids = ["user-first"] + [f"chip-opens-{k}" for k in range(8)]
    for backend in ("compiled", "amaranth"):
        for n, opening in enumerate(games.OPENINGS):
            slow = ids[n] not in SAMPLE[backend]
            yield pytest.param(backend, opening, id=f"{backend}-{ids[n]}",
                               marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("chip_simulator, opening", list(_every_game()),
                         indirect=["chip_simulator"])
def test_every_game_in_lockstep(simulate, presses, opening):
    power_up = 0 if opening is None else games.opening_chip(opening).random
    restored = simulate(
        lambda bench: lockstep.run(bench, games.walking_games(bench, opening,
                                                                 presses[opening])),
        random=power_up)
    assert 0 < restored < len(presses[opening])


def test_random_sessions_in_lockstep(simulate, request):
    # Amaranth's simulator takes two sessions (half a minute for all twelve), which
    # between them reach every case below.
    seen = defaultdict(int)
    amaranth = request.node.callspec.params["chip_simulator"] == "amaranth"
    for seed in (6, 9) if amaranth else range(12):
        rng = random.Random(seed)
        session = random_session(rng, 1500)

        async def testbench(bench):
            for inputs in session:
                if not inputs.resetN and bench.state in SEARCH:
                    seen["reset during a search"] += 1
                if inputs.keyboardN != NO_KEY and bench.state in SEARCH:
                    seen["key during a search"] += 1
                bench.set(inputs)
                await bench.tick()
                seen[bench.state] += 1
        simulate(testbench, random=rng.randrange(8))
    for what in ("reset during a search", "key during a search", State.FINISHED,
                 State.DOINGBESTMOVE, State.RETURNED):
        assert seen[what] > 0, what


def _snapshots():
    """Golden-model register sets from every state, shallow and deep in the stack."""
    chip, found = CycleModel(), {}
    for inputs in e2.SESSION:
        chip.set(inputs)
        chip.tick()
        found.setdefault((chip.state, chip.sp), (chip.registers(), inputs))
    chip = CycleModel(random=3)
    start(chip, userbegins=True)
    chip.set(keyboardN=key_down(7))
    for _ in range(3000):
        chip.tick()
        chip.set(keyboardN=NO_KEY)
        found.setdefault((chip.state, chip.sp), (chip.registers(), chip.inputs))
    return list(found.values())


def test_scan_in_run_scan_out_against_the_golden_model(simulate, request):
    snapshots = _snapshots()
    if request.node.callspec.params["chip_simulator"] == "amaranth":
        # Amaranth's simulator takes one snapshot of each state and the deepest stack
        # (its runs start again at each load), the compiled chip all 28.
        deepest = max(snapshots, key=lambda snapshot: snapshot[0].sp)
        snapshots = list({r.state: (r, i) for r, i in snapshots}.values()) + [deepest]
    assert {r.state for r, _ in snapshots} == set(State)
    assert max(r.sp for r, _ in snapshots) == 7

    async def testbench(bench):
        for registers, inputs in snapshots:
            bench.set(inputs)
            await bench.load(registers)         # checks the pins right after loading
            for _ in range(40):
                await bench.tick()
            expected = lockstep.concrete(bench.model.registers())
            assert await bench.unload() == expected
            await bench.tick()                  # unloading left the chip as it was
            expected = lockstep.concrete(bench.model.registers())
            assert await bench.load(registers) == expected  # what the load shifted out
    simulate(testbench)


def test_a_difference_is_reported_with_cycle_signal_values_and_history(simulate,
                                                                        monkeypatch):
    # A golden model that forgets copyboard while it waits: the bench must say where.
    monkeypatch.setattr(cycle, "_PROMPT", cycle._Controls(prompt=True))

    async def testbench(bench):
        await lockstep.run(bench, starting(bench, userbegins=True))
    with pytest.raises(lockstep.Mismatch) as caught:
        simulate(testbench)
    text = str(caught.value)
    assert text.startswith("cycle 2: copyboard is 1 in the HDL, 0 in the golden model")
    assert "last cycles (golden model above, HDL below):" in text
    assert len(re.findall(r"^ +\d+ model ", text, re.M)) == 2     # edges 1 and 2
    assert len(re.findall(r"^ +HDL ", text, re.M)) == 2


class _Shown:
    """The compiled chip as a simulator of the protocol, but showing output `name` as
    `value` at edge `edge` (from 1): just before it with `before`, else just after it."""

    def __init__(self, inner, edge, *, before, name="led", value=lambda shown: shown ^ 1):
        self.inner, self.edge, self.early = inner, edge, before
        self.name, self.pins, self.outputs = inner.name, inner.pins, inner.outputs
        self.forces_power_up = inner.forces_power_up
        self.column, self.value = self.outputs.index(name), value

    def run(self, inputs, lengths, power_up=None, *, before=False):
        shown = [a.copy() for a in self.inner.run(inputs, lengths, power_up, before=True)]
        at = (0, self.edge - 1, self.column)
        shown[self.early][at] = self.value(shown[self.early][at])
        return tuple(shown) if before else shown[0]


@pytest.mark.parametrize("before, said", [(False, "cycle 6: led"),
                                          (True, "just before edge 6: led")])
def test_a_difference_before_or_after_an_edge_is_named_as_such(before, said):
    simulator = _Shown(lockstep.chip_simulator("compiled"), 6, before=before)

    async def testbench(bench):
        await lockstep.run(bench, starting(bench, userbegins=True))
        for _ in range(10):
            await bench.tick()
    with pytest.raises(lockstep.Mismatch) as caught:
        lockstep.simulate(testbench, simulator=simulator)
    assert str(caught.value).startswith(said), str(caught.value)
    # Unchanged, the same run agrees: the difference was the planted bit's alone.
    lockstep.simulate(testbench, simulator=simulator.inner)


def test_a_state_no_state_has_is_reported_as_its_code():
    # A netlist's x reads as all ones (sim/backends/cocotb_lanes.py).
    simulator = _Shown(lockstep.chip_simulator("compiled"), 3, before=False, name="state",
                       value=lambda shown: 0xFFFF_FFFF)
    with pytest.raises(lockstep.Mismatch) as caught:
        lockstep.simulate(lockstep.replaying_e2, simulator=simulator)
    text = str(caught.value)
    assert text.startswith("cycle 3: state is 4294967295 in the HDL, "), text
    assert re.search(r"^ +HDL +4294967295 w0 ", text, re.M), text    # its row of the history


def test_a_chip_powered_up_as_its_netlist_is_not_given_another_counter():
    simulator = _Shown(lockstep.chip_simulator("compiled"), 1, before=False)
    simulator.forces_power_up = False
    with pytest.raises(ValueError, match="starts the chip's random counter as its "
                                         "netlist does, at 0, not 3"):
        lockstep.simulate(lockstep.replaying_e2, simulator=simulator, random=3)
