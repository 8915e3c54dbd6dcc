"""Every game a user can play against the cycle model (sim.chip.games)."""

import pytest

from firmware_ref.eth.alg import full, move, wins
from firmware_ref.places import COMPUTER, EMPTY, HUMAN
from sim.chip import games


@pytest.fixture(scope="module")
def played():
    return list(games.all_games())


def test_the_chip_never_loses(played):
    assert {g.winner for g in played} == {"chip", "draw"}


def test_every_chip_move_is_alg_move_with_one_setboardi_cycle_per_node(played):
    positions = {m.board: m for g in played for m in g.moves}
    assert len(positions) > 1000
    for board, answer in positions.items():
        reference = move(board)
        assert (answer.place, answer.nodes) == (reference.place, reference.nodes), board


def test_both_starts_and_every_opening_are_played(played):
    openings = {g.opening for g in played}
    assert openings == {None, *range(8)}
    for g in played:
        # The chip's stones: its opening, if it had one, and one per answer.
        assert g.final.count(COMPUTER) == len(g.moves) + (g.opening is not None)
        assert g.final.count(HUMAN) == len(g.keys)
        if g.opening is not None:
            assert g.final[g.opening] == COMPUTER


def _games_by_alg():
    """The same walk with alg.move playing the chip: the set of games must agree."""
    def walk(board, opening, keys):
        for key in (k for k in range(9) if board[k] == EMPTY):
            mine = board.copy()
            mine[key] = HUMAN
            if wins(mine, HUMAN) or full(mine):
                yield opening, keys + (key,), tuple(mine)
                continue
            mine[move(mine).place] = COMPUTER
            if wins(mine, COMPUTER) or full(mine):
                yield opening, keys + (key,), tuple(mine)
            else:
                yield from walk(mine, opening, keys + (key,))
    yield from walk([EMPTY] * 9, None, ())
    for opening in range(8):
        board = [EMPTY] * 9
        board[opening] = COMPUTER
        yield from walk(board, opening, ())


def test_the_games_are_those_alg_move_would_play(played):
    assert sorted((g.opening is None, g.opening or 0, g.keys, g.final) for g in played) \
        == sorted((o is None, o or 0, k, f) for o, k, f in _games_by_alg())


def test_think_times_are_measured_per_move(played):
    report = games.survey(played)
    assert report.games == len(played)
    assert len(report.cycles_per_move) == sum(len(g.moves) for g in played)
    # Each trial stone costs a setboardi and a rating cycle at least.
    assert all(m.cycles >= 2 * m.nodes for m in report.positions.values())
    text = games.format_report(report, 6.0)
    worst = max(m.cycles for m in report.positions.values())
    assert f"worst case:              {worst} cycles = {worst / 6:.1f} us" in text
