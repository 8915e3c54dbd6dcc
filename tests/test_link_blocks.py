"""The host link's blocks (boards/gateware/) one at a time: the frame parser against the
grammar's own statement in Python (`step`) on random bytes, the answers' text against
the status line written out by hand, and the answering state machine's order of
commands, lines and the cartridge's text. tests/test_link.py runs the whole link over
its UARTs."""

import random

from bench import simulate

from boards.gateware.answer_text import ERROR_AT, ERROR_LINE, MARK_AT, STATUS_AT, AnswerText
from boards.gateware.answering import Answering
from boards.gateware.command import Command
from boards.gateware.frame_parser import START, FrameParser, step
from boards.host import protocol
from hdl.cartridge import LAMPS, SWITCHES


def test_the_parser_follows_the_grammar_on_random_bytes():
    games = 3
    dut = FrameParser(games)
    rng = random.Random(13)
    alphabet = b"SKWGRTskwgrt0123456789.OX*?\r\n\r\n" + bytes(range(0x80, 0x84))
    frames = [b"S\r", b"K7\n", b"k0\r", b"W11\r", b"W30\r", b"G2\r", b"G3\r", b"R\r",
              b"RX.O......\r", b"RXXOO.*...\n", b"TE?\r", b"TL1234567890\r"]
    stream = bytearray()
    while len(stream) < 6000:
        # Good frames, frames with a byte changed, and bytes at random.
        frame = bytearray(rng.choice(frames))
        if rng.random() < 0.3:
            frame[rng.randrange(len(frame))] = rng.choice(alphabet)
        stream += frame if rng.random() < 0.8 else bytes(
            rng.choice(alphabet) if rng.random() < 0.95 else rng.randrange(256)
            for _ in range(rng.randrange(1, 12)))

    async def bench(ctx):
        state, hold, digits, seen = START, 0, [], set()
        received, parsed, argument = dut.received, dut.parsed, dut.parsed.argument
        for byte in stream:
            broken = rng.random() < 0.01
            if state == START and rng.random() < 0.2:
                hold = rng.getrandbits(1)       # it changes only between frames
            ctx.set(dut.hold, hold)
            ctx.set(received.payload, {"byte": byte, "broken": broken})
            ctx.set(received.valid, 1)
            await ctx.tick()
            ctx.set(received.valid, 0)
            await ctx.tick().repeat(2)          # the class, then the step
            out = {"event": 1} if broken else step(state, byte, hold=hold, games=games)
            assert ctx.get(parsed.valid) == out.get("event", 0)
            command = out.get("command", Command.NONE)
            if out.get("event"):
                assert ctx.get(parsed.command) == command
                seen.add(command)
            if command in (Command.KEY, Command.GAME):
                assert ctx.get(argument.game) == digits[-1]
            if command == Command.KEY:
                assert ctx.get(argument.key) == 1 << digits[-1]
            if command == Command.SWITCH:
                assert (ctx.get(argument.switch), ctx.get(argument.on)) == tuple(digits[-2:])
            if command == Command.PLACE:
                assert ctx.get(argument.place.as_value()) == (out["place"]["red"]
                                                              | out["place"]["green"] << 1)
            if command in (Command.RESET, Command.GAME):    # from the empty board?
                assert ctx.get(argument.empty) == (state in (("R", 1), ("G", 2)))
            assert ctx.get(dut.text.valid) == out.get("text", 0)
            if out.get("text"):
                assert ctx.get(dut.text.payload) == byte
            if out.get("digit"):
                digits.append(byte & 15)
            state = START if broken else out["next"]
            assert ctx.get(dut.idle) == (state == START)
            await ctx.tick().repeat(1 + rng.randrange(3))
        assert seen == set(Command)

    simulate(dut, bench)


def test_the_answers_text_is_the_documented_status_line():
    rng = random.Random(14)
    codes = "EFK"
    dut = AnswerText(codes)

    async def read(ctx, first, end):
        line, lasts = bytearray(), []
        for address in range(first, end):
            ctx.set(dut.read.address, address)
            await ctx.tick()
            lasts.append(ctx.get(dut.read.last))
            await ctx.tick().repeat(2)
            line.append(ctx.get(dut.read.char))
        return bytes(line), lasts

    async def bench(ctx):
        for _ in range(20):
            board = [rng.randrange(4) for _ in range(9)]
            lamps, switches = rng.getrandbits(LAMPS), rng.getrandbits(SWITCHES)
            cycles, game = rng.getrandbits(16), rng.randrange(len(codes))
            ctx.set(dut.status, {"board": [{"red": v & 1, "green": v >> 1} for v in board],
                                 "lamps": lamps, "switches": switches, "cycles": cycles,
                                 "game": game})
            marks = "".join(protocol.MARKS[v] for v in board)
            bits = lambda value, n: "".join(str(value >> i & 1) for i in range(n))  # noqa: E731
            status = (f"{marks[:3]}|{marks[3:6]}|{marks[6:]} g{codes[game]} "
                      f"l{bits(lamps, LAMPS)} s{bits(switches, SWITCHES)} c{cycles:04X}\r\n")
            line, lasts = await read(ctx, STATUS_AT, ERROR_AT)
            assert line == status.encode()
            assert lasts == [0] * (len(line) - 1) + [1]
        assert await read(ctx, ERROR_AT, MARK_AT) == (ERROR_LINE.encode(),
                                                      [0] * (len(ERROR_LINE) - 1) + [1])
        assert await read(ctx, MARK_AT, MARK_AT + 1) == (protocol.TEXT_MARK, [1])

    simulate(dut, bench)


def answer(script, *, ready_after=0, text=b"", clocks=600):
    """Runs the answering state machine through `script`, {clock: (command,)}: the
    parser's bus for one clock (``NONE``: a malformed frame's end), with `text` offered
    as the cartridge's line from the start; the answers' text stands in as the address
    itself (char = address, last at each line's end). Returns what it did in order:
    ("command", command) as it went to the desk, and ("byte", value) as it was sent."""
    dut = Answering()
    done = []
    lasts = {ERROR_AT - 1, MARK_AT - 1, MARK_AT}

    async def bench(ctx):
        offered, since, busy = bytearray(text), None, 0
        for clock in range(clocks):
            event = script.get(clock)
            ctx.set(dut.parsed.valid, event is not None)
            ctx.set(dut.parsed.command, event[0] if event else Command.NONE)
            ctx.set(dut.idle, 1)
            ctx.set(dut.ready, since is None or since >= ready_after)
            address = ctx.get(dut.read.address)
            ctx.set(dut.read.char, address)
            ctx.set(dut.read.last, address in lasts)
            ctx.set(dut.text.valid, bool(offered))
            ctx.set(dut.text.payload, offered[0] if offered else 0)
            ctx.set(dut.send.ready, busy == 0)
            if ctx.get(dut.send.valid) and busy == 0:
                done.append(("byte", ctx.get(dut.send.payload)))
                busy = 7
            if offered and ctx.get(dut.text.ready):
                del offered[0]
            await ctx.tick()
            busy = max(busy - 1, 0)
            if ctx.get(dut.commands.valid):
                command = ctx.get(dut.commands.command)
                done.append(("command", command))
                since = 0 if command != Command.PLACE else since
            elif since is not None:
                since += 1

    simulate(dut, bench)
    return done


def sent(line_start, line_end):
    return [("byte", address) for address in range(line_start, line_end)]


def test_each_command_goes_to_the_desk_once_then_is_answered_with_the_status():
    for command in set(Command) - {Command.NONE, Command.PLACE}:
        done = answer({5: (command,)}, ready_after=30)
        assert done == [("command", command)] + sent(STATUS_AT, ERROR_AT), command


def test_a_place_goes_to_the_desk_unanswered_even_while_a_frame_is_answered():
    assert answer({5: (Command.PLACE,)}) == [("command", Command.PLACE)]
    done = answer({5: (Command.KEY,), 40: (Command.PLACE,)}, ready_after=100)
    assert done == [("command", Command.KEY), ("command", Command.PLACE)] + sent(STATUS_AT,
                                                                               ERROR_AT)


def test_a_bad_frame_is_answered_error_and_so_is_one_during_an_answer():
    assert answer({5: (Command.NONE,)}) == sent(ERROR_AT, MARK_AT)
    # A second frame ends while the first is answered: it is refused after it, and its
    # command goes nowhere.
    done = answer({5: (Command.KEY,), 60: (Command.KEY,)}, clocks=900)
    assert done == [("command", Command.KEY)] + sent(STATUS_AT, ERROR_AT) + sent(ERROR_AT,
                                                                                 MARK_AT)


def test_the_cartridges_line_goes_behind_a_mark_and_waits_for_an_answer():
    assert answer({}, text=b"B2\n") == [("byte", MARK_AT)] + [("byte", c) for c in b"B2\n"]
    done = answer({0: (Command.NONE,)}, text=b"B2\n")
    assert done == sent(ERROR_AT, MARK_AT) + [("byte", MARK_AT)] + [("byte", c)
                                                                      for c in b"B2\n"]
