"""Perfect play, the museum's yardstick, against the paper's own search (alg.move)."""

import pytest

from firmware_ref import perfect
from firmware_ref.eth import alg
from firmware_ref.cartridge import board_bits
from firmware_ref.places import EMPTY, GREEN, RED


def test_the_empty_board_is_a_draw_and_a_fork_wins():
    assert perfect.value([EMPTY] * 9, RED) == perfect.DRAW
    # Red must block green's diagonal at 6, which makes a fork of two red threats.
    fork = [RED, EMPTY, GREEN, EMPTY, GREEN, EMPTY, EMPTY, EMPTY, RED]
    assert perfect.value(fork, RED) == perfect.WIN
    assert perfect.best(fork, RED) == {6}
    assert perfect.values(fork, RED)[1] == perfect.LOSS


def test_every_position_is_counted_once_per_side():
    found = perfect.positions()
    assert len({p for p, side in found if side == RED and p.count(EMPTY) == 9}) == 1
    # 4520 positions of a game in progress with X to move or O to move, per beginner
    # (5478 legal positions, less the 958 that are over): both beginners double it.
    assert len(found) == 2 * 4520


def test_the_papers_search_plays_perfectly_wherever_the_chip_moves():
    # alg.move is the chip's algorithm: its choice keeps the value on every position
    # where the computer is to move after a human stone or at the start.
    checked = 0
    for places, side in perfect.positions():
        if side != RED:
            continue
        if places.count(EMPTY) == 9:
            continue            # the chip opens at random, it does not search
        if perfect.value(places, RED) == perfect.LOSS:
            with pytest.raises(alg.NoMoveFound):
                alg.move(places)
            continue
        move = alg.move(places)
        assert move.place in perfect.best(places, RED), places
        assert move.value == perfect.value(places, RED)
        checked += 1
    assert checked > 3800      # 3887 with red to move


def test_the_blunders_of_first_free_are_the_moves_it_throws_away():
    from firmware_ref.firstfree.model import Scan
    from firmware_ref.turns import blunders_of, replies
    moves = dict(replies(Scan))
    # Its opening (place 0, in one clock) is not a blunder: every first move draws.
    assert moves[(EMPTY,) * 9, 0] == 1
    found = blunders_of(Scan)
    assert (board_bits([EMPTY] * 9), 0) not in found
    # As the museum's scoring at the pins finds them, each game of first free played
    # through its golden model (sim/cartridges/scores.py): 27 when it begins, 65 when not.
    from sim.cartridges import scores as museum
    sides = museum.score("firstfree")
    assert {(board_bits(p), m.place) for side in sides.values()
            for p, m in side.blunders.items()} == found
    assert len(found) == 92
    # A corner must be answered in the centre: first free's top left loses; the centre
    # is answered in a corner, which draws.
    corner = (EMPTY,) * 8 + (GREEN,)
    centre = (EMPTY,) * 4 + (GREEN,) + (EMPTY,) * 4
    assert (corner, 0) in moves and (centre, 0) in moves
    assert (board_bits(corner), 0) in found and (board_bits(centre), 0) not in found


def test_a_machine_that_remembers_the_game_is_walked_game_by_game():
    # The cigarette box turns with the person's first corner: the same board reached
    # from two first corners gets two answers, and each is judged.
    from firmware_ref.bawer_hawkins.model import Box
    from firmware_ref.turns import replies
    moves = replies(Box, can_begin=False)
    places = {p for p, _ in moves}
    assert len(moves) > len(places)
