"""The host link: a line protocol on the board's USB serial port (docs/boards.md)."""

from amaranth.hdl import Module
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from .answer_text import ERROR_LINE, STATUS_FORMAT, AnswerText, Status
from .answering import Answering
from .command import Command, CommandBus
from .frame_parser import MAX_FRAME, FrameParser
from .uart import UartRx, UartTx


__all__ = ["HostLink", "Command", "CommandBus", "Status", "STATUS_FORMAT", "ERROR_LINE",
           "MAX_FRAME"]


class HostLink(wiring.Component):
    """Reads command lines from the host and answers each with one line.

    A frame is the bytes up to a CR or LF. It has effect only when it is whole and one of
    the commands of docs/boards.md; anything else, a frame that arrives while the last
    one is still being answered, or a byte with a broken stop bit, is answered
    ``error`` and changes nothing. Empty lines are ignored, so CR LF is one terminator.
    Two exceptions go on as the bytes arrive: the bytes of a ``T`` frame go to the
    cartridge, and the places of an ``R`` frame go to the desk's position register,
    which nothing reads until the frame's ``RESET`` (an ``R`` frame whose places come
    while the desk's position is in use, ``hold``, is refused). Each good frame is
    answered with the status line once ``ready`` is high, so the answer to a key shows
    the machine's reply. Between answers, a line the cartridge sends goes to the host
    behind a ``#``.

    Its blocks, joined by streams and buses: a receiver, the frame parser, the answering
    state machine, the answers' text, and a transmitter.

    Parameters
    ----------
    bit_cycles : int
        Clocks per bit on the line.
    codes : str
        The letters of the cartridges ``G`` may choose from, cartridge 0 first.

    Members
    -------
    rx : In(1)
        Serial data from the host.
    tx : Out(1)
        Serial data to the host.
    commands : Out(CommandBus())
        The host's commands and the places of its ``R`` frames, for the desk.
    status : In(Status)
        The fields of the status line.
    ready : In(1)
        The desk has acted on the last command and the cartridge waits or has finished.
    hold : In(1)
        The desk's position is in use (entered at the panel, or being set up).
    text_in : Out(stream.Signature(8))
        The bytes of ``T`` frames, for the cartridge.
    text_out : In(stream.Signature(8))
        The cartridge's lines, for the host.
    """

    rx: In(1, init=1)
    tx: Out(1, init=1)
    commands: Out(CommandBus())
    status: In(Status)
    ready: In(1)
    hold: In(1)
    text_in: Out(stream.Signature(8))
    text_out: In(stream.Signature(8))

    def __init__(self, *, bit_cycles, codes="E"):
        if not 1 <= len(codes) <= 10:
            raise ValueError(f"the link names 1 to 10 cartridges, not {len(codes)}")
        self._bit_cycles = bit_cycles
        self._codes = codes
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        m.submodules.rx = rx = UartRx(self._bit_cycles)
        m.submodules.parser = parser = FrameParser(len(self._codes))
        m.submodules.answering = answering = Answering()
        m.submodules.answers = answers = AnswerText(self._codes)
        m.submodules.tx = tx = UartTx(self._bit_cycles)
        m.d.comb += [
            rx.rx.eq(self.rx), self.tx.eq(tx.tx),
            parser.hold.eq(self.hold), answering.idle.eq(parser.idle),
            answering.ready.eq(self.ready), answers.status.eq(self.status),
        ]
        # The bytes in, parsed; a T frame's bytes to the cartridge as they come.
        wiring.connect(m, rx.received, parser.received)
        wiring.connect(m, parser.text, wiring.flipped(self.text_in))
        # The commands through the answering, which passes on those it answers.
        wiring.connect(m, parser.parsed, answering.parsed)
        wiring.connect(m, answering.commands, wiring.flipped(self.commands))
        # Its answers, and the cartridge's lines between answers, out.
        wiring.connect(m, answering.read, answers.read)
        wiring.connect(m, wiring.flipped(self.text_out), answering.text)
        wiring.connect(m, answering.send, tx.send)
        return m
