"""The bomb module's blocks (hdl/ktane/) one at a time, each against the golden model's
own statement of its part of the rules (firmware_ref/ktane/): the starting row for every
edgework, the keypad's writes, the walk's key and the press wanted at random boards, a
new module's set-up and the defusal clock for clock beside the golden model.
tests/test_ktane.py plays the whole core."""

import random

import pytest
from amaranth.hdl import Module
from bench import simulate

from firmware_ref.ktane.manual import CHART, start_row
from firmware_ref.ktane.model import Edgework, Model
from firmware_ref.ktane.module import EMPTY, O, PASS, X, column, completes
from hdl.ktane.defusal import STRIKES_MAX, Defusal
from hdl.ktane.keypad import Keypad
from hdl.ktane.labels import Labels
from hdl.ktane.new_module import PIECES, NewModule
from hdl.ktane.start_row import StartRow
from hdl.ktane.walk import Walk

SETTING_UP = ("BEGIN", "DIGIT", "SHUFFLE", "PIECES")


def encode(board):
    """A list of places (EMPTY, X, O) as BOARD's bits: X red (bit 2k), O green."""
    return sum(v << 2 * k for k, v in enumerate(board))


def decode(bits):
    return [bits >> 2 * k & 3 for k in range(9)]


def test_the_starting_row_for_every_edgework():
    # Every value the edgework's fields hold, not only those a module draws.
    dut = StartRow()

    async def bench(ctx):
        for digit in range(16):
            for port in (0, 1):
                for lit in range(16):
                    for unlit in range(16):
                        ctx.set(dut.edge, {"digit": digit, "port": port, "lit": lit,
                                           "unlit": unlit})
                        assert ctx.get(dut.row) == start_row(digit, port, lit, unlit) - 1, \
                            (digit, port, lit, unlit)

    simulate(dut, bench)


def test_the_keypad_a_new_game_wins_over_a_clear_and_a_clear_over_a_piece():
    dut = Keypad()
    rng = random.Random(1)

    async def bench(ctx):
        board = [EMPTY] * 9
        for _ in range(2000):
            load, clear, put = (rng.random() < 0.1, rng.random() < 0.1, rng.random() < 0.5)
            position = [rng.choice((EMPTY, X, O, X | O)) for _ in range(9)]
            at, x = rng.randrange(9), rng.randrange(2)
            ctx.set(dut.load, load)
            ctx.set(dut.position.as_value(), encode(position))
            ctx.set(dut.clear, clear)
            ctx.set(dut.put, put)
            ctx.set(dut.at, at)
            ctx.set(dut.x, x)
            await ctx.tick()
            if load:
                board = position
            elif clear:
                board = [EMPTY] * 9
            elif put:
                board[at] = X if x else O
            assert decode(ctx.get(dut.board.as_value())) == board

    simulate(dut, bench)


def test_the_walks_key_and_the_press_wanted_at_random_boards():
    dut = Walk()
    rng = random.Random(2)

    async def bench(ctx):
        seen = set()
        for _ in range(3000):
            board = [rng.choice((EMPTY, EMPTY, X, O)) for _ in range(9)]
            up, row = rng.choice((X, O)), rng.randrange(9)
            place_of = list(range(9))
            rng.shuffle(place_of)
            ctx.set(dut.board.as_value(), encode(board))
            ctx.set(dut.up, up == X)
            ctx.set(dut.row, row)
            await ctx.tick()            # the column is registered
            label = ctx.get(dut.label)
            assert label == CHART[row][column(board, up)] - 1
            place = place_of[label]
            ctx.set(dut.place, place)
            taken = board[place] != EMPTY
            assert ctx.get(dut.taken) == taken
            if not taken:
                wanted = PASS if completes(board, place, up) else place
                assert ctx.get(dut.wanted) == wanted
                seen.add(wanted == PASS)
        assert seen == {False, True}

    simulate(dut, bench)


# Each switch alone in make test-slow: make test sets both or neither.
@pytest.mark.parametrize("host_set, shuffle", [
    (False, False), pytest.param(False, True, marks=pytest.mark.slow),
    pytest.param(True, False, marks=pytest.mark.slow), (True, True)])
def test_a_new_module_is_set_up_as_the_golden_model_sets_it_up(host_set, shuffle):
    # The new module with the keypad and the labels it writes, beside the golden model
    # on the same words; now and then a new game restarts both.
    rng = random.Random(3 + 2 * host_set + shuffle)
    words = [rng.getrandbits(16) for _ in range(6000)]
    model = Model(source=iter(words))
    model.host = Edgework(rng.randrange(10), rng.randrange(2), rng.randrange(10),
                          rng.randrange(10))
    model.host_set, model.shuffle = host_set, shuffle
    top = Module()
    top.submodules.new = new = NewModule()
    top.submodules.keypad = keypad = Keypad()
    top.submodules.labels = labels = Labels()
    top.d.comb += [
        new.board.eq(keypad.board), keypad.clear.eq(new.clear), keypad.put.eq(new.put),
        keypad.at.eq(new.at), keypad.x.eq(new.x), labels.identity.eq(new.identity),
        labels.swap.eq(new.swap), labels.i.eq(new.i), labels.j.eq(new.j),
    ]

    async def bench(ctx):
        ctx.set(new.host, vars(model.host))
        ctx.set(new.host_set, host_set)
        ctx.set(new.shuffle, shuffle)
        modules = 0
        for word in words[:-1]:
            # A new game mostly once a module waits, sometimes in its set-up.
            start = rng.random() < (0.05 if model.state == "READY" else 0.003)
            position = rng.getrandbits(18)
            ctx.set(new.word, word)
            for dut in (new, keypad):
                ctx.set(dut.start if dut is new else dut.load, start)
            ctx.set(keypad.position.as_value(), position)
            model.set(start=start, position=position)
            done = model.state == "PIECES" and model.count == PIECES
            assert ctx.get(new.done) == done
            modules += done
            await ctx.tick()
            model.tick()
            assert decode(ctx.get(keypad.board.as_value())) == model.board
            assert Edgework(**{f: ctx.get(getattr(new.edge, f))
                               for f in ("digit", "port", "lit", "unlit")}) == model.edge
            place_of = []
            for label in range(9):
                ctx.set(labels.label, label)
                place_of.append(ctx.get(labels.place))
            assert place_of == model.place_of
        assert modules > 20

    simulate(top, bench)


def test_the_defusal_judges_as_the_golden_model_judges():
    # The defusal alone; the testbench is its keypad, its walk (the chart, the labels
    # and the board as the golden model reads them) and its new module (the golden
    # model's own set-up, shuffled labels and all).
    rng = random.Random(4)
    words = [rng.getrandbits(16) for _ in range(20000)]
    model = Model(source=iter(words))
    model.shuffle = True
    dut = Defusal()

    async def bench(ctx):
        seen, passing = set(), 0
        for word in words[:-1]:
            up, row = (X if ctx.get(dut.up) else O), ctx.get(dut.row)
            board = model.board
            place = model.place_of[CHART[row][column(board, up)] - 1]
            key = 1 << rng.randrange(9) if rng.random() < 0.2 else 0
            passing ^= rng.random() < 0.05
            start = rng.random() < 0.001
            position = rng.getrandbits(18)
            model.set(key=key, switches=passing << 1, start=start, position=position)
            for name, value in [
                    ("start", start), ("word", word), ("key", key), ("passing", passing),
                    ("start_row", model.edge.start), ("place", place),
                    ("taken", board[place] != EMPTY),
                    ("wanted", PASS if completes(board, place, up) else place),
                    ("set_up", model.state == "PIECES" and model.count == PIECES)]:
                ctx.set(getattr(dut, name), value)
            ctx.set(dut.board.as_value(), encode(board))
            setting_up, state = model.state in SETTING_UP, model.state
            put = ctx.get(dut.put) and (ctx.get(dut.at), X if ctx.get(dut.x) else O)
            say = ctx.get(dut.say)
            assert (ctx.get(dut.ready), ctx.get(dut.busy), ctx.get(dut.over)) == (
                state == "READY", state in ("WALK", "JUDGE", "RANDOM", "NEXT"),
                state == "SOLVED")
            before = list(board)
            await ctx.tick()
            model.tick()
            if not setting_up and not start:
                if put:
                    before[put[0]] = put[1]
                assert before == model.board
                assert say == (state == "JUDGE" and model.struck and model.state == "READY")
            if model.state not in SETTING_UP:
                assert ((X if ctx.get(dut.up) else O), ctx.get(dut.row)) == (model.up,
                                                                             model.row)
            assert (ctx.get(dut.strikes), ctx.get(dut.struck)) == (model.strikes,
                                                                  model.struck)
            seen.add(model.state)
            seen.add(("strikes", model.strikes))
        assert {"SOLVED", "RANDOM", ("strikes", STRIKES_MAX)} <= seen

    simulate(dut, bench)
