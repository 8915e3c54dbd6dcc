"""Ultimate Tic-Tac-Toe's cartridge (hdl/ultimate) in lockstep with its golden model
(firmware_ref/ultimate/model.py) at every pin: the golden games' cover, refusals and
restarts, hundreds of positions searched, a changed evaluation and a changed blink
caught, the search's clocks."""

import functools

import pytest

from bench import replayed
from firmware_ref.ultimate import model
from sim import Mismatch, catalogue
from sim.cartridges.golden import Golden
from sim.cartridges.lockstep import lockstep


# The golden games, made by the first test that plays them (not at collection).
@functools.cache
def refused():
    return list(model.refused_games())


@functools.cache
def played():
    return list(model.played_games(count=3, plies=44))


def test_the_golden_games_cover_refusals_keys_and_every_ending():
    said, endings, refused_keys = b"", set(), 0
    for game in refused() + played():
        m = model.Model()
        for pins, state in replayed(m, game, before=lambda m: m.state):
            if m.probe.tx_valid and pins.tx_ready:
                said += bytes([m.probe.tx_payload])
            refused_keys += state in ("PICK", "CELL") and pins.key and m.state == "PICK"
        endings.add(m.probe.lamps >> 2 if m.state == "OVER" else None)
    assert said.count(b"?\n") == len(model.REFUSED) and said.count(b"\nM") >= 5
    assert refused_keys > 10 and endings - {None} == {0, 1, 2}    # drawn, red, green won


def test_the_core_agrees_with_its_golden_model_on_refusals_and_restarts():
    games = refused()
    assert lockstep("ultimate", games) == (len(games), sum(map(len, games)))


@pytest.mark.slow       # the engine's compiled build and a million clocks: make test-slow
def test_the_core_searches_200_positions_and_plays_games_as_the_golden_model():
    # Move, value and nodes are in the line the cartridge says, and the clocks it
    # thinks are 4 a node: both compared at every clock. One compiled core for both.
    games = list(model.position_games(count=200)) + played()
    assert lockstep("ultimate", games, backend="compiled") == \
        (len(games), sum(map(len, games)))


def test_a_core_with_another_evaluation_is_caught(monkeypatch):
    import hdl.ultimate.engine as core_engine
    monkeypatch.setattr(core_engine, "BIG", 8)
    with pytest.raises(Mismatch):
        lockstep("ultimate", list(model.position_games(count=2, per_game=2)))


def test_a_short_blink_blinks_alike_in_the_core_and_the_golden_model(monkeypatch):
    # The boards' blink is longer than any game the benches play; a short one blinks
    # within each, and every bench gives the core and the golden model the same.
    games = list(model.position_games(count=2, per_game=2))
    assert Golden(model, blink=64).play(games[0]) != \
        Golden(model).play(games[0])
    monkeypatch.setattr(catalogue.Game, "given", lambda game: {"blink": 64})
    assert lockstep("ultimate", games) == (len(games), sum(map(len, games)))

    class Slower(catalogue.game("ultimate").cartridge()):
        def __init__(self, *, blink):
            super().__init__(blink=2 * blink)
    with pytest.raises(Mismatch, match=r"clock \d+: board is"):
        lockstep("ultimate", games, core=Slower)


def test_the_search_clocks():
    assert [model.search_clocks(n) for n in (1, 605)] == [14, 2430]
