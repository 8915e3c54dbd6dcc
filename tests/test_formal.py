"""The fast formal jobs (seconds each): the proofs, the assumptions' failing traces,
the shallow covers and a mutant. make formal runs these and the slow ones (docs/formal.md).
make test runs one failing trace, two covers and one mutant, make test-slow the rest.
"""

import dataclasses
import functools
import itertools
import json
import time
from math import perm

import pytest

from firmware_ref.cartridge import board_places
from firmware_ref.eth.cycle import CycleModel, State
from firmware_ref.eth.pins import clocked, press, pressing, start
from firmware_ref.places import COMPUTER, EMPTY, HUMAN
from sim.chip import games
from sim.verification.formal import guides, jobs, proofs
from sim.verification.formal.harness import ASSUMPTIONS, PROPERTIES, key_bound
from sim.verification.formal.sby import Outcome
from sim.verification.mutants import mutants

def test_every_property_is_proven_unbounded(tmp_path):
    outcome = jobs.proof(PROPERTIES, work=tmp_path)
    assert outcome.status == "pass", outcome.failed


def _first_of_each(names, kept=1):
    """`names` as parameters: the first `kept` in make test, the others in test-slow."""
    return [pytest.param(name, marks=[pytest.mark.slow] if k >= kept else [])
            for k, name in enumerate(names)]


@pytest.mark.parametrize("assumption", _first_of_each(ASSUMPTIONS))
def test_without_an_assumption_a_trace_fails(tmp_path, assumption):
    outcome = jobs.needs(assumption, work=tmp_path)
    assert outcome.status == "fail"
    assert outcome.failed == jobs.NEEDS[assumption][0]
    assert outcome.traces and outcome.traces[0].stat().st_size > 0


def test_without_its_assumptions_a_property_is_not_proven(tmp_path):
    kept = [a for a in ASSUMPTIONS if a != "no_setup"]
    assert jobs.proof("no_place_11", kept, work=tmp_path).status != "pass"


# name: the clock of its shortest trace, as make formal found it
SHALLOW = {"state_justreset": 1, "state_waiting": 2, "state_userjustmoved": 4,
           "state_setboardi": 5, "state_rating": 6, "chip_wins": 7}


@pytest.mark.parametrize("name", _first_of_each(SHALLOW, kept=2))
def test_a_shallow_cover_is_reached_at_its_shortest(tmp_path, name):
    outcome = jobs.cover(name, depth=SHALLOW[name] + 2, work=tmp_path)
    assert outcome.reached == {name: SHALLOW[name]}


# A part of a mutant's name: what make formal says of it. The last three broke no
# property until never_lost was checked from power-up and chip_opens and finished_stays
# were added (docs/formal.md, "Mutants").
CAUGHT = {"goto justreset -> ": "caught: `reset_to_justreset` fails at clock 1",
          "goto userjustmoved -> doingbestmove": "caught: `never_lost` fails at clock 4",
          "finished stays": "caught: `finished_stays` fails at clock 8",
          "justreset setup": "caught from a game's position: `chip_opens` fails at clock 2"}


@pytest.mark.parametrize("part", _first_of_each(CAUGHT))
def test_a_mutant_is_caught(tmp_path, part):
    source = next(source for name, source in mutants() if part in name)
    # As make formal does after a run that caught it there (the other check passes).
    game_first = "game's position" in CAUGHT[part]
    assert jobs.mutant(source, game_first=game_first, work=tmp_path) == CAUGHT[part]


def test_a_mutant_caught_from_a_game_s_position_is_checked_there_first():
    verdicts = {"justreset setup": CAUGHT["justreset setup"],
                "finished stays": CAUGHT["finished stays"]}
    tasks = proofs._tasks((), False, True, False, print, verdicts)
    first = [key for key in tasks if key.startswith("mutant")
             and tasks[key].keywords["game_first"]]
    assert first == ["mutant justreset setup"]


def test_a_run_without_mutants_keeps_the_order_of_the_last_whole_run():
    # make formal ARGS=--no-mutants, then make formal: the whole run still puts each
    # mutant's catching check first and the longest tasks first.
    whole = {"seconds": {"mutant a": 20.0, "proof": 3.0},
             "mutants": {"a": CAUGHT["justreset setup"]}}
    partial = {**whole, "order": proofs.order(whole, {"proof": 4.0}, None),
               "seconds": {"proof": 4.0}, "mutants": {}}
    kept = proofs.order(partial, {}, None)
    assert kept == {"seconds": {"mutant a": 20.0, "proof": 4.0},
                    "verdicts": {"a": CAUGHT["justreset setup"]}}
    assert proofs.order(partial, {}, [("a", None)])["verdicts"] == {"a": None}


@pytest.mark.slow
def test_the_unchanged_chip_passes_the_mutants_checks(tmp_path):
    assert jobs.from_power_up(work=tmp_path).status == "pass"
    assert jobs.in_games(work=tmp_path).status == "pass"


def test_a_cover_not_reached_or_a_mutant_not_caught_fails_the_run():
    reached = Outcome(None, "pass", 1.0, reached={"sp_7": 19})
    unreached = Outcome(None, "unreached", 1.0)
    covers = {"sp_7": (reached, None), "chip_wins": (unreached, unreached)}
    verdicts = [("a", "caught: `no_overflow` fails at clock 3"), ("b", None),
                ("c", "flagged: the proof breaks at `m_free`"),
                ("d", "not counted (caught: ...): the unchanged chip fails there too")]
    assert jobs.unfinished(covers, verdicts) == ["chip_wins", "b", "c", "d"]
    assert jobs.unfinished({"sp_7": (None, reached)}, verdicts[:1]) == []


def test_the_key_bound_counts_the_search_paths():
    # Sequences of different places from 8 free ones, each in 3 phases at its end.
    paths = sum(perm(8, length) for length in range(1, 9))
    assert key_bound() == 3 * paths == 328_800
    assert key_bound(2) == 3 * len([p for n in (1, 2)
                                    for p in itertools.permutations(range(2), n)])


def _plays_an_assigned_move(registers, key):
    """The chip answers `key` with a stone even when m starts at 15, a value no
    assignment gives: it then played an m of this search (never_lost)."""
    chip = CycleModel.from_registers(dataclasses.replace(registers, m=15))
    before = board_places(registers.board)
    press(chip, key)
    after = board_places(chip.board)
    return after.count(EMPTY) in (0, before.count(EMPTY) - 2)


def _presses():
    """(registers of the waiting chip, key) of every key press of every game."""
    presses = set()
    for _ in games.all_games(on_press=lambda opening, registers, key:
                             presses.add((registers, key))):
        pass
    return presses


class _Watched:
    """A golden chip that notes the returned case of every clock it spends there."""
    def __init__(self, chip):
        self.chip, self.cases = chip, set()
        self.set = chip.set

    state = property(lambda self: self.chip.state)
    board = property(lambda self: self.chip.board)

    def tick(self):
        self.chip.tick()
        registers = self.chip.registers()
        if registers.state is State.RETURNED:
            self.cases.add(guides.returned_case(registers))


def test_the_games_reach_all_nine_returned_cases():
    # The deep covers (3, 5, 7) need a set-up position to be found in time; the games
    # show that ordinary play reaches them too.
    cases = set()
    for registers, key in sorted(_presses(), key=lambda press: press[0].board):
        chip = _Watched(CycleModel.from_registers(registers))
        clocked(chip, pressing(chip, key))
        cases |= chip.cases
        if len(cases) == 9:
            break
    assert cases == set(range(1, 10))


def test_never_lost_holds_in_every_game():
    presses = _presses()
    assert len(presses) > 2000
    assert all(_plays_an_assigned_move(registers, key) for registers, key in presses)


def test_a_lost_chip_plays_an_unassigned_move():
    # The user holds 0 and 1, and 3 makes a second threat; the chip (5, 7) cannot win.
    chip = CycleModel()
    board = [HUMAN, HUMAN, EMPTY, EMPTY, EMPTY, COMPUTER, EMPTY, COMPUTER, EMPTY]
    start(chip, userbegins=True, position=board)
    assert not _plays_an_assigned_move(chip.registers(), 3)


@pytest.mark.slow           # make formal reaches every deep cover so
def test_a_deep_cover_is_reached_from_a_game_position(tmp_path):
    # No game reaches case 5 within 160 clocks (guides.FIRST); a set-up ending in a
    # game's position does in 13.
    kept, game = jobs.reach("returned_case_5", work=tmp_path)
    assert kept is None and game.reached == {"returned_case_5": 13}


def test_the_game_positions_are_boards_a_game_waits_with():
    positions = guides.positions()
    assert 0 in positions                           # the user begins
    assert all(board_places(board).count(EMPTY) >= 1 for board in positions)
    assert len(positions) == 447


def test_the_jobs_run_the_longest_of_the_last_run_first():
    ran = []
    tasks = {key: (lambda key=key: ran.append(key)) for key in "abc"}
    done, seconds = proofs.parallel(tasks, 1, log=lambda line: None,
                                    last={"a": 1.0, "c": 9.0})
    assert ran == ["c", "a", "b"] and set(done) == set(seconds) == set("abc")


def test_make_benchmark_prints_the_median_of_the_last_whole_runs(tmp_path):
    from sim.reports.benchmark.report import formal_section
    runs = [{"wall": wall, "workers": 2, "load": 1.0, "date": "2026-11-27 10:00"}
            for wall in (900, 250, 280, 270)]
    done = [{"job": f"job_{k}", "mode": mode, "engine": "smtbmc yices", "depth": 20,
             "status": "pass", "seconds": float(k)}
            for k, mode in enumerate(["bmc"] * 11 + ["cover"] * 2)]
    (tmp_path / "report.json").write_text(json.dumps({"runs": runs, "jobs": done}))
    lines = formal_section(tmp_path / "report.json")
    assert "Median of the last 3 whole runs: 270 s" in "\n".join(lines)
    assert "| bmc | 11 | 55 |" in lines and "| cover | 2 | 23 |" in lines
    longest = [line for line in lines if line.startswith("| job_")]
    assert longest[0].startswith("| job_12 |") and len(longest) == 10
    assert formal_section(tmp_path / "none.json")[-1] == "No whole run of make formal yet."


def test_an_interrupted_run_starts_no_more_jobs_and_stops_those_running():
    # Ctrl-C while the jobs run: make formal answers at once, not after every job.
    ran, stopped = [], []

    def job(key):
        time.sleep(0.1)
        ran.append(key)

    def interrupted(line):
        raise KeyboardInterrupt
    tasks = {key: functools.partial(job, key) for key in "abcdefgh"}
    with pytest.raises(KeyboardInterrupt):
        proofs.parallel(tasks, 2, log=interrupted, stop=lambda: stopped.append(True))
    time.sleep(0.3)                 # what was running has ended
    assert stopped == [True] and len(ran) <= 4, ran
