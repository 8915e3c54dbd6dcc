"""Turbo (hdl/turbo/): its golden model plays perfectly from every position and answers
every game within the think budget; the core agrees with it in every game on the
compiled bench and in a sample on Amaranth's and cocotb's; broken engines are caught."""

import pytest
from bench import busy_runs

from firmware_ref import perfect
from firmware_ref.cartridge import line
from firmware_ref.places import EMPTY, GREEN, RED
from firmware_ref.turbo import model as turbo
from hdl.turbo import analysis, engine, order
from sim import Mismatch
from sim.cartridges.lockstep import lockstep

BUDGET = 256            # the console's think clocks of a reply at most


def think(places):
    """The engine model's move on `places` (the machine to move) and its clocks."""
    search = turbo.Search()
    search.tick(list(places), False)
    for clocks in range(1, 10_000):
        move = search.tick(list(places), True)
        if move is not None:
            return move, clocks, search
    raise AssertionError(f"no move on {places}")


def machine_positions():
    return sorted(places for places, side in perfect.positions() if side == RED)


def blunders():
    """The positions (the machine to move) where the model's move loses value."""
    return [places for places in machine_positions()
            if think(places)[0] not in perfect.best(places, RED)]


def test_every_move_from_every_position_keeps_the_perfect_value():
    assert len(machine_positions()) == 4520
    assert blunders() == []


def test_a_model_blind_to_threats_blunders(monkeypatch):
    # Without the forced block (and the fork), the search misses the person's wins.
    look = turbo.look

    def blind(places, side):
        seen = look(places, side)
        seen.threats, seen.candidates = set(), seen.empties
        return seen
    monkeypatch.setattr(turbo, "look", blind)
    assert len(blunders()) > 100


def test_every_reply_in_every_game_is_within_the_budget_and_the_machine_never_loses():
    games = list(turbo.games())
    assert len(games) == 533
    worst = 0
    for game in games:
        model = turbo.Model()           # played once: its runs, then how it ended
        worst = max(worst, *(clocks for clocks, _ in busy_runs(model, game)))
        assert model.state == "OVER" and not line(model.places, GREEN)
    assert worst == 215 <= BUDGET      # the reply to a person's opening in the centre


def test_the_opening_is_the_centre_in_five_clocks_and_the_deepest_stack_fits():
    assert think([EMPTY] * 9)[:2] == (4, 5)
    deepest = 0
    for places in machine_positions():
        search, stack = turbo.Search(), 0
        search.tick(places, False)
        while search.tick(places, True) is None:
            stack = max(stack, len(search.stack))
        deepest = max(deepest, stack)
    # the stack's frames, the parents of the deepest node, are all used
    assert deepest == engine.DEPTH


def test_only_four_positions_entered_by_hand_go_over_the_budget():
    # Not in a game from the empty board: each side has one stone on opposite edges, the
    # machine's second move where the person's first was not the centre nor a corner.
    over = {p: think(p)[1] for p in machine_positions() if think(p)[1] + 2 > BUDGET}
    assert over == {(0, 0, 0, 1, 0, 2, 0, 0, 0): 273, (0, 1, 0, 0, 0, 0, 0, 2, 0): 273,
                    (0, 0, 0, 2, 0, 1, 0, 0, 0): 276, (0, 2, 0, 0, 0, 0, 0, 1, 0): 279}


def test_a_win_or_a_fork_on_the_board_is_played_in_five_clocks():
    for seen in ("wins", "forks"):
        found = [p for p in machine_positions() if getattr(turbo.look(p, RED), seen)
                 and not turbo.look(p, RED).threats]
        assert len(found) > 300
        for places in found:
            move, clocks, _ = think(places)
            assert clocks == 5 and move in (turbo.look(places, RED).wins
                                            or turbo.look(places, RED).forks)


# -- the core -------------------------------------------------------------------------

@pytest.mark.slow       # every game: make test-slow, make museum; make test: a sample (below)
def test_the_core_agrees_with_its_golden_model_in_every_game():
    played, clocks = lockstep("turbo", backend="compiled")
    assert played == 533 and clocks > 100_000


# Verilator: make test-slow, as every museum machine's Verilator build.
@pytest.mark.parametrize("backend", ["amaranth", pytest.param("verilator",
                                                              marks=pytest.mark.slow)])
def test_the_core_agrees_in_a_sample_on_the_other_benches(backend):
    games = list(turbo.games())[::60]
    assert lockstep("turbo", games, backend=backend) == (9, sum(map(len, games)))


@pytest.mark.slow      # a build of its own; make test breaks the core's lines instead
def test_a_core_that_orders_corners_before_the_centre_is_caught(monkeypatch):
    monkeypatch.setattr(order, "ORDER", (0, 2, 6, 8, 4, 1, 3, 5, 7))
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: "):
        lockstep("turbo", backend="compiled")


# On the compiled bench a mutant is a build of its own (7 s): make test-slow. Amaranth's
# simulator catches it in the sample of games, in its first.
@pytest.mark.parametrize("backend", ["amaranth", pytest.param("compiled",
                                                              marks=pytest.mark.slow)])
def test_a_core_blind_to_the_rising_diagonal_is_caught(monkeypatch, backend):
    monkeypatch.setattr(analysis, "LINES", analysis.LINES[:-1])
    games = list(turbo.games())[::60] if backend == "amaranth" else None
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: "):
        lockstep("turbo", games, backend=backend)
