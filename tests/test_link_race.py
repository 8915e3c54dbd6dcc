"""A frame that meets a line of the cartridge's (docs/boards.md, "The host link"): the
bomb module says its new module in two lines right after the answer to the ``G`` frame
that chose it, so a host's next frame meets them unless the host is slow. The desk with
the bomb, answered by hosts of every speed in the board's clocks; the board in a box
listing its games with its clock run in slivers (a box starved of CPU) and with a host
that writes a byte at a time; an answer owed past a line of the cartridge's; and a box's
power-up line cut by a pause."""

import re
import time
from types import SimpleNamespace

import pytest

from boards.box import box
from boards.box.box import Box, CompiledDesk
from boards.host import link as serial_link, protocol
from boards.host.console import Console
from boards.host.link import Link, open_box, open_port
from desks import GAMES

pytestmark = pytest.mark.early     # a desk of several games, built and run a dozen times

BOMB = GAMES.index("ktane")
STEP = 100                  # clocks per run of the compiled desk: under a byte's 1042
LIMIT = 400_000             # clocks a desk has to answer a frame


@pytest.fixture(scope="module")
def built():
    """The compiled desk, built once before anything runs it."""
    CompiledDesk(GAMES).close()


class Host:
    """A host on the compiled desk's line, counting in the board's clocks: what it
    heard, as lines."""

    def __init__(self, desk):
        self.desk, self.data, self.lines = desk, bytearray(), []

    def wait(self, clocks):
        for _ in range(0, clocks, STEP):
            self.data += self.desk.run(STEP)
            while b"\n" in self.data:
                end = self.data.index(b"\n") + 1
                self.lines.append(bytes(self.data[:end]))
                del self.data[:end]

    def answer(self, frame):
        """The answer to `frame`; the cartridge's lines stay in `lines`."""
        self.desk.send(frame)
        for _ in range(0, LIMIT, STEP):
            self.wait(STEP)
            if self.lines and not self.lines[-1].startswith(protocol.TEXT_MARK):
                return self.lines.pop()
        raise AssertionError(f"no answer to {frame!r} within {LIMIT} clocks")


def test_a_frame_that_meets_the_cartridges_lines_is_answered_after_them(built):
    # The bomb's two lines take some 44 000 clocks: hosts that send 0 to 48 000 clocks
    # after the answer to the G frame that chose it, a frame every 4 000, each of these
    # in turn (first free chosen, in upper and lower case; an empty line after a frame's
    # end holds it too).
    other = GAMES.index("firstfree")
    frames = [protocol.game(other), f"g{other}\r\n".encode(), protocol.STATUS]
    for n, delay in enumerate(range(0, 48_000, 4_000)):
        frame = frames[n % len(frames)]
        host = Host(CompiledDesk(GAMES))
        try:
            assert protocol.parse(host.answer(protocol.game(BOMB))).game == "K"
            host.wait(delay)
            answer = host.answer(frame)
        finally:
            host.desk.close()
        assert answer != b"error\r\n", f"{frame!r} {delay} clocks after G{BOMB}: refused"
        assert protocol.parse(answer).game == ("K" if frame == protocol.STATUS else "F")
        assert host.lines and all(re.fullmatch(rb"#E\d{4} L\d{9} S0\n", line)
                                  for line in host.lines), (delay, host.lines)


class Slow:
    """A host's serial port that writes a byte at a time, `pause` seconds apart."""

    def __init__(self, stream, pause):
        self.stream, self.pause = stream, pause

    def write(self, data):
        for byte in data:
            time.sleep(self.pause)
            self.stream.write(bytes([byte]))

    def readline(self):
        return self.stream.readline()


@pytest.mark.parametrize("chunk, pause", [(50, 0), (box.CHUNK, 0.004)],
                         ids=["box-starved", "slow-host"])
def test_the_box_lists_every_game_however_slow_it_or_the_host(built, monkeypatch, chunk,
                                                               pause):
    # CHUNK: the box's clock runs in slivers of 50 clocks, a box starved of CPU.
    monkeypatch.setattr(box, "CHUNK", chunk)
    with Box(GAMES) as board, open_box(board) as port:
        console = Console(Link(Slow(port, pause)), None, None)
        status = console.command(protocol.STATUS, quiet=True)
        assert console.ask_games(status) == GAMES
        assert console.command(protocol.STATUS).game == "E"


class Scripted:
    """A desk that answers each frame late, 30 000 clocks after the frame, with a line
    of the cartridge's before (a game of turns' move to a frame sent before its line)."""

    busy, broken = False, 0

    def __init__(self, games, *, log=None):
        self.now, self.due = 0, []

    def send(self, data):
        if b"\r" in data:
            self.due += [(self.now + 1_000, b"#B1\n"),
                         (self.now + 30_000, b"...|...|... gF l1000 s1000 c0003\r\n")]

    def run(self, cycles):
        self.now += cycles
        out = b"".join(data for at, data in self.due if at <= self.now)
        self.due = [(at, data) for at, data in self.due if at > self.now]
        return out

    def close(self):
        pass


def test_the_box_runs_on_for_an_answer_owed_past_a_cartridges_line(monkeypatch):
    # The line's end is no answer: the box must not stop its clock there.
    monkeypatch.setattr(box, "CompiledDesk", Scripted)
    monkeypatch.setattr(Box, "TIMEOUT", 2)
    with Box(GAMES) as board, open_port(board.port, board.TIMEOUT) as port:
        link = Link(port)
        assert link.command(protocol.STATUS).game == "F" and link.texts == ["B1"]


class Talking:
    """A port on which a box's power-up line comes in two parts, the second after a
    pause longer than open_box's silence and shorter than the box's wait."""

    def __init__(self):
        self.parts, self.timeout = [(b"#E8020 L12", 0), (b"3456789 S0\n", 0.5)], None

    def read(self, size):
        if not self.parts or self.parts[0][1] > self.timeout:
            return b""
        return self.parts.pop(0)[0]


def test_open_box_drops_a_power_up_line_whole_across_a_pause(monkeypatch):
    stream = Talking()
    monkeypatch.setattr(serial_link, "open_port", lambda port, timeout: stream)
    assert open_box(SimpleNamespace(port="/dev/pts/1", TIMEOUT=1)) is stream
    assert stream.parts == [] and stream.timeout == 1
