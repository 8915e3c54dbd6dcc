"""The board in a box: the desk that is flashed, compiled, behind a pseudo-terminal.

`ttt play-board` with no port plays this (docs/boards.md, "The board in a box").
The desk at the board's real timings, everything `top.BoardTop` builds but the FPGA's
I/O buffers, goes through CXXRTL (sim.backends.compiled) with `boards/box/box.cc`, which
runs the host's UART beside it in the board's clocks. Its link alone is faster than a
board's, `BOX_BAUD` (boards/gateware/rates.py): a box has no wire to keep to 115,200
baud. A thread moves bytes between that UART and a pseudo-terminal, which a client
opens as it opens a real port:

    with Box() as box:
        port = serial.Serial(box.port)
"""

import ctypes
import errno
import functools
import os
import select
import threading
import tty
from pathlib import Path

from amaranth.back import rtlil
from amaranth.hdl import ClockDomain, Elaboratable, Module

from sim import catalogue
from sim.backends import compiled

from boards.gateware.answer_text import TEXT_MARK
from boards.gateware.rates import BOX_BAUD
from boards.gateware.top import CLOCK_HZ, desk_for

from .stream import CHUNK, LINGER, PATIENCE


__all__ = ["Box", "BoxTop", "CompiledDesk", "Owed", "CLOCK_HZ", "design"]

TOP = "ttt_desk"
WRAPPER = Path(__file__).with_name("box.cc")
ROOM = 4096                         # bytes a run may bring back
TERMINATORS = b"\r\n"
THREAD = "board in a box"        # the name of the thread that runs it


class BoxTop(Elaboratable):
    """The desk with the board's clock domain (no reset, as on the board) and its
    members as the netlist's ports, the clock named ``clk``; its link at `baud`."""

    def __init__(self, games, clock_hz=CLOCK_HZ, baud=BOX_BAUD):
        self.desk = desk_for([catalogue.game(name).cartridge() for name in games], clock_hz,
                             baud)
        self.domain = ClockDomain("sync", reset_less=True)

    def elaborate(self, platform):
        m = Module()
        m.domains.sync = self.domain
        m.submodules.desk = self.desk
        return m

    @property
    def ports(self):
        return [self.domain.clk, *(value for _, _, value in
                                   self.desk.signature.flatten(self.desk))]


@functools.cache
def design(games=(catalogue.CHIP.name,)):
    """The desk with `games` as sim.backends.compiled builds it (elaborated once per process)."""
    top = BoxTop(games)
    return compiled.Design(TOP, rtlil.convert(top, name=TOP, ports=top.ports,
                                              emit_src=False), WRAPPER,
                           f"the desk with {', '.join(games)}",
                           # each game's first build (the catalogue's build_s); several
                           # games' sum is an overestimate: four games (the chip, the
                           # bomb, first free, Tactic-Toe) took 13 s where it is 20
                           sum(catalogue.game(name).build_s for name in games),
                           names=False)


def _signatures():
    handle, i32, i64 = ctypes.c_void_p, ctypes.c_int32, ctypes.c_int64
    buffer = ctypes.c_char_p
    return {
        "box_create": ([ctypes.c_double], handle), "box_destroy": ([handle], None),
        "box_send": ([handle, buffer, i32], None),
        "box_run": ([handle, i64, ctypes.c_void_p, i32], i32),
        "box_busy": ([handle], i32),
        "box_broken": ([handle], i64),
    }


class CompiledDesk:
    """The compiled desk and the host's UART, driven from Python: `send` bytes, `run`
    clocks and get back the bytes the desk sent meanwhile."""

    def __init__(self, games=(catalogue.CHIP.name,), *, log=None):
        self.games = tuple(games)
        self._lib = compiled.load(compiled.library(design(self.games), log=log),
                                  _signatures())
        self._handle = self._lib.box_create(CLOCK_HZ / BOX_BAUD)
        self._out = ctypes.create_string_buffer(ROOM)

    def close(self):
        if self._handle:
            self._lib.box_destroy(self._handle)
            self._handle = None

    def _open(self):
        """Its handle; a desk closed under its reader is an OSError, as a port's is."""
        if not self._handle:
            raise OSError("the board in a box was closed")
        return self._handle

    def send(self, data):
        self._lib.box_send(self._open(), bytes(data), len(data))

    def run(self, cycles):
        got = self._lib.box_run(self._open(), cycles, self._out, ROOM)
        return self._out.raw[:got]

    @property
    def busy(self):
        """A byte is on the wire, either way, or waits to go out."""
        return bool(self._lib.box_busy(self._open()))

    @property
    def broken(self):
        """Bytes from the desk with a low stop bit (dropped, as a UART does)."""
        return self._lib.box_broken(self._open())


class Owed:
    """What the desk owes the host: an answer per frame sent (docs/boards.md: every
    non-empty line is answered with one line), and the rest of a line begun. A line of
    the cartridge's (behind TEXT_MARK) answers no frame: one that a frame met comes
    before that frame's answer, which may follow it by a move's thought."""

    def __init__(self):
        self.answers = 0
        self.begun = None           # the first byte of the line the desk is sending
        self._in_frame = False      # bytes sent since the last terminator

    @property
    def midline(self):
        return self.begun is not None

    def sent(self, data):
        for byte in data:
            terminator = byte in TERMINATORS
            self.answers += terminator and self._in_frame
            self._in_frame = not terminator

    def heard(self, data):
        for byte in data:
            if self.begun is None:
                self.begun = byte
            if byte == ord("\n"):
                if self.begun != TEXT_MARK[0]:
                    self.answers = max(0, self.answers - 1)
                self.begun = None

    def give_up(self):
        self.answers, self.begun = 0, None


class Box:
    """The board in a box on a pseudo-terminal: ``with Box() as box``, then open
    ``box.port``. The board's clock runs only while a byte is on the wire or an answer
    is owed (the protocol answers every frame with one line), so an idle box costs
    nothing; leaving the ``with`` stops the thread and closes the terminal."""

    # Seconds a reader of `port` waits for a line (a real board's is 2). The box is
    # simulated: on a loaded machine a line may take seconds, and one cut short by a
    # timeout would be read as two.
    TIMEOUT = 60

    def __init__(self, games=(catalogue.CHIP.name,), *, log=None):
        self.desk = CompiledDesk(games, log=log)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)        # pyserial does this too; no echo before it opens
        self.port = os.ttyname(self._slave)
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._serve, name=THREAD)
        self.error = None               # what ended the thread early, if anything

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self._master < 0:
            return
        if self._thread.is_alive():
            os.write(self._stop_w, b"x")
            self._thread.join()
        for fd in (self._master, self._slave, self._stop_r, self._stop_w):
            os.close(fd)
        self._master = self._slave = self._stop_r = self._stop_w = -1
        self.desk.close()

    def _serve(self):
        owed = Owed()
        waited = 0                  # clocks since the last byte either way
        try:
            while True:
                # A half-sent line runs on: a cartridge may pause a clock between two
                # of its bytes, where the clock would otherwise stop.
                idle = (not owed.answers and not self.desk.busy and not owed.midline
                        and waited >= LINGER)
                ready, _, _ = select.select([self._master, self._stop_r], [], [],
                                            None if idle else 0)
                if self._stop_r in ready:
                    return
                if self._master in ready:
                    data = os.read(self._master, ROOM)
                    waited = 0
                    owed.sent(data)
                    self.desk.send(data)
                answer = self.desk.run(CHUNK)
                if answer:
                    os.write(self._master, answer)
                    owed.heard(answer)
                    waited = 0
                else:
                    waited += CHUNK
                if waited >= PATIENCE:
                    owed.give_up()
        except OSError as error:
            if error.errno != errno.EIO:    # EIO: the terminal was closed under us
                self.error = error
