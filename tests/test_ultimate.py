"""Ultimate Tic-Tac-Toe's golden rules and engine (firmware_ref/ultimate): the bitboard
rules against a plain 81-cell implementation over 2,000 random games, the seed's rules
one by one, the command line, the engine against minimax and exact endgames. The
cartridge's tests are in test_ultimate_cartridge.py, its blocks' in
test_ultimate_blocks.py."""

import random
import subprocess
import sys

import pytest

from firmware_ref.cartridge import LINES
from firmware_ref.ultimate import engine
from firmware_ref.ultimate.rules import parse, show


class Plain:
    """The rules again, on a list of 81 cells and nothing cleverer."""

    def __init__(self):
        self.cells, self.last = ["."] * 81, None

    def owner(self, b):
        small = self.cells[9 * b:9 * b + 9]
        for side in "XO":
            if any(all(small[k] == side for k in line) for line in LINES):
                return side
        return "-" if "." not in small else None

    def winner(self, owners=None):
        owners = owners or [self.owner(b) for b in range(9)]
        for side in "XO":
            if any(all(owners[b] == side for b in line) for line in LINES):
                return side
        return "open" if None in owners else "draw"

    def legal(self, owners=None):
        owners = owners or [self.owner(b) for b in range(9)]
        if self.winner(owners) != "open":
            return []
        sent = None if self.last is None else self.last % 9
        if sent is not None and owners[sent] is None:
            boards = [sent]
        else:
            boards = [b for b in range(9) if owners[b] is None]
        return sorted(9 * b + k for b in boards for k in range(9)
                      if self.cells[9 * b + k] == ".")

    def play(self, cell):
        self.cells[cell] = "X" if self.cells.count("X") == self.cells.count("O") else "O"
        self.last = cell


@pytest.mark.parametrize("count", [300, pytest.param(2000, marks=pytest.mark.slow)])
def test_the_bitboards_agree_with_the_plain_rules_over_random_games(count):
    rng = random.Random(18)
    ends, moves = {}, 0
    for _ in range(count):
        plain, position = Plain(), parse("." * 81)
        while True:
            owners = [plain.owner(b) for b in range(9)]
            legal = plain.legal(owners)
            assert position.legal() == legal
            assert position.winner() == plain.winner(owners)
            assert show(position) == "".join(plain.cells)
            if not legal:
                break
            cell = rng.choice(legal)
            plain.play(cell)
            position = position.play(cell)
            moves += 1
        ends[plain.winner()] = ends.get(plain.winner(), 0) + 1
    assert set(ends) == {"X", "O", "draw"} and moves > 40 * count


def board(cells):
    """81 characters with `cells` ({index: mark}) set."""
    text = ["."] * 81
    for i, mark in cells.items():
        text[i] = mark
    return "".join(text)


def test_x_begins_anywhere_and_a_move_sends_the_other_player():
    assert parse("." * 81).legal() == list(range(81))
    # X on cell 5 of small board 0 (index 5): O must play in small board 5.
    assert parse(board({5: "X"}), "5").legal() == list(range(45, 54))


def test_sent_to_a_won_board_the_player_may_play_in_any_undecided_board():
    # X owns small board 0 (its top row); O's last move, cell 0 of board 3, sends X to
    # board 0, which is decided: X may play any empty cell outside it.
    cells = {0: "X", 1: "X", 2: "X", 27: "O", 28: "O", 30: "O"}
    position = parse(board(cells), "27")
    assert position.owner(0) == "X" and position.to_move() == "X"
    assert position.legal() == [i for i in range(9, 81) if i not in (27, 28, 30)]


def test_a_full_small_board_without_a_line_is_nobodys_and_closed():
    # Small board 4 full, no line: X O X / X O O / O X X.
    draw = "XOXXOOOXX"
    cells = {36 + k: c for k, c in enumerate(draw)}
    cells[0] = "O"                  # five Xs and five Os; O moved last, on cell 40
    position = parse(board(cells), "40")
    assert position.owner(4) == "-"
    # The last move (cell 4 of board 4) sends X to board 4, which is closed.
    assert all(i // 9 != 4 for i in position.legal()) and position.legal()


def test_three_big_places_win_and_a_board_with_no_move_is_a_draw():
    line = {}
    for b in (0, 4, 8):             # X owns boards 0, 4 and 8: the diagonal
        line.update({9 * b + k: "X" for k in (0, 1, 2)})
    line.update({i: "O" for i in (9, 10, 12, 13, 18, 19, 21, 22)})
    position = parse(board(line), "-")
    assert position.winner() == "X" and position.legal() == []
    # Every small board decided, no big line: a draw, whoever is to move.
    owners = "XOXXOOOXX"            # no line of big places
    drawn = {}
    for b, side in enumerate(owners):
        other = "O" if side == "X" else "X"
        drawn.update({9 * b + k: side for k in (0, 1, 2)})
        drawn.update({9 * b + k: other for k in (3, 4, 6)})
    position = parse(board(drawn), "-")
    assert position.winner() == "draw" and position.legal() == []


def ultimate(*arguments):
    return subprocess.run([sys.executable, "-m", "firmware_ref.ultimate", *arguments],
                          capture_output=True, text=True)


def test_the_command_line():
    assert ultimate("legal", board({5: "X"}), "5").stdout.split() == \
        [str(i) for i in range(45, 54)]
    assert ultimate("winner", "." * 81).stdout == "open\n"
    for arguments, reason in [(("legal", "." * 80, "-"), "81 of X, O and ."),
                              (("legal", board({5: "X"}), "6"), "must hold"),
                              (("legal", board({5: "O"}), "5"), "no game gets there"),
                              (("legal", "." * 81, "81"), "is not a move")]:
        done = ultimate(*arguments)
        assert done.returncode == 2 and reason in done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("text", ["X" * 81, "XXXOOO" + "." * 75])
def test_positions_no_game_reaches_are_refused(text):
    with pytest.raises(ValueError):
        parse(text, "-")


# -- the engine -------------------------------------------------------------------------

def endgames(count, most, seed):
    """Positions of random games with at most `most` empty cells in undecided boards,
    the game still open."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = parse("." * 81)
        while position.legal():
            free = sum(9 - bin(position.small(b)[0] | position.small(b)[1]).count("1")
                       for b in range(9) if position.owner(b) is None)
            if free <= most:
                found.append(position)
                break
            position = position.play(rng.choice(position.legal()))
    return found


# 36 endgames with at most 9 empty cells; 4 with at most 12, seconds each, in make
# test-slow.
@pytest.mark.parametrize("count, empty, seed", [
    (36, 9, 12), pytest.param(4, 12, 13, marks=pytest.mark.slow)])
def test_the_engine_searching_to_the_end_plays_the_exact_value_of_endgames(count, empty,
                                                                           seed):
    checked = 0
    for position in endgames(count, empty, seed=seed):
        exact = engine.solve(position)
        cell, value, nodes = engine.move(position, depth=12)
        assert value == exact and nodes >= 2
        assert -engine.solve(position.play(cell)) == exact
        checked += 1
    assert checked == count


def minimax(position, depth, nodes):
    """The same value without pruning, written plainly."""
    nodes[0] += 1
    result = position.winner()
    if result in ("X", "O"):
        return -engine.WIN
    if result == "draw":
        return 0
    if depth == 0:
        value = engine.evaluate(position)
        return value if position.to_move() == "X" else -value
    return max(-minimax(position.play(cell), depth - 1, nodes) for cell in position.legal())


def test_alpha_beta_finds_the_minimax_move_and_value_in_fewer_nodes():
    rng = random.Random(3)
    saved = []
    for n in range(12):
        position = parse("." * 81)
        for _ in range(rng.randrange(5, 40)):
            if not position.legal():
                break
            position = position.play(rng.choice(position.legal()))
        if not position.legal():
            continue
        depth = 1 + n % 3
        values, nodes = [], [1]
        for cell in position.legal():
            values.append(-minimax(position.play(cell), depth - 1, nodes))
        best = max(values)
        cell, value, searched = engine.move(position, depth)
        assert (cell, value) == (position.legal()[values.index(best)], best)
        assert searched <= nodes[0]
        saved.append(nodes[0] - searched)
    assert len(saved) >= 10 and max(saved) > 0       # pruning cut something


def test_the_engine_takes_a_small_board_when_it_can():
    cells = {0: "X", 1: "X", 36: "O", 37: "O", 9: "X", 45: "O"}
    text = ["."] * 81
    for i, mark in cells.items():
        text[i] = mark
    position = parse("".join(text), "45")           # O sent X to small board 0
    assert engine.move(position, depth=1)[:2] == (2, engine.evaluate(position.play(2)))


def test_the_strength_matches_play_whole_legal_games():
    from firmware_ref.ultimate import match
    rng = random.Random(5)
    player = match.mcts_player(rng, 30)
    position = parse("." * 81)
    for _ in range(6):
        assert player(position) in position.legal()
        position = position.play(player(position))
    counts = match.match(match.random_player(rng), 2, depth=1)
    assert sum(counts.values()) == 2 and set(counts) <= {"win", "loss", "draw"}
