"""The chip on its boards: the desk simulated with a key matrix, a display decoder and a
host on the serial line, each game checked against the golden model; the build plans,
one real place and route, and the errors a person meets."""

import json
import re
from pathlib import Path

import pytest

from boards import protocol
from boards.__main__ import main as boards_main
from boards.bench import run, sim_desk
from boards.build import (NoBitstream, NoBoard, ProgrammingFailed, bitstream, plan,
                          program)
from boards.terminal import Link, check_position, open_port, play
from boards.top import BOARDS, UnknownBoard, target
from firmware_ref.alg import COMPUTER, EMPTY, HUMAN, wins
from firmware_ref.cli import UserError
from firmware_ref.cycle import CycleModel, State, places, press, start

ROOT = Path(__file__).parent.parent


class Golden:
    """The golden model beside the desk: what the display and the status must show."""

    def __init__(self, position=None):
        self.chip = CycleModel()
        start(self.chip, userbegins=True, position=position)
        self.cycles = 0

    def press(self, place):
        if self.chip.state is State.WAITING and places(self.chip.board)[place] == EMPTY:
            self.cycles = len(press(self.chip, place))

    @property
    def board(self):
        return places(self.chip.board)

    @property
    def fin(self):
        return self.chip.state is State.FINISHED

    @property
    def win(self):
        return self.fin and wins(self.board, COMPUTER)


def led_of(board):
    """The chip's 18-bit led word of an alg.py board."""
    return sum({COMPUTER: 1, HUMAN: 2}.get(v, 0) << 2 * k for k, v in enumerate(board))


# The desk in simulation.

def test_a_game_through_the_front_panel():
    # Entered at reset: the user's stone on 0 and the chip's on 4; then the user plays
    # the first free place each move, with keys that bounce and one held through the
    # chip's whole answer.
    position = [HUMAN, EMPTY, EMPTY, EMPTY, COMPUTER, EMPTY, EMPTY, EMPTY, EMPTY]

    async def body(bench):
        desk, ctx = bench.desk, bench.ctx
        await bench.until(lambda: ctx.get(desk.prompt), what="the power-up game's prompt")
        assert await bench.shown() == 0

        await bench.button("reset", down=True)
        assert ctx.get(desk.setup) and not ctx.get(desk.prompt)
        await bench.press(0)                    # piN off: the user's stone
        await bench.press(2)
        await bench.press(2)                    # a second press takes it away again
        await bench.click("piN")
        assert ctx.get(desk.piN)
        await bench.press(4)                    # piN on: the chip's stone
        await bench.click("piN")
        assert await bench.shown() == led_of(position)
        await bench.button("reset", down=False)
        assert not ctx.get(desk.setup)

        golden = Golden(position)
        await bench.until(lambda: ctx.get(desk.prompt), what="the prompt after setup")
        assert await bench.shown() == led_of(golden.board)

        moves = 0
        while not golden.fin:
            place = golden.board.index(EMPTY)
            golden.press(place)
            await bench.press(place, hold_frames=400 if moves == 0 else 6)
            await bench.until(lambda: ctx.get(desk.prompt) or ctx.get(desk.fin),
                              what=f"the chip's answer to key {place}")
            assert places(await bench.shown()) == golden.board, f"after key {place}"
            moves += 1
        assert ctx.get(desk.fin) and ctx.get(desk.win) == golden.win
        return moves

    assert run(sim_desk(), body) >= 2


def test_a_game_through_the_host_link():
    position = [EMPTY, EMPTY, HUMAN, EMPTY, COMPUTER, EMPTY, EMPTY, EMPTY, EMPTY]

    async def body(bench):
        status = protocol.parse(await bench.command(protocol.userbegins(True)))
        assert status.userbegins and status.prompt and status.board == [EMPTY] * 9
        status = protocol.parse(await bench.command(protocol.reset(position)))
        golden = Golden(position)
        assert status.board == golden.board and status.prompt and status.cycles == 0

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
            assert (status.prompt, status.fin, status.win) == (
                not golden.fin, golden.fin, golden.win)
        assert status.fin
        status = protocol.parse(await bench.command(protocol.piN(True)))
        assert status.piN and status.userbegins

    run(sim_desk(), body)


BAD_FRAMES = [b"K9\r", b"K\r", b"K44\r", b"X\r", b"S1\r", b"U2\r", b"P\r", b"R....\r",
              b"RXO........\r", b"RXOZ......\r", b"R" + b"." * 20 + b"\r", b"k-\r",
              b"\xff\r"]


def test_malformed_frames_are_answered_error_and_change_nothing():
    async def body(bench):
        before = await bench.command(protocol.reset([HUMAN] + [EMPTY] * 8))
        assert protocol.parse(before).board[0] == HUMAN
        for frame in BAD_FRAMES:
            assert await bench.command(frame) == b"error", frame
            assert await bench.command(protocol.STATUS) == before, frame
        # A byte with a broken stop bit spoils its frame: key 4 is not pressed.
        assert await bench.command(b"K4\r", broken=(1,)) == b"error"
        assert await bench.command(protocol.STATUS) == before
        # Lower case and CR LF are fine; the empty line after CR is no frame.
        assert await bench.command(b"s\r\n") == before
        # A frame that arrives while the last is being answered is not acted on.
        bench.send(b"K4\rU0\r")
        await bench.until(lambda: len(bench.lines) == 2, what="two answers")
        moved, refused = bench.lines.popleft(), bench.lines.popleft()
        assert refused == b"error"
        assert protocol.parse(moved).board[4] == HUMAN and protocol.parse(moved).userbegins
        assert protocol.parse(await bench.command(protocol.STATUS)).userbegins

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
        await bench.until(lambda: not ctx.get(desk.prompt), what="thinking")
        pins, frames = set(), 0
        while not ctx.get(desk.prompt):
            pins.add(ctx.get(desk.chip.led))
            shown = await bench.shown()
            # A frame may straddle the clock that latches the answer.
            assert shown in (led_of(moved), led_of(golden.board))
            frames += shown == led_of(moved)
        assert frames > 10 and len(pins) > 2      # the search was on the pins, not shown
        assert await bench.shown() == led_of(golden.board)
        await bench.until(lambda: bench.lines, what="the answer")

    run(sim_desk(), body)


def test_protocol_lines():
    status = protocol.parse(b"XO.|...|..* p1 f0 w0 u1 n0 c3A9F\r\n")
    assert status.board == [HUMAN, COMPUTER, EMPTY] + [EMPTY] * 5 + [protocol.BOTH]
    assert status.cycles == 0x3A9F and status.prompt and not status.fin
    with pytest.raises(protocol.Rejected):
        protocol.parse(b"error\r\n")
    for line in (b"", b"XO.|...|... p1 f0 w0 u1 n0", b"XO.|...|... p2 f0 w0 u1 n0 c0000"):
        with pytest.raises(protocol.ProtocolError):
            protocol.parse(line)
    with pytest.raises(ValueError):
        protocol.key(9)


# Builds.

@pytest.mark.parametrize("name", list(BOARDS))
def test_build_plan(name):
    files = plan(target(name)).files
    assert {"ttt.il", "ttt.ys", "ttt.pcf"} <= set(files)
    pcf = files["ttt.pcf"]
    assert re.search(r"set_io uart_0__tx__io \d+", pcf)
    assert "set_frequency clk12_0__io 12.0" in pcf
    assert ("front_panel_0__row__io[0]" in pcf) == BOARDS[name].front_panel


def test_the_wiring_table_in_the_docs_is_the_pin_plan():
    pcf = plan(target("icebreaker")).files["ttt.pcf"]
    table = re.findall(r"^\| (row|sense|red|green) (\d) \| PMOD1[AB] pin \d+ \| (\d+) \|",
                       (ROOT / "docs/boards.md").read_text(), re.M)
    assert len(table) == 12
    for signal, bit, pin in table:
        assert f"set_io front_panel_0__{signal}__io[{bit}] {pin}\n" in pcf


def test_place_and_route_icebreaker(tmp_path):
    report = bitstream(target("icebreaker"), tmp_path)
    assert (tmp_path / "ttt.bin").stat().st_size > 100_000
    assert json.loads((tmp_path / "report.json").read_text()) == report
    assert 0 < report["logic_cells"]["used"] <= report["logic_cells"]["available"] == 5280
    assert report["flip_flops"] >= 97                  # the chip's own, at least
    assert report["fmax_mhz"] > report["clock_mhz"] == 12
    assert report["worst_move_cycles"] == 15007


# Errors a person meets.

def test_unknown_board_lists_the_known_ones(capsys):
    with pytest.raises(UnknownBoard, match="icebreaker, icestick"):
        target("ulx3s")
    with pytest.raises(SystemExit, match="unknown board 'ulx3s'.*icebreaker, icestick"):
        boards_main(["bitstream", "--board", "ulx3s"])


def test_programming_errors(tmp_path):
    board = target("icebreaker")
    with pytest.raises(NoBitstream, match="make bitstream BOARD=icebreaker"):
        program(board, tmp_path)
    (tmp_path / "ttt.bin").write_bytes(b"\0")
    usb = tmp_path / "usb"
    usb.mkdir()
    with pytest.raises(NoBoard, match="no icebreaker is connected"):
        program(board, tmp_path, sysfs=usb)
    ftdi = usb / "1-1"
    ftdi.mkdir()
    (ftdi / "idVendor").write_text("0403\n")
    (ftdi / "idProduct").write_text("6010\n")

    class Failed:
        returncode, stdout = 1, ""
        stderr = "error while loading shared libraries: libusb-1.0.so.0"
    with pytest.raises(ProgrammingFailed, match="libusb-1.0"):
        program(board, tmp_path, sysfs=usb, run=lambda *a, **k: Failed())


def test_a_serial_port_that_is_not_there():
    with pytest.raises(UserError, match="cannot open the serial port /dev/ttyTTT9: No such"):
        open_port("/dev/ttyTTT9")


def test_a_silent_port_is_named():
    class Silent:
        def write(self, data):
            self.written = data

        def readline(self):
            return b""
    with pytest.raises(protocol.ProtocolError, match="no answer"):
        Link(Silent()).command(protocol.STATUS)


def test_positions_no_game_reaches_are_refused_by_the_terminal():
    with pytest.raises(ValueError, match="already won"):
        check_position([HUMAN] * 3 + [COMPUTER] * 2 + [EMPTY] * 4)
    with pytest.raises(ValueError, match="no game gets there"):
        check_position([HUMAN] * 2 + [EMPTY] * 7)
    assert check_position([HUMAN, COMPUTER] + [EMPTY] * 7)


def test_the_terminal_client_sends_the_frames_of_what_is_typed():
    class Board:                        # answers every frame with one status line
        def __init__(self):
            self.frames = []

        def write(self, data):
            self.frames.append(data)

        def readline(self):
            return b"...|...|... p1 f0 w0 u1 n0 c0000\r\n"
    board, said = Board(), []
    typed = iter(["b2", "B3", "new xo.|...|...", "new XXX|OO.|...", "chip", "new", "quit"])
    assert play(None, stream=board, read=lambda prompt: next(typed), write=said.append) == 0
    assert board.frames == [protocol.STATUS, b"K4\r", b"K7\r", b"RXO.......\r", b"U0\r", b"R\r"]
    assert any("already won" in line for line in said)
