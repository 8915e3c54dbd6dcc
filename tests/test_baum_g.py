"""Baum's G and G with forced moves played through (the museum): both cores
agree with their golden models in every game, on every bench; a broken core is caught;
F is fig. 10's on both sides; figs. 12-14 go as the thesis tells; and a walk of every
game finds where G gives a game away (is fig. 12 "the only problem"?) and whether
playing the forced moves through cures it (docs/museum-baum-g.md)."""

import itertools

import pytest
from bench import simulate

from firmware_ref import g, perfect
from firmware_ref.baum_g import model as plain
from firmware_ref.baum_g.walk import walk
from firmware_ref.baum_g_forced import model as forced
from firmware_ref.cartridge import line
from firmware_ref.places import EMPTY, GREEN, RED
from hdl import g as g_core, turns as turns_core
from sim import Mismatch
from sim.cartridges.lockstep import lockstep

FIG_10 = {(0, 0, 0): 0, (1, 0, 0): 1, (-1, 0, 0): -1, (-1, -1, 0): -8, (1, 1, 0): 8,
          (-1, 1, 0): 0, (1, -1, 1): 0, (-1, 1, -1): 0, (1, 1, 1): 28, (-1, -1, -1): -28}

# The eight symmetries of the board, each a permutation of the places.
SYMMETRIES = [tuple(f(k // 3, k % 3) for k in range(9)) for f in (
    lambda r, c: 3 * r + c, lambda r, c: 3 * c + 2 - r, lambda r, c: 3 * (2 - r) + 2 - c,
    lambda r, c: 3 * (2 - c) + r, lambda r, c: 3 * r + 2 - c, lambda r, c: 3 * (2 - r) + c,
    lambda r, c: 3 * c + r, lambda r, c: 3 * (2 - c) + 2 - r)]


def shape(places):
    """`places` up to symmetry: the least of its eight images."""
    return min(tuple(places[s[k]] for k in range(9)) for s in SYMMETRIES)


def board(text):
    """A board from a picture, rows by '/': M the machine, P the person."""
    return tuple({".": EMPTY, "M": RED, "P": GREEN}[c] for c in text.replace("/", ""))


FIG_12 = board("P../.M./..P")       # X1, O5, X9, the machine (O) to move
FIG_14F = board("PPM/MMP/PMP")      # the draw that figs. 14a-f play out
EDGES = board(".P./PM./...")        # the person on two edges beside each other


def play(model, keys, first=True):
    """Play `keys` (the person's places, in turn) on `model` from the empty board,
    the person first or not: (the game's inputs, the machine's moves, the last board)."""
    model.set(start=1, switches=int(first))
    game, moves, keys = [model.inputs], [], iter(keys)
    model.tick()
    model.set(start=0)
    while model.state != "OVER":
        if model.state == "WAIT":
            model.set(key=1 << next(keys))
        before = list(model.places)
        game.append(model.inputs)
        model.tick()
        model.set(key=0)
        moves += [k for k in range(9) if model.places[k] == RED and before[k] == EMPTY]
    return game, moves, tuple(model.places)


# -- the golden side: F, G and the readings -------------------------------------------

def test_f_is_fig_10s_on_both_sides():
    for (x, y, z), value in FIG_10.items():
        assert g.F(x, y, z) == value
        assert g_core.f((x, y, z).count(1), (x, y, z).count(-1)) == value


def test_f_is_odd_so_the_machine_need_not_know_who_began():
    """Baum: X maximises G, O minimises it. The machine maximises G with its own
    stones +1: the same move, X or O, in every position a game can reach."""
    for x, y, z in itertools.product((-1, 0, 1), repeat=3):
        assert g.F(-x, -y, -z) == -g.F(x, y, z)
    reached = perfect.positions()
    assert len(reached) == 9040
    for places, side in reached:
        for x in (RED, GREEN):
            assert g.baum(list(places), side, x) == plain.choose(list(places), side)


def test_the_core_adds_g_as_the_golden_model_does():
    core = g_core.G()
    sample = sorted(perfect.positions())[::15]

    async def bench(ctx):
        for places, _ in sample:
            ctx.set(core.red, sum(1 << k for k in range(9) if places[k] == RED))
            ctx.set(core.green, sum(1 << k for k in range(9) if places[k] == GREEN))
            assert ctx.get(core.value) == g.G(g.signs(places, RED)), places

    simulate(core, bench)


# -- figs. 12 to 14 ------------------------------------------------------------------

def test_fig_12_g_takes_a_corner_and_fig_13s_fork_beats_it():
    values = {k: g.G(g.signs(FIG_12[:k] + (RED,) + FIG_12[k + 1:], GREEN))
              for k in range(9) if FIG_12[k] == EMPTY}
    assert min(values.values()) == values[2] == values[6] == -8   # O's smallest G
    assert perfect.values(FIG_12, RED)[2] == perfect.LOSS
    # X1, O5, X9, O3; X blocks at 7 and forks at 4 and 8 (fig. 13); X wins.
    game, moves, _ = play(plain.Model(), [0, 8, 6, 3, 7])
    assert moves[:2] == [4, 2]
    model = plain.Model()
    for pins in game:
        model.set(pins)
        model.tick()
    assert line(model.places, GREEN) and model.state == "OVER"
    assert lockstep("baum_g", [game]).games == 1


def test_fig_14_forced_moves_play_the_draw_from_fig_12():
    # Every edge plays through to fig. 14f's full board (G 0); each corner loses.
    assert forced.playthrough(list(FIG_12), 7) == (0, 6)      # fig. 14a's O8: 14b-f
    assert {k: forced.playthrough(list(FIG_12), k)[0] for k in (1, 2, 3, 5, 6)} == {
        1: 0, 2: forced.LOSS, 3: 0, 5: 0, 6: forced.LOSS}
    # The lowest of the equal edges is cell 2: fig. 14 turned half round.
    game, moves, last = play(forced.Model(), [0, 8, 7, 2, 3])
    assert moves == [4, 1, 6, 5]                               # O5, O2, O7, O6
    assert last == FIG_14F[::-1]            # a half turn reverses the reading order
    assert lockstep("baum_g_forced", [game]).games == 1


# -- every game, every bench, and broken cores ---------------------------------------

@pytest.mark.slow       # every game: make test-slow, make museum; make test: every eighth
def test_baum_g_agrees_with_its_golden_model_in_every_game():
    assert lockstep("baum_g") == (517, 22188)


@pytest.mark.parametrize("name, package, sampled", [("baum_g", plain, 65),
                                                     ("baum_g_forced", forced, 120)])
def test_each_agrees_with_its_golden_model_on_every_eighth_game(name, package, sampled):
    sample = list(itertools.islice(package.games(), 0, None, 8))
    played = lockstep(name, sample)
    assert played.games == len(sample) == sampled


@pytest.mark.slow       # a compiled build and 958 games: make test-slow, and make verify
def test_forced_agrees_with_its_golden_model_in_every_game():
    assert lockstep("baum_g_forced", backend="compiled") == (958, 78602)


# The compiled and Verilator builds of each machine: make test-slow.
@pytest.mark.slow
@pytest.mark.parametrize("backend", ["compiled", "verilator"])
@pytest.mark.parametrize("name, package", [("baum_g", plain), ("baum_g_forced", forced)])
def test_a_few_games_on_the_other_benches(name, package, backend):
    games = list(itertools.islice(package.games(), 0, None, 150))
    played = lockstep(name, games, backend=backend)
    assert played == (len(games), sum(map(len, games))) and played.games >= 4


def test_a_core_whose_f_lacks_the_product_term_is_caught(monkeypatch):
    monkeypatch.setattr(g_core, "f", lambda red, green: (red - green) ** 3)
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: (board|tx)"):
        lockstep("baum_g")


def test_a_forced_core_blind_to_the_rising_diagonal_is_caught(monkeypatch):
    monkeypatch.setattr(turns_core, "LINES", turns_core.LINES[:-1])
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: \w+ is "):
        lockstep("baum_g_forced")


# -- the verdicts ---------------------------------------------------------------------

def test_fig_12_is_g_s_only_wrong_preference_but_ties_give_more_away():
    """As first player G never gives value away. As second it does in 12 positions of 6
    shapes; in 5 of them a move as good as G's best keeps the draw and the tie to the
    lowest place picks a losing one; only in fig. 12 does every best-G move lose."""
    found = walk(plain.choose)
    assert (found.games, found.won, found.lost) == (517, 420, 24)
    assert len(found.slips) == 12 and not any(slip.first for slip in found.slips)
    assert all((slip.had, slip.kept) == (perfect.DRAW, perfect.LOSS)
               for slip in found.slips)
    shapes = {shape(slip.places): slip for slip in found.slips}
    assert len(shapes) == 6 and shape(FIG_12) in shapes

    def all_best_lose(places):
        values = {k: g.G(g.signs(places[:k] + (RED,) + places[k + 1:], RED))
                  for k in range(9) if places[k] == EMPTY}
        best = {k for k, v in values.items() if v == max(values.values())}
        return all(perfect.values(places, RED)[k] == perfect.LOSS for k in best)

    assert [s for s, slip in shapes.items() if all_best_lose(slip.places)] == [
        shape(FIG_12)]


def test_playing_forced_moves_through_mends_fig_12_but_not_g():
    """The playthrough draws fig. 12 but gives away another position, the person on
    two edges beside each other around the machine's centre: as second player it still
    loses, 10 games of 958; as first it never gives value away."""
    found = walk(forced.choose)
    assert (found.games, found.won, found.lost) == (958, 727, 10)
    assert {shape(slip.places) for slip in found.slips} == {shape(EDGES)}
    assert len(found.slips) == 4 and not any(slip.first for slip in found.slips)
    # There the quiet move 6 keeps G at 1; corner 1 forces the person to 9, G -1.
    assert forced.choose(list(EDGES)) == 5
    assert perfect.values(EDGES, RED)[5] == perfect.LOSS
    assert [forced.playthrough(list(EDGES), k)[0] for k in (0, 5)] == [-1, 1]
