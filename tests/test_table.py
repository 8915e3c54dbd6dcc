"""The table (code L): every board's move from block RAM in one clock.

What each check proves: the walks over the golden model prove that its choice (perfect
play, quickest win, lowest place) keeps the value on every board and never loses, first
or second; lockstep proves that the core plays exactly that choice, through its table,
its ternary index and its decoding, at every clock of every game a person can play; the
engine's own bench proves it for every board, the positions no game from the empty
board reaches included; the mutants show that each of these fails when it should."""

import functools
import itertools

import pytest
from bench import busy_runs, hold, simulate

from firmware_ref import perfect, table
from firmware_ref.table import choice, rom
from firmware_ref.cartridge import board_bits, full, line
from firmware_ref.places import EMPTY, GREEN, RED
from hdl.table.cartridge import Table
from hdl.table.lookup import Lookup, words
from sim import Mismatch, catalogue
from sim.cartridges.lockstep import lockstep


@functools.cache
def table_moves():
    """The table's entry of every board (firmware_ref's, made by the first test asking)."""
    return table.parameters()["moves"]


def boards():
    """Every board by number, with its places."""
    return ((n, rom.board(n)) for n in range(rom.BOARDS))


def open_boards():
    """The boards a game of turns can ask the machine about: no line, an empty place."""
    return ((n, p) for n, p in boards() if not (line(p, RED) or line(p, GREEN) or full(p)))


# -- the golden model's choice ------------------------------------------------------------

def test_every_choice_keeps_the_value_on_every_board_with_the_machine_to_move():
    # Every board a game of turns may ask about, counts of stones legal or not.
    checked = 0
    for _, places in open_boards():
        assert choice.choose(places) in perfect.best(places, RED), places
        weighted = choice.score(tuple(places), RED)
        assert (weighted > 0) - (weighted < 0) == perfect.value(places, RED), places
        checked += 1
    assert checked == 11093


def test_the_quickest_win_then_the_slowest_loss_then_the_lowest_place():
    # Red wins at 4 too, a move later; 6 wins at once.
    win = [RED, GREEN, GREEN, RED, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    assert perfect.best(win, RED) == {4, 5, 6, 7, 8} and choice.choose(win) == 6
    # Every move loses; at 6 red blocks the column and loses a move later.
    lost = [GREEN, RED, RED, GREEN, EMPTY, EMPTY, EMPTY, GREEN, EMPTY]
    assert perfect.value(lost, RED) == perfect.LOSS and choice.choose(lost) == 6
    # Nine draws: the lowest place, which the table holds as the first empty one.
    assert perfect.best([EMPTY] * 9, RED) == set(range(9))
    assert choice.choose([EMPTY] * 9) == 0


def test_a_board_where_the_game_is_over_gets_its_first_empty_place():
    assert choice.choose([GREEN, GREEN, GREEN, RED, RED, EMPTY, EMPTY, EMPTY, EMPTY]) == 5
    assert choice.choose([RED | GREEN, EMPTY, GREEN] + [EMPTY] * 6) == \
        choice.choose([RED, EMPTY, GREEN] + [EMPTY] * 6)    # both colours read as red
    assert choice.choose([RED, GREEN] * 4 + [RED]) is None


def walk(places, machine):
    """Every game from `places` with the machine (red) choosing and the person trying
    every empty place: yields the final boards."""
    if line(places, RED) or line(places, GREEN) or full(places):
        yield places
        return
    if machine:
        move = choice.choose(places)
        yield from walk(places[:move] + [RED] + places[move + 1:], False)
        return
    for k in range(9):
        if places[k] == EMPTY:
            yield from walk(places[:k] + [GREEN] + places[k + 1:], True)


@pytest.mark.parametrize("machine_first, games, won", [(False, 569, 386),
                                                       (True, 73, 71)])
def test_the_machine_never_loses_first_or_second(machine_first, games, won):
    ends = list(walk([EMPTY] * 9, machine_first))
    assert not any(line(end, GREEN) for end in ends)
    # The rest are draws; together the 642 games that lockstep plays at the pins.
    assert (len(ends), sum(line(end, RED) for end in ends)) == (games, won)


def test_the_walk_finds_a_loss_of_a_machine_that_takes_the_first_empty_place(monkeypatch):
    monkeypatch.setattr(choice, "choose", lambda places: places.index(EMPTY))
    assert any(line(end, GREEN) for end in walk([EMPTY] * 9, False))


def test_the_table_holds_each_boards_choice_as_its_place_among_the_empty_ones():
    moves = table_moves()
    assert len(moves) == 3 ** 9 and max(moves) < 8
    for n, places in boards():
        empty = [k for k in range(9) if places[k] == EMPTY]
        if empty:
            assert empty[moves[n]] == choice.choose(places)


def test_a_table_whose_empty_board_needs_a_ninth_place_is_refused(monkeypatch):
    choose = choice.choose
    monkeypatch.setattr(rom, "choose", lambda places: 8 if places == [EMPTY] * 9
                        else choose(places))
    with pytest.raises(ValueError, match="empty board"):
        table.parameters()


# -- the core against the golden model ---------------------------------------------------

@pytest.mark.slow       # every game: make test-slow, make museum; make test: every eighth
def test_the_core_plays_the_golden_models_move_in_every_game():
    assert lockstep("table") == (642, 10872)


def test_the_core_plays_the_golden_models_move_in_every_eighth_game():
    sample = list(itertools.islice(table.games(), 0, None, 8))
    assert lockstep("table", sample) == (len(sample), sum(map(len, sample))) and \
        len(sample) == 81


def test_the_machine_thinks_one_clock():
    # Runs of busy, with over after them: 3 is the judge of the person's stone, one
    # clock of thinking and the judge of the machine's; 2, the machine's opening (no
    # person's stone to judge); 1, the person's stone ended the game. The lockstep
    # above shows that the core's busy is the model's on every clock.
    runs = {(clocks, over) for game in table.games()
            for clocks, over in busy_runs(table.Model(), game) if over is not None}
    assert runs == {(1, 1), (2, 0), (3, 0), (3, 1)}


def entered(places, limit=16):
    """A game from the position `places` with the machine beginning, the person on the
    first empty place: the inputs of each clock."""
    model = table.Model()
    model.set(start=1, position=board_bits(places), switches=0)
    game = [model.inputs]
    model.tick()
    model.set(start=0)
    while model.state != "OVER" and len(game) < limit * 9:
        if model.state == "WAIT":
            model.set(key=1 << model.places.index(EMPTY))
        game.append(model.inputs)
        model.tick()
        model.set(key=0)
    game.append(model.inputs)           # the final board, compared
    return game


# Positions no game from the empty board reaches: the table answers them all the same.
POSITIONS = [[EMPTY, EMPTY, GREEN, EMPTY, EMPTY, EMPTY, RED, RED, RED],      # over
             [RED, RED, EMPTY, RED, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY],      # red ahead
             [GREEN, GREEN, EMPTY, GREEN, EMPTY, EMPTY, EMPTY, EMPTY, RED],  # green ahead
             [EMPTY, GREEN, EMPTY, GREEN, EMPTY, GREEN, EMPTY, GREEN, EMPTY]]


def handful():
    return (list(itertools.islice(table.games(), 0, None, 80))
            + [entered(places) for places in POSITIONS])


# The compiled and Verilator builds: make test-slow, as every museum machine's.
@pytest.mark.parametrize("backend", [pytest.param(backend, marks=pytest.mark.slow)
                                     if backend != "amaranth" else backend
                                     for backend in ("compiled", "verilator", "amaranth")])
def test_the_core_agrees_on_games_from_entered_positions_on_every_backend(backend):
    games = handful()
    assert lockstep("table", games, backend=backend) == \
        (len(games), sum(map(len, games)))


def lookups(engine, shown):
    """The engine's (done, move) on each of `shown` (lists of places), on the first
    clock of thinking after the board was there for a clock."""
    got = []

    async def bench(ctx):
        for places in shown:
            for k, place in enumerate(places):
                ctx.set(engine.board[k].as_value(), place)
            await hold(ctx, engine, think=0)
            ctx.set(engine.think, 1)
            got.append((ctx.get(engine.done), ctx.get(engine.move)))

    simulate(engine, bench)
    return got


# Every board on Amaranth's simulator is a quarter of a minute: every seventh in make test.
@pytest.mark.parametrize("every", [7, pytest.param(1, marks=pytest.mark.slow)])
def test_every_board_gets_its_move_on_the_first_clock_of_thinking(every):
    asked = [places for _, places in boards() if EMPTY in places][::every]
    got = lookups(Lookup(table_moves()), asked)
    assert len(got) == len(asked) == -(-(3 ** 9 - 2 ** 9) // every)
    for places, (done, move) in zip(asked, got):
        assert done and move == choice.choose(places), places


def test_a_place_of_both_colours_is_read_as_the_machines():
    both = RED | GREEN
    asked = [[both, EMPTY, GREEN, EMPTY, GREEN, EMPTY, EMPTY, EMPTY, EMPTY],
             [EMPTY, EMPTY, both, EMPTY, both, GREEN, EMPTY, GREEN, EMPTY],
             [both] * 8 + [EMPTY]]
    for places, (done, move) in zip(asked, lookups(Lookup(table_moves()), asked)):
        assert done and places[move] == EMPTY
        assert move == choice.choose([RED if p == both else p for p in places])


# -- mutants ---------------------------------------------------------------------------

class SwappedDigits(Lookup):
    """Places 3 and 4 weighed the other way round."""

    def number(self, board):
        return super().number([board[k] for k in (0, 1, 2, 4, 3, 5, 6, 7, 8)])


class WrongHalf(Lookup):
    """Odd and even boards read from each other's half of the word."""

    def number(self, board):
        return super().number(board) ^ 1


def mutant(engine):
    core = catalogue.game("table").cartridge()
    return type(f"{engine.__name__}Table", (core,), {"engine": lambda self:
                                                     engine(self.moves)})


@pytest.mark.parametrize("engine", [SwappedDigits, WrongHalf])
def test_a_wrong_index_is_caught_by_lockstep(engine):
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: "):
        lockstep("table", core=mutant(engine))


def test_a_wrong_entry_is_caught_by_lockstep_and_by_the_engines_bench():
    # The person's corner opening: the table's answer there, one empty place on.
    after = [GREEN] + [EMPTY] * 8
    n = sum(place * 3 ** k for k, place in enumerate(after))
    moves = list(table_moves())
    moves[n] += 1
    wrong = type("WrongEntry", (Table,), {"__init__": lambda self:
                                          Table.__init__(self, moves)})
    with pytest.raises(Mismatch, match=r"game \d+, clock \d+: board"):
        lockstep("table", core=wrong)
    (done, move), = lookups(Lookup(moves), [after])
    assert move != choice.choose(after)


def test_a_table_of_the_wrong_size_or_width_is_refused():
    assert len(words(table_moves())) == 9842
    for moves in (table_moves()[:-1], table_moves()[:-1] + (8,)):
        with pytest.raises(ValueError, match="a table is 19683 moves of 0..7"):
            words(moves)
