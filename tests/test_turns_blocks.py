"""The blocks of a game of turns (hdl/turns.py) alone: the line that says a machine's
move, and the blunder lamp. The games themselves play in tests/test_cartridges.py."""

import random

from bench import simulate

from hdl.blunder_lamp import BlunderLamp
from hdl.move_line import MoveLine


def coordinates(place):
    """docs/cartridge.md: the column A-C, the row 1-3 (place 0 is A1, place 5 C2)."""
    return f"{'ABC'[place % 3]}{place // 3 + 1}\n".encode()


def test_every_place_is_said_in_the_games_coordinates():
    assert (coordinates(0), coordinates(5)) == (b"A1\n", b"C2\n")
    dut = MoveLine()

    async def bench(ctx):
        ctx.set(dut.tx.ready, 1)
        for place in range(9):
            ctx.set(dut.move, place)
            ctx.set(dut.say, 1)
            await ctx.tick()
            ctx.set(dut.say, 0)
            said = bytearray()
            while ctx.get(dut.tx.valid):
                said.append(ctx.get(dut.tx.payload))
                await ctx.tick()
            assert bytes(said) == coordinates(place)

    simulate(dut, bench)


def test_a_slow_host_hears_the_latest_move_and_a_new_game_drops_the_line():
    # Against the docstring's rules: a byte goes when the host takes it; a move said
    # begins its line again, and a new game (hush) ends it, winning over a move said.
    dut = MoveLine()
    rng = random.Random(5)

    async def bench(ctx):
        line, lines = b"", 0
        for _ in range(5000):
            say, hush = rng.random() < 0.05, rng.random() < 0.02
            move, ready = rng.randrange(9), rng.random() < 0.4
            for name, value in [("say", say), ("move", move), ("hush", hush)]:
                ctx.set(getattr(dut, name), value)
            ctx.set(dut.tx.ready, ready)
            assert ctx.get(dut.tx.valid) == bool(line)
            if line:
                assert ctx.get(dut.tx.payload) == line[0]
            await ctx.tick()
            if line and ready:
                line = line[1:]
                lines += not line
            if say:
                line = coordinates(move)
            if hush:
                line = b""
        assert lines > 50

    simulate(dut, bench)


def test_the_blunder_lamp_lights_on_a_blunder_until_the_next_move_or_game():
    rng = random.Random(6)
    blunders = {(rng.getrandbits(18), rng.randrange(9)) for _ in range(40)}
    dut = BlunderLamp(blunders)
    listed = sorted(blunders)

    async def bench(ctx):
        lit, kinds = 0, set()
        for _ in range(4000):
            board, move = rng.choice(listed) if rng.random() < 0.3 else (
                rng.getrandbits(18), rng.randrange(9))
            if rng.random() < 0.2:
                move = rng.randrange(9)     # a blunder's board, likely another place
            moved, clear = rng.random() < 0.3, rng.random() < 0.05
            ctx.set(dut.board.as_value(), board)
            for name, value in [("move", move), ("moved", moved), ("clear", clear)]:
                ctx.set(getattr(dut, name), value)
            await ctx.tick()
            if moved:
                lit = int((board, move) in blunders)
                kinds.add(lit)
            if clear:
                lit = 0
            assert ctx.get(dut.lit) == lit
        assert kinds == {0, 1}

    simulate(dut, bench)
