"""firmware_ref.eth.alg: the port of alg.c, checked against plain minimax and the paper."""

from functools import cache

import pytest

from boards.ttt import main as ttt
from firmware_ref.cartridge import board_places
from firmware_ref.eth import alg
from firmware_ref.eth.alg import NoMoveFound, StackOverflow, move
from firmware_ref.places import COMPUTER, EMPTY, HUMAN
from sim.chip import e2


def value_of(board, k, p):
    """The exact value for `p` of playing place `k` on `board`, without pruning."""
    child = board[:k] + (p,) + board[k + 1:]
    if alg.wins(child, p):
        return 1
    if alg.full(child):
        return 0
    return -minimax(child, 3 - p)


@cache
def minimax(board, p):
    """The exact value of `board` for player `p` to move."""
    return max(value_of(board, k, p) for k in range(9) if board[k] == EMPTY)


def positions():
    """Every board the computer can face in a game, whoever began."""
    seen, todo = set(), [((EMPTY,) * 9, COMPUTER), ((EMPTY,) * 9, HUMAN)]
    while todo:
        board, p = todo.pop()
        if (board, p) in seen or alg.full(board) or alg.wins(board, 1) or alg.wins(board, 2):
            continue
        seen.add((board, p))
        todo += [(board[:k] + (p,) + board[k + 1:], 3 - p)
                 for k in range(9) if board[k] == EMPTY]
    return sorted(board for board, p in seen if p == COMPUTER)


def test_move_is_the_first_optimal_move_in_every_position():
    checked = lost = 0
    for board in positions():
        best = minimax(board, COMPUTER)
        if best == -1:                      # every move loses: alg.c finds none
            with pytest.raises(NoMoveFound):
                move(board)
            lost += 1
            continue
        result = move(board)
        optimal = [k for k in range(9)
                   if board[k] == EMPTY and value_of(board, k, COMPUTER) == best]
        assert result.value == best, board
        # alg.c keeps the first move that beats bestr, and cuts only at a win.
        assert result.place == optimal[0], board
        checked += 1
    assert checked > 2000 and lost > 0


def test_nodes_match_the_setboardi_cycles_of_the_papers_trace():
    # The paper's chip answers the E.2 position with one setboardi cycle per trial
    # stone: count them in the paper's own rows, not the model's.
    rows = [r for r in e2.paper_rows() if r["cp"] == "1"]
    start = next(k for k, r in enumerate(rows) if r["name"] == "userjustmoved")
    end = next(k for k, r in enumerate(rows) if k > start and r["name"] == "waiting")
    setboardi = sum(r["name"] == "setboardi" for r in rows[start:end])
    led = int(rows[start]["led"], 2)
    board = board_places(led)
    answer = int(rows[end]["led"], 2) ^ led
    assert move(board).nodes == setboardi
    assert answer == 1 << 2 * move(board).place      # the chip's bit at its move


def test_pruning_searches_fewer_stones_than_plain_minimax():
    def stones(board, p):
        total = 0
        for k in range(9):
            if board[k] == EMPTY:
                child = board[:k] + [p] + board[k + 1:]
                total += 1
                if not (alg.wins(child, p) or alg.full(child)):
                    total += stones(child, 3 - p)
        return total
    board = [EMPTY] * 4 + [HUMAN] + [EMPTY] * 4
    assert move(board).nodes < stones(board, COMPUTER)


@pytest.mark.parametrize("board, message", [
    ([0] * 8, "9 places"),
    ([0] * 10, "9 places"),
    ([0, 0, 0, 0, 3, 0, 0, 0, 0], "place 4 holds 3"),
    ([0, 0, 0, 0, "x", 0, 0, 0, 0], "place 4 holds 'x'"),
    ([1, 2, 1, 1, 2, 2, 2, 1, 1], "full"),
    ([1, 1, 1, 2, 2, 0, 0, 0, 0], "computer already has three"),
    ([2, 0, 0, 2, 1, 0, 2, 1, 0], "human already has three"),
])
def test_malformed_boards_raise_value_error(board, message):
    with pytest.raises(ValueError, match=message):
        move(board)


def test_the_board_is_not_changed():
    board = [0, 0, 0, 0, 2, 0, 0, 0, 0]
    move(board)
    assert board == [0, 0, 0, 0, 2, 0, 0, 0, 0]


def test_stack_overflow_is_a_clear_error():
    # The paper's 8 entries suffice on 3x3 (the empty board needs all 8); a smaller
    # stack shows the check works.
    assert move([EMPTY] * 9).place == 0
    with pytest.raises(StackOverflow, match="more than 3"):
        move([EMPTY] * 9, maxsp=3)


@pytest.mark.parametrize("text, board", [
    ("000020000", [0, 0, 0, 0, 2, 0, 0, 0, 0]),
    ("120/000/002", [1, 2, 0, 0, 0, 0, 0, 0, 2]),
    ("1 2 0 | 0 0 0 | 0 0 2", [1, 2, 0, 0, 0, 0, 0, 0, 2]),
    (".../.X./...", [0, 0, 0, 0, 2, 0, 0, 0, 0]),       # the notation the CLI prints
    ("ox./.../..X", [1, 2, 0, 0, 0, 0, 0, 0, 2]),
    ("1X./...|00x", [1, 2, 0, 0, 0, 0, 0, 0, 2]),
])
def test_parse_board(text, board):
    assert alg.parse_board(text) == board


@pytest.mark.parametrize("text, message", [
    ("00002000", "9 places"), ("0000Y0000", "not 'Y'"), ("000030000", "'3'"),
    ("0000*0000", r"not '\*'")])                    # alg.c's board has no place of both
def test_parse_board_errors(text, message):
    with pytest.raises(ValueError, match=message):
        alg.parse_board(text)


def test_ttt_move_reads_the_board_it_prints(capsys):
    assert ttt(["move", "000020000"]) == 0
    printed = capsys.readouterr().out.splitlines()[1:4]
    assert ttt(["move", "/".join(line.split(maxsplit=1)[1] for line in printed)]) == 0
    assert capsys.readouterr().out.splitlines()[1:4] == printed


def test_ttt_move_prints_move_value_and_nodes(capsys):
    assert ttt(["move", "000020000"]) == 0
    out = capsys.readouterr().out
    result = move([0, 0, 0, 0, 2, 0, 0, 0, 0])
    assert f"move: {result.place} (A1)" in out
    assert "value: 0 (draw)" in out
    assert f"nodes: {result.nodes}" in out


@pytest.mark.parametrize("argument, message", [
    ("00002000", "9 places"),
    ("220200000", "no move found"),   # two open threats
])
def test_ttt_move_errors_are_one_line(capsys, argument, message):
    assert ttt(["move", argument]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
