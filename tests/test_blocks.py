"""Peter Baum's thesis "Tic-Tac-Toe" (SIU Carbondale, 1975) checked with the exact solver
firmware_ref/blocks.py: its theorem that the second player never has a forced win, the
figures whose structure and outcome the text gives, and the places where it is wrong.
Points are numbered from 1 as in the thesis; a structure here is every block of 3 points
unless said otherwise. docs/museum-baum.md has the verdicts."""

import functools
import itertools
import math
import random

import pytest

from firmware_ref.blocks import DRAW, FIRST, SECOND, Game

TTT = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9),
       (3, 5, 7)]                                       # cells numbered as in figure 2
ERDOS_SELFRIDGE = [(1, 2, 3, 4), (1, 2, 3, 7), (1, 2, 6, 4), (1, 2, 6, 7), (1, 5, 3, 4),
                   (1, 5, 3, 7), (1, 5, 6, 4), (1, 5, 6, 7)]                # figure 15
PAIRS = {2: 5, 5: 2, 3: 6, 6: 3, 4: 7, 7: 4}            # figure 15's answers, A <-> A+3
XTAL_10 = [(2, 4, 3), (1, 3, 6), (4, 6, 5), (1, 5, 8), (2, 8, 7), (1, 7, 10), (2, 10, 9),
           (3, 9, 8)]                                   # chapter 3's 10-point X-tal
FANO = [(1, 2, 3), (1, 4, 5), (1, 6, 7), (2, 4, 6), (2, 5, 7), (3, 4, 7), (3, 5, 6)]
# 3-uniform hypergraphs on n unlabelled points, n = 3..6 (OEIS A000665)
CLASSES = {3: 2, 4: 5, 5: 34, 6: 2136}


def crystal_generator(b):
    """Theorem 2's X-tal with B blocks on points 1..B, as printed: block i is
    (i+1-2E, i+3-2E, i+2+2E) with E = 1 for even i, then three closing blocks."""
    e = lambda i: 1 - i % 2
    return ([(i + 1 - 2 * e(i), i + 3 - 2 * e(i), i + 2 + 2 * e(i))
             for i in range(1, b - 2)] + [(b - 3, b - 1, 2), (b, 2, 1), (b - 1, 1, 4)])


# -- every structure of 3-point blocks on up to 6 points, one per isomorphism class ------

@functools.cache
def classes(n, k=3, size=None):
    """[(blocks, how many labelled structures are isomorphic to it)], one entry per
    class of structures of k-point blocks on points 1..n under relabelling; only those
    with `size` blocks if given. Each class is found as the orbit of its first unseen
    member under all n! permutations."""
    subsets = list(itertools.combinations(range(1, n + 1), k))
    index = {s: i for i, s in enumerate(subsets)}
    images = [[index[tuple(sorted(perm[p - 1] for p in s))] for s in subsets]
              for perm in itertools.permutations(range(1, n + 1))]
    if size is not None:
        found, seen = [], set()
        for chosen in itertools.combinations(range(len(subsets)), size):
            if chosen not in seen:
                orbit = {tuple(sorted(image[i] for i in chosen)) for image in images}
                seen |= orbit
                found.append(([subsets[i] for i in chosen], len(orbit)))
        return found
    # all sizes at once: a structure is a mask over the subsets; a permutation maps it
    # byte by byte through tables, so that 2**20 masks on 6 points stay fast
    chunks = [(start, min(8, len(subsets) - start)) for start in range(0, len(subsets), 8)]
    tables = []
    for image in images:
        per_chunk = []
        for start, width in chunks:
            table = [0] * (1 << width)
            for byte in range(1, 1 << width):
                low = byte & -byte
                table[byte] = table[byte ^ low] | 1 << image[start + low.bit_length() - 1]
            per_chunk.append((start, (1 << width) - 1, table))
        tables.append(per_chunk)
    seen = bytearray(1 << len(subsets))
    found = []
    mask = seen.find(0)
    while mask >= 0:
        orbit = {sum(table[mask >> start & width] for start, width, table in per_chunk)
                 for per_chunk in tables}
        for other in orbit:
            seen[other] = 1
        found.append(([s for i, s in enumerate(subsets) if mask >> i & 1], len(orbit)))
        mask = seen.find(0, mask + 1)
    return found


@functools.cache
def census(n):
    """[(blocks, orbit size, game, its value)] for every class on n points."""
    return [(blocks, orbit, game, game.value())
            for blocks, orbit in classes(n) for game in [Game(n, blocks)]]


def degrees(points, blocks):
    return {p: sum(p in block for block in blocks) for p in range(1, points + 1)}


def test_the_classes_are_the_known_number_of_3_uniform_hypergraphs():
    for n, count in CLASSES.items():
        assert len(classes(n)) == count
        assert sum(orbit for _, orbit in classes(n)) == 2 ** math.comb(n, 3)   # each once


def test_theorem_1_no_structure_up_to_6_points_is_a_second_player_win():
    results = {n: {value: [0, 0] for value in (FIRST, DRAW, SECOND)} for n in CLASSES}
    for n in CLASSES:
        for _, orbit, _, value in census(n):
            results[n][value][0] += 1
            results[n][value][1] += orbit
    assert all(results[n][SECOND] == [0, 0] for n in CLASSES)
    # not a solver that answers "draw": [classes, labelled structures] per result
    assert results[5][FIRST] == [16, 476] and results[5][DRAW] == [18, 548]
    assert results[6][FIRST] == [1903, 964428] and results[6][DRAW] == [233, 84148]
    assert results[3][FIRST] == results[4][FIRST] == [0, 0]


def test_theorem_1_on_random_structures_with_blocks_of_1_to_4_points():
    rng = random.Random(1975)
    for _ in range(300):
        n = rng.randint(2, 8)
        blocks = [rng.sample(range(1, n + 1), rng.randint(1, min(4, n)))
                  for _ in range(rng.randint(1, 10))]
        assert Game(n, blocks).value() != SECOND, blocks


def test_erdos_selfridge_bound_for_3_point_blocks_fewest_winning_blocks_is_4():
    fewest = min(len(blocks) for n in CLASSES for blocks, _, _, value in census(n)
                 if value == FIRST)
    assert fewest == 2 ** (3 - 1)


# -- an independent brute force ------------------------------------------------------------

def brute(points, blocks, first=(), second=()):
    """(result, further moves) by plain minimax over every order of play, no memory:
    score = +/-(100 - moves played) for a first/second player win, 0 for a draw."""
    def score(mine, theirs, played, first_to_move):
        best = None
        for point in range(1, points + 1):
            if point in mine or point in theirs:
                continue
            now = mine | {point}
            if any(set(block) <= now for block in blocks):
                value = 100 - played - 1
            else:
                value = -score(theirs, now, played + 1, not first_to_move)
            best = value if best is None else max(best, value)
        return 0 if best is None else best

    first, second = set(first), set(second)
    first_moves = len(first) == len(second)
    mine, theirs = (first, second) if first_moves else (second, first)
    played = len(first) + len(second)
    relative = score(mine, theirs, played, first_moves)
    if relative == 0:
        return DRAW, None
    winner = FIRST if (relative > 0) == first_moves else SECOND
    return winner, 100 - abs(relative) - played


def test_solver_agrees_with_brute_force_on_random_structures_and_positions():
    rng = random.Random(9)
    for _ in range(120):
        n = rng.randint(3, 7)
        blocks = [rng.sample(range(1, n + 1), rng.randint(2, 3))
                  for _ in range(rng.randint(1, 6))]
        game = Game(n, blocks)
        assert (game.value(), game.moves_to_win()) == brute(n, blocks), blocks
        points = rng.sample(range(1, n + 1), rng.randint(0, 3))
        first, second = points[::2], points[1::2]
        if any(set(block) <= set(side) for block in blocks for side in (first, second)):
            continue
        assert (game.value(first, second), game.moves_to_win(first, second)) == brute(
            n, blocks, first, second), (blocks, first, second)


def test_solver_agrees_with_brute_force_on_theorem_2_with_8_blocks():
    blocks = crystal_generator(8)
    assert brute(8, blocks) == (FIRST, 7) == (Game(8, blocks).value(),
                                             Game(8, blocks).moves_to_win())


def test_bad_input_is_refused():
    for args in [(0, []), (3, [()]), (3, [(1, 4)])]:
        with pytest.raises(ValueError):
            Game(*args)
    game = Game(9, TTT)
    for first, second in [({1}, {1}), ({1, 2}, set()), (set(), {1}), ({1, 2, 3}, {4, 5})]:
        with pytest.raises(ValueError):
            game.value(first, second)


# -- tic-tac-toe: figures 12 to 14 ------------------------------------------------------

def test_tic_tac_toe_is_a_draw_from_every_first_move():
    game = Game(9, TTT)
    assert game.value() == DRAW and game.moves_to_win() is None
    assert set(game.move_values().values()) == {DRAW}


def test_figure_12_a_corner_reply_loses_an_edge_reply_draws():
    # X 1, O 5, X 9, O to move
    assert Game(9, TTT).move_values({1, 9}, {5}) == {
        3: FIRST, 7: FIRST, 2: DRAW, 4: DRAW, 6: DRAW, 8: DRAW}


def test_figure_13_the_corner_reply_meets_a_fork_at_7():
    game = Game(9, TTT)
    assert game.winning_moves({1, 9}, {5, 3}) == [7]
    assert game.moves_to_win({1, 9}, {5, 3}) == 3      # X 7, any O, X completes a line


def test_figure_14_o_at_8_draws_and_every_later_move_is_forced():
    game = Game(9, TTT)
    assert game.move_values({1, 9}, {5})[8] == DRAW                      # figure 14a
    x, o = {1, 9}, {5, 8}
    for move in [2, 3, 7, 4, 6]:                                        # 14b .. 14f
        mover, other = (FIRST, SECOND) if len(x) == len(o) else (SECOND, FIRST)
        results = game.move_values(x, o)
        assert results.pop(move) == DRAW                                # the only save
        assert set(results.values()) <= {other}
        (x if mover == FIRST else o).add(move)
    assert len(x | o) == 9 and game.value(x, o) == DRAW


def test_tic_tac_toe_minimal_covering_is_3_and_every_one_is_a_line():
    covers = {c for size in range(1, 4) for c in itertools.combinations(range(1, 10), size)
              if all(set(c) & set(line) for line in TTT)}
    assert min(map(len, covers)) == 3
    assert covers == {(1, 5, 9), (3, 5, 7)}


# -- Erdős–Selfridge, figure 15 ---------------------------------------------------------

def test_figure_15_data_point_1_on_every_block_the_others_on_half():
    assert degrees(7, ERDOS_SELFRIDGE) == {1: 8, 2: 4, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4}


def test_figure_15_player_1_wins_only_by_point_1_on_his_4th_move():
    game = Game(7, ERDOS_SELFRIDGE)
    assert game.value() == FIRST and game.winning_moves() == [1]
    assert game.moves_to_win() == 7                         # moves 1, 3, 5, 7: his 4th


def test_figure_15_the_pairing_strategy_wins_against_every_defence():
    def play(first, second):
        if len(first) == 4:
            return [any(set(block) <= first for block in ERDOS_SELFRIDGE)]
        return [won for answer in set(range(2, 8)) - first - second
                for won in play(first | {PAIRS[answer]}, second | {answer})]
    outcomes = play({1}, set())
    assert len(outcomes) == 6 * 4 * 2 and all(outcomes)


def test_figure_15_with_any_block_removed_is_no_longer_a_win():
    # Erdős–Selfridge: fewer than 2**(k-1) blocks of k points never give a forced win
    for i in range(len(ERDOS_SELFRIDGE)):
        assert Game(7, ERDOS_SELFRIDGE[:i] + ERDOS_SELFRIDGE[i + 1:]).value() == DRAW


def test_all_k_subsets_win_in_k_moves_only_from_2k_minus_1_points():
    # the thesis: on all k-subsets of n points the first player wins in k moves whatever
    # he plays; with fewer than 2k-1 points the second player takes enough to draw
    for k in (2, 3, 4):
        for n in range(k, 9):
            game = Game(n, itertools.combinations(range(1, n + 1), k))
            if n >= 2 * k - 1:
                assert set(game.move_values().values()) == {FIRST}
                assert game.moves_to_win() == 2 * k - 1
            else:
                assert game.value() == DRAW, (k, n)


# -- chapter 3: X-tals and crystal games -------------------------------------------------

@pytest.mark.parametrize("extra, winning", [
    ([], [1, 3, 8]),
    ([(6, 8, 10)], [1, 2, 3, 8, 10]),
    ([(6, 8, 10), (3, 5, 9)], [1, 2, 3, 5, 6, 8, 10]),
])
def test_the_10_point_x_tal_and_point_2(extra, winning):
    game = Game(10, XTAL_10 + extra)
    assert game.value() == FIRST and game.winning_moves() == winning
    assert (2 in winning) == bool(extra)    # 2 wins once a block is added, not before


@pytest.mark.parametrize("b", [8, 10, 12])
def test_theorem_2_generator_wins_from_8_blocks(b):
    blocks = crystal_generator(b)
    assert len(blocks) == b and all(len(set(block)) == 3 for block in blocks)
    evens = [p for p in range(2, b + 1, 2) if p != 4]       # "away from point 4"
    for added in [[]] + [[t] for t in itertools.combinations(evens, 3)] + [
            list(itertools.combinations(range(2, b + 1, 2), 3))]:
        game = Game(b, blocks + added)
        assert game.value() == FIRST and 4 in game.winning_moves(), added
    # the X-tal alone is already a first-player win, from any first point
    assert Game(b, blocks).winning_moves() == list(range(1, b + 1))


@pytest.mark.parametrize("b", [4, 6])
def test_theorem_2_as_printed_b_at_most_8_fails_below_8(b):
    # "B is even and B <= 8": B = 4 and 6 are draws even with every block on three even
    # points added, so the theorem needs B >= 8 (as chapter 6 says, n >= 8)
    evens = list(itertools.combinations(range(2, b + 1, 2), 3))
    assert Game(b, crystal_generator(b)).value() == DRAW
    assert Game(b, crystal_generator(b) + evens).value() == DRAW


def test_figure_22_fano_plane_player_1_wins_from_any_point():
    game = Game(7, FANO)
    assert set(game.move_values().values()) == {FIRST} and game.moves_to_win() == 7


def test_figure_22_x_tal_fano_less_one_line_wins_from_the_points_off_it():
    # the line (2,4,6) in the text; the plane is line-transitive, so check every line
    assert all(len(set(a) & set(b)) == 1 for a, b in itertools.combinations(FANO, 2))
    for line in FANO:                   # so each is a 6-block win with lambda = 1
        game = Game(7, [block for block in FANO if block != line])
        assert game.winning_moves() == sorted(set(range(1, 8)) - set(line))


# -- chapter 2: figures 8 and 9 and the conjecture, which the seed gives no data for ----

FIG9_WIN = [(1, 2, 7), (1, 4, 6), (2, 3, 5), (2, 3, 7), (2, 5, 6)]   # found by search
FIG9_ADDED = (3, 5, 7)
FIG8 = [(1, 2, 6), (1, 2, 8), (1, 3, 5), (1, 4, 7), (1, 6, 7), (1, 6, 8), (2, 3, 5),
        (2, 4, 6), (2, 6, 7)]                                          # found by search


def test_figure_9_adding_a_block_can_spoil_a_win_fewest_is_7_points_5_blocks():
    assert Game(7, FIG9_WIN).value() == FIRST
    assert Game(7, FIG9_WIN + [FIG9_ADDED]).value() == DRAW
    # none on 6 points or fewer: adding a block never spoils a win there
    for n in CLASSES:
        for blocks, _, game, value in census(n):
            if value == FIRST:
                assert all(Game(n, blocks + [t]).value() == FIRST
                           for t in itertools.combinations(range(1, n + 1), 3)
                           if t not in blocks)
    # nor with 4 blocks on 7 (fewer than 4 never win: Erdős–Selfridge)
    four = classes(7, size=4)
    assert sum(orbit for _, orbit in four) == math.comb(35, 4)
    winners = [blocks for blocks, _ in four if Game(7, blocks).value() == FIRST]
    assert len(four) == 38 and len(winners) == 2
    for blocks in winners:
        assert all(Game(7, blocks + [t]).value() == FIRST
                   for t in itertools.combinations(range(1, 8), 3) if t not in blocks)


def test_figure_8_a_point_on_6_blocks_loses_the_win_a_point_on_2_keeps():
    game = Game(8, FIG8)
    degree, results = degrees(8, FIG8), game.move_values()
    assert degree[1] == 6 and results[1] == DRAW
    assert degree[3] == 2 and results[3] == FIRST
    # no such structure on 6 points or fewer
    for n in CLASSES:
        for blocks, _, game, value in census(n):
            degree, results = degrees(n, blocks), game.move_values()
            assert not (any(degree[p] >= 6 and results[p] != FIRST for p in degree)
                        and any(degree[p] == 2 and results[p] == FIRST for p in degree))


def test_conjecture_a_first_move_on_a_single_block_never_wins_up_to_6_points():
    for n in CLASSES:
        for blocks, _, game, value in census(n):
            if value == FIRST:
                degree, results = degrees(n, blocks), game.move_values()
                assert all(results[p] != FIRST for p in degree if degree[p] == 1), blocks


# -- chapter 5 and the introduction: data checks that need no search ---------------------

FIG30 = [(1, 5, 16, 17), (2, 3, 17, 18), (1, 4, 6, 7), (2, 7, 8, 9), (3, 4, 9, 10),
         (1, 20, 19, 15), (3, 5, 15, 14), (2, 5, 21, 20), (2, 4, 11, 12), (1, 3, 12, 13),
         (1, 23, 34, 35), (2, 21, 35, 36), (1, 22, 24, 25), (2, 25, 26, 27),
         (21, 22, 27, 28), (1, 38, 37, 33), (21, 23, 33, 32), (2, 23, 39, 38),
         (2, 22, 29, 30), (1, 21, 30, 31)]


def test_figure_30_has_77_points_and_40_blocks_but_lambda_is_2_as_printed():
    # the other half: 38 added to every point but 1
    blocks = FIG30 + [tuple(p if p == 1 else p + 38 for p in block) for block in FIG30]
    assert len(blocks) == 40 and set().union(*blocks) == set(range(1, 78))
    shared = [(a, b) for a, b in itertools.combinations(blocks, 2)
              if len(set(a) & set(b)) > 1]
    # blocks 8 and 12 share points 2 and 21 (and their copies 40 and 59)
    assert shared == [((2, 5, 21, 20), (2, 21, 35, 36)),
                      ((40, 43, 59, 58), (40, 59, 73, 74))]
