"""The museum's heuristic machines (docs/museum-heuristics.md): Bawer and Hawkins's box,
Hendrix and Purcell's machine and its defended form. Each core plays every game in
lockstep with its golden model, a few on the other benches; a changed engine is caught;
and the machines do what the documents say, judged by perfect play."""

import itertools

import pytest

from firmware_ref import perfect
from firmware_ref.cartridge import line
from firmware_ref.places import EMPTY, GREEN, RED
from sim import Mismatch, catalogue
from sim.cartridges.lockstep import lockstep

NAMES = ("bawer_hawkins", "hendrix_purcell", "hendrix_purcell_defended")
GAMES = {"bawer_hawkins": 811, "hendrix_purcell": 599, "hendrix_purcell_defended": 591}


def played(package, game):
    """The game replayed on a fresh golden model: its final places and the machine's
    moves, each as (the places before it, its place)."""
    model, moves = package.Model(), []
    for pins in game:
        before = list(model.places)
        model.set(pins)
        model.tick()
        moves += [(tuple(before), k) for k in range(9)
                  if model.places[k] == RED and before[k] == EMPTY]
    return model.places, moves


def every_game(name):
    package = catalogue.game(name).golden()
    return [played(package, game) for game in package.games()]


# -- lockstep ---------------------------------------------------------------------------

# Every game on Amaranth's simulator is half a minute a machine: make test-slow, and
# make verify GAME=<machine> on the compiled core. Every twentieth game here.
@pytest.mark.parametrize("every", [20, pytest.param(1, marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", NAMES)
def test_every_game_agrees_with_the_golden_model(name, every):
    games = list(itertools.islice(catalogue.game(name).golden().games(), 0, None, every))
    assert lockstep(name, games) == (len(games), sum(map(len, games)))
    assert len(games) == -(-GAMES[name] // every)


# Each machine's compiled and Verilator builds are make test-slow's (tests/test_cartridges.py
# keeps both benches in make test on first free, the game of turns they all share).
@pytest.mark.slow
@pytest.mark.parametrize("backend", ["compiled", "verilator"])
@pytest.mark.parametrize("name", NAMES)
def test_a_few_games_agree_on_the_other_benches(name, backend):
    games = list(itertools.islice(catalogue.game(name).golden().games(), 0, None, 150))
    assert lockstep(name, games, backend=backend) == (len(games),
                                                                 sum(map(len, games)))


def test_a_box_that_is_never_turned_is_caught(monkeypatch):
    # The wiring read on the board as it stands: the person's corner 3 gets no centre.
    from hdl.bawer_hawkins import engine
    monkeypatch.setattr(engine, "turned", lambda cell, turns: cell)
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: board"):
        lockstep("bawer_hawkins")


def test_an_order_beginning_in_the_corner_is_caught(monkeypatch):
    from hdl.hendrix_purcell import engine
    monkeypatch.setattr(engine, "ORDER", (0, 4) + engine.ORDER[2:])
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: board"):
        lockstep("hendrix_purcell")


# One exception in make test; each of the others in make test-slow.
@pytest.mark.parametrize("forgotten", [0, *(pytest.param(n, marks=pytest.mark.slow)
                                            for n in range(1, 6))])
def test_a_defence_missing_an_exception_is_caught(monkeypatch, forgotten):
    from hdl.hendrix_purcell_defended import engine
    kept = engine.EXCEPTIONS[:forgotten] + engine.EXCEPTIONS[forgotten + 1:]
    monkeypatch.setattr(engine, "EXCEPTIONS", kept)
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: board"):
        lockstep("hendrix_purcell_defended")


def test_the_looks_take_one_clock_each():
    # Thinking: look 0 finds the win on its first clock, look 2 the order on its third.
    from firmware_ref.hendrix_purcell.model import Looks
    win = [RED, RED, EMPTY, GREEN, GREEN, EMPTY, EMPTY, EMPTY, EMPTY]
    for places, clocks, move in ((win, 1, 2), ([GREEN] + [EMPTY] * 8, 3, 4)):
        engine = Looks()
        ticks = [engine.tick(places, True) for _ in range(clocks)]
        assert ticks == [None] * (clocks - 1) + [move]
        engine.tick(places, False)
        assert engine.look == 0


# -- Bawer and Hawkins ------------------------------------------------------------------

def box_answers(persons):
    """The box's answers to the person's `persons` (places), one by one."""
    from firmware_ref.bawer_hawkins.model import Box
    box, places, answers = Box(), [EMPTY] * 9, []
    for k in persons:
        if places[k] != EMPTY or line(places, RED) or line(places, GREEN):
            return None                         # not a game
        places[k] = GREEN
        if line(places, GREEN) or EMPTY not in places:
            break                               # the game is over
        answer = box.tick(list(places), True)
        box.tick(list(places), False)
        places[answer] = RED
        answers.append(answer)
    return answers


def test_figure_3_answers_after_the_corner_and_the_centre():
    # Cells 1..9: after 1 (answered by 5) each second cell lights its wired answer.
    figure_3 = {2: 3, 3: 2, 4: 7, 6: 8, 7: 4, 8: 6, 9: 8}
    for cell, answer in figure_3.items():
        assert box_answers([0, cell - 1]) == [4, answer - 1]


def test_the_box_turned_to_any_corner_plays_the_same_game_turned():
    from firmware_ref.bawer_hawkins.model import CORNERS, turned
    compared = 0
    every = (itertools.permutations(range(1, 9), n) for n in range(5))
    for seconds in itertools.chain.from_iterable(every):
        persons = (0,) + seconds
        expected = box_answers(persons)
        if expected is None:
            continue
        for quarter, corner in enumerate(CORNERS):
            turned_game = [turned(k, quarter) for k in persons]
            assert turned_game[0] == corner
            assert box_answers(turned_game) == [turned(k, quarter) for k in expected]
        compared += 1
    assert compared > 100


def test_a_taken_answer_and_a_cell_without_one_take_the_first_empty_cell():
    # 1, 5 (box), 8, 6 (box), 9: 9's answer 8 is the person's, so the box takes 2, and
    # loses at 7: its one lost game begun in a corner.
    assert box_answers([0, 7, 8]) == [4, 5, 1]
    # A first move on the centre has no answer: cell 1, the box left as it stands.
    assert box_answers([4])[0] == 0


def test_the_box_loses_only_where_the_person_left_its_rules():
    lost = [moves for places, moves in every_game("bawer_hawkins") if line(places, GREEN)]
    begun_in_a_corner = [moves for moves in lost
                         if moves[0][0].index(GREEN) in (0, 2, 6, 8)]
    assert len(lost) == 245 and len(begun_in_a_corner) == 4     # 1 per corner


# -- Hendrix and Purcell ----------------------------------------------------------------

def judged(name):
    """(games lost as first player, lost as second, positions where it threw a draw
    away)."""
    lost, thrown = {True: 0, False: 0}, set()
    for places, moves in every_game(name):
        began = moves[0][0].count(EMPTY) == 9
        lost[began] += line(places, GREEN)
        thrown |= {before for before, k in moves
                   if perfect.values(before, RED)[k] < perfect.value(before, RED)
                   == perfect.DRAW}
    return lost[True], lost[False], len(thrown)


def test_hendrix_and_purcell_lose_only_when_the_person_begins():
    assert judged("hendrix_purcell") == (0, 12, 6)      # docs: A to F


def test_the_defended_machine_never_loses_nor_throws_a_draw_away():
    assert judged("hendrix_purcell_defended") == (0, 0, 0)


def test_the_search_finds_the_defence_and_six_are_needed():
    from firmware_ref.hendrix_purcell_defended import defence
    from firmware_ref.hendrix_purcell_defended.model import EXCEPTIONS
    assert len(list(defence.lost_games({}))) == 12
    assert defence.bound({}) == 6                   # six lost games, disjoint fixes
    assert defence.search() == EXCEPTIONS
    assert not list(defence.lost_games(EXCEPTIONS))
    for position in EXCEPTIONS:                     # each is needed
        rest = {p: k for p, k in EXCEPTIONS.items() if p != position}
        assert any(position in [before for before, _, _ in game]
                   for game in defence.lost_games(rest))


def test_the_core_and_the_model_write_the_same_six_exceptions():
    # Written twice from the one text; lockstep checks that they play alike, this that
    # both are the search's.
    from firmware_ref.hendrix_purcell_defended.model import EXCEPTIONS
    from hdl.hendrix_purcell_defended import engine
    marks = {".": EMPTY, "X": RED, "O": GREEN}
    assert {tuple(marks[c] for c in rows.replace(" ", "")): cell - 1
            for rows, cell in engine.EXCEPTIONS} == EXCEPTIONS
