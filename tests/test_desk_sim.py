"""The desk in Amaranth simulation (boards/box/desk_sim.py) with a key matrix, a display
decoder and a host on the serial line: games through the front panel and the host link,
each checked against the golden model, chords, malformed frames, and the display of the
latched board while the chip searches."""

import pytest

from boards.box.desk_sim import run, sim_desk
from boards.host import protocol
from firmware_ref.cartridge import board_bits, board_places
from firmware_ref.eth.alg import wins
from firmware_ref.eth.cycle import CycleModel, State
from firmware_ref.eth.pins import press, start
from firmware_ref.places import COMPUTER, EMPTY, HUMAN


class Golden:
    """The golden model beside the desk: what the display and the status must show."""

    def __init__(self, position=None):
        self.chip = CycleModel()
        start(self.chip, userbegins=True, position=position)
        self.cycles = 0

    def press(self, place):
        if self.chip.state is State.WAITING and board_places(self.chip.board)[place] == EMPTY:
            self.cycles = len(press(self.chip, place))

    @property
    def board(self):
        return board_places(self.chip.board)

    @property
    def fin(self):
        return self.chip.state is State.FINISHED

    @property
    def win(self):
        return self.fin and wins(self.board, COMPUTER)


def test_a_game_through_the_front_panel():
    # Entered at reset: the user's stone on 0 and the chip's on 4; then the user plays
    # the first free place each move, with keys that bounce and one held through the
    # chip's whole answer.
    position = [HUMAN, EMPTY, EMPTY, EMPTY, COMPUTER, EMPTY, EMPTY, EMPTY, EMPTY]

    async def body(bench):
        desk, ctx = bench.desk, bench.ctx
        await bench.until(lambda: ctx.get(desk.lamps[0]), what="the power-up game's prompt")
        assert await bench.shown() == 0

        await bench.button("reset", down=True)
        assert ctx.get(desk.setup) and not ctx.get(desk.lamps[0])
        await bench.press(0)                    # one press: the user's stone
        for _ in range(3):
            await bench.press(2)                # the user's, the chip's, empty again
        await bench.press(4)
        await bench.press(4)                    # two presses: the chip's stone
        await bench.click(1)                    # the piN switch
        assert ctx.get(desk.switches[1])
        await bench.click(1)
        assert await bench.shown() == board_bits(position)
        await bench.button("reset", down=False)
        assert not ctx.get(desk.setup)

        golden = Golden(position)
        await bench.until(lambda: ctx.get(desk.lamps[0]), what="the prompt after setup")
        assert await bench.shown() == board_bits(golden.board)

        moves = 0
        while not golden.fin:
            place = golden.board.index(EMPTY)
            golden.press(place)
            await bench.press(place, hold_frames=400 if moves == 0 else 6)
            await bench.until(lambda: ctx.get(desk.lamps[0]) or ctx.get(desk.lamps[1]),
                              what=f"the chip's answer to key {place}")
            assert board_places(await bench.shown()) == golden.board, f"after key {place}"
            moves += 1
        assert ctx.get(desk.lamps[1]) and ctx.get(desk.lamps[2]) == golden.win
        return moves

    assert run(sim_desk(), body) >= 2


def test_a_chord_at_the_panel_is_no_press():
    # Two keys that close in the same frame place nothing; each alone then places one
    # stone, and a key that closes while another is held counts.
    async def body(bench):
        desk, ctx = bench.desk, bench.ctx
        await bench.until(lambda: ctx.get(desk.lamps[0]), what="the power-up game's prompt")
        keys = []                               # what the cartridge is given
        for chord in ({0, 4}, {2, 6, 8}):
            bench.closed |= chord
            for n in range(52 * bench.frame_cycles):
                if n == 12 * bench.frame_cycles:
                    bench.closed -= chord
                await bench.tick()
                keys.append(ctx.get(desk.cartridges[0].key))
            assert board_places(await bench.shown()) == [EMPTY] * 9, chord
        assert not any(keys)                    # not even a chord, which the chip ignores
        await bench.press(4)
        await bench.until(lambda: ctx.get(desk.lamps[0]), what="the chip's answer")
        board = board_places(await bench.shown())
        assert board[4] == HUMAN and board.count(COMPUTER) == 1

    run(sim_desk(), body)


# The same game through the host link runs on the compiled desk in make test, checked
# against the golden model (tests/test_box.py): on Amaranth's simulator, make test-slow.
@pytest.mark.slow
def test_a_game_through_the_host_link():
    position = [EMPTY, EMPTY, HUMAN, EMPTY, COMPUTER, EMPTY, EMPTY, EMPTY, EMPTY]

    async def body(bench):
        status = protocol.parse(await bench.command(protocol.switch(0, True)))
        assert status.switches[0] and status.lamps[0] and status.board == [EMPTY] * 9
        status = protocol.parse(await bench.command(protocol.reset(position)))
        golden = Golden(position)
        assert status.board == golden.board and status.lamps[0] and status.cycles == 0

        # A taken place is ignored, as by the chip: nothing changes.
        again = protocol.parse(await bench.command(protocol.key(4)))
        assert again == status

        keys = [0, 8, 7, 1, 3, 5, 6]
        for place in keys:
            if golden.fin:
                break
            if golden.board[place] != EMPTY:
                continue
            golden.press(place)
            status = protocol.parse(await bench.command(protocol.key(place)))
            assert status.board == golden.board, f"after key {place}"
            assert status.cycles == golden.cycles, f"think time after key {place}"
            assert status.lamps[:3] == (not golden.fin, golden.fin, golden.win)
        assert status.lamps[1]
        status = protocol.parse(await bench.command(protocol.switch(1, True)))
        assert status.switches[:2] == (True, True)

    run(sim_desk(), body)


BAD_FRAMES = [b"K9\r", b"K\r", b"K44\r", b"X\r", b"S1\r", b"W02\r", b"W0\r", b"W41\r",
              b"G1\r", b"G\r", b"T\r", b"R....\r",
              b"RXO........\r", b"RXOZ......\r", b"R" + b"." * 20 + b"\r", b"k-\r",
              b"\xff\r"]
# One of each command letter's and a letter that is none: tests/test_link.py refuses
# every malformed frame at the link's own ports (make test-slow; one of each kind in make
# test), the desk is only behind it.
SOME_BAD_FRAMES = [b"K9\r", b"X\r", b"S1\r", b"W02\r", b"G1\r", b"T\r", b"RXOZ......\r"]


@pytest.mark.parametrize("frames", [
    pytest.param(SOME_BAD_FRAMES, id="one-of-each"),
    pytest.param(BAD_FRAMES, id="all", marks=pytest.mark.slow)])
def test_malformed_frames_are_answered_error_and_change_nothing(frames):
    async def body(bench):
        before = await bench.command(protocol.reset([HUMAN] + [EMPTY] * 8))
        assert protocol.parse(before).board[0] == HUMAN
        # Each is refused; that nothing changed is read once, after all of them (a frame
        # acted on would have been answered with the status, not refused).
        for frame in frames:
            assert await bench.command(frame) == b"error", frame
        assert await bench.command(protocol.STATUS) == before
        # A byte with a broken stop bit spoils its frame: key 4 is not pressed.
        assert await bench.command(b"K4\r", broken=(1,)) == b"error"
        assert await bench.command(protocol.STATUS) == before
        # Lower case and CR LF are fine; the empty line after CR is no frame.
        assert await bench.command(b"s\r\n") == before
        # A frame that arrives while the last is being answered is not acted on.
        bench.send(b"K4\rW00\r")
        await bench.until(lambda: len(bench.lines) == 2, what="two answers")
        moved, refused = bench.lines.popleft(), bench.lines.popleft()
        assert refused == b"error"
        assert protocol.parse(moved).board[4] == HUMAN and protocol.parse(moved).switches[0]
        assert protocol.parse(await bench.command(protocol.STATUS)).switches[0]

    run(sim_desk(), body)


def test_the_display_is_the_latched_board_not_the_search():
    # While the chip thinks, its led pins show trial stones; the display must not.
    position = [HUMAN, EMPTY, EMPTY, EMPTY, COMPUTER, EMPTY, EMPTY, EMPTY, EMPTY]

    async def body(bench):
        desk, ctx = bench.desk, bench.ctx
        golden = Golden(position)
        await bench.command(protocol.reset(position))
        golden.press(8)
        moved = position[:8] + [HUMAN]
        bench.send(protocol.key(8))
        await bench.until(lambda: not ctx.get(desk.lamps[0]), what="thinking")
        pins, frames = set(), 0
        while not ctx.get(desk.lamps[0]):
            pins.add(ctx.get(desk.cartridges[0].chip.led))
            shown = await bench.shown()
            # A frame may straddle the clock that latches the answer.
            assert shown in (board_bits(moved), board_bits(golden.board))
            frames += shown == board_bits(moved)
        assert frames > 10 and len(pins) > 2      # the search was on the pins, not shown
        assert await bench.shown() == board_bits(golden.board)
        await bench.until(lambda: bench.lines, what="the answer")

    run(sim_desk(), body)
