"""Tactic-Toe's cartridge (hdl/tactic) in lockstep with its golden model
(firmware_ref/tactic/model.py): the golden games' cover, two-person games and a game
against the machine at every pin, a broken core caught, the planner's clocks."""

import pytest

from bench import replayed
from firmware_ref.tactic import model
from sim import Mismatch
from sim.cartridges.lockstep import lockstep

PEOPLE = list(model.two_person_games())


def test_the_golden_games_cover_refused_keys_bounces_and_every_result():
    refused, bounced, results = 0, 0, set()
    for game in PEOPLE:
        m = model.Model()
        for _, before in replayed(m, game, before=lambda m: m.refused):
            refused += m.refused and not before
            bounced += m.state == "JUDGE" and m.bounce
        results.add(m.result)
    assert refused > 20 and bounced > 5 and results == {"X", "O", "tie", "cats"}


def test_the_core_agrees_with_its_golden_model_in_two_person_games():
    assert lockstep("tactic", PEOPLE) == (len(PEOPLE), sum(map(len, PEOPLE)))


@pytest.mark.slow       # the planner's compiled build and half a million clocks: make test-slow
def test_the_core_plans_as_the_golden_model_in_a_game_against_the_machine():
    # The seed's A plan 2, 3, 7 in round 1; the planner's choice and its clocks.
    game = next(model.machine_games(1))
    assert lockstep("tactic", [game], backend="compiled") == (1, len(game))
    m = model.Model()
    thinks = []
    for pins in game:
        m.set(pins)
        m.tick()
        if m.state == "THINK" and m.thought == 1:
            thinks.append((m.round, m.needed))
    assert thinks[0] == (1, 227_865) and all(n in (227_865, 88_089, 531_441)
                                            for _, n in thinks)


def test_a_core_that_lets_the_centre_into_round_1_is_caught(monkeypatch):
    import hdl.tactic.rules as core_rules
    monkeypatch.setattr(core_rules, "CENTRE", 9)        # no place is the centre
    with pytest.raises(Mismatch):
        lockstep("tactic", PEOPLE)


def test_the_planner_clocks_per_round():
    assert [model.think_clocks(1, ()), model.think_clocks(2, (1, 2, 4)),
            model.think_clocks(3, ())] == [312 * 729 + 417, 120 * 729 + 609, 729 * 729]
