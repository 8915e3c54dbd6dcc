"""The host link: a line protocol on the board's USB serial port (docs/boards.md)."""

from amaranth.hdl import Module
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from hdl.cartridge import BOARD, LAMPS, PLACE, SWITCHES

from .answer_text import ERROR_LINE, STATUS_FORMAT, AnswerText
from .answering import Answering
from .frame_parser import MAX_FRAME, Command, FrameParser
from .uart import UartRx, UartTx


__all__ = ["HostLink", "Command", "STATUS_FORMAT", "ERROR_LINE", "MAX_FRAME"]


class HostLink(wiring.Component):
    """Reads command lines from the host and answers each with one line.

    A frame is the bytes up to a CR or LF. It has effect only when it is whole and one of
    the commands of docs/boards.md; anything else, a frame that arrives while the last
    one is still being answered, or a byte with a broken stop bit, is answered
    ``error`` and changes nothing. Empty lines are ignored, so CR LF is one terminator.
    Two exceptions go on as the bytes arrive: the bytes of a ``T`` frame go to the
    cartridge, and the places of an ``R`` frame go to the desk's position register,
    which nothing reads until ``new_game`` (an ``R`` frame whose places come while the
    desk's position is in use, ``hold``, is refused). Each accepted command is answered
    with the status line once ``ready`` is high, so the answer to a key shows the
    machine's reply. Between answers, a line the cartridge sends goes to the host
    behind a ``#``.

    Its blocks: a receiver, the frame parser, the answers' text, the answering state
    machine, and a transmitter.

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
    board : In(BOARD)
        The board the display shows.
    game : In(4)
        The cartridge playing (its letter is in the status line).
    lamps : In(LAMPS)
    switches : In(SWITCHES)
    cycles : In(16)
        The cycles the machine's last move took.
    ready : In(1)
        The desk has acted on the last command and the cartridge waits or has finished.
    hold : In(1)
        The desk's position is in use (entered at the panel, or being set up).
    key : Out(4)
        With ``press``: the place of a key pressed by the host; with ``select``: the
        cartridge. (The frame's last digit.)
    place_key : Out(9)
        With ``press``: ``key`` as a place, one hot (bit k = place k).
    press : Out(1)
        High for one clock: the host pressed ``key``.
    number : Out(4)
        With ``set_switch``: the switch.
    switch : Out(1)
        With ``set_switch``: the switch's new position.
    set_switch : Out(1)
        High for one clock: set switch ``number`` to ``switch``.
    select : Out(1)
        High for one clock: play cartridge ``key`` from an empty board.
    new_game : Out(1)
        High for one clock: a new game from the position the places made.
    clear : Out(1)
        High for one clock: an ``R`` frame begins; the position is the empty board.
    place : Out(PLACE)
        With ``shift``: the next place of an ``R`` frame (place 0 first).
    shift : Out(1)
        High for one clock: shift ``place`` into the position (it moves the places
        before it down by one, so the ninth lands on place 8 and the first on place 0).
    text_in : Out(stream.Signature(8))
        The bytes of ``T`` frames, for the cartridge.
    text_out : In(stream.Signature(8))
        The cartridge's lines, for the host.
    """

    rx: In(1, init=1)
    tx: Out(1, init=1)
    board: In(BOARD)
    game: In(4)
    lamps: In(LAMPS)
    switches: In(SWITCHES)
    cycles: In(16)
    ready: In(1)
    hold: In(1)
    key: Out(4)
    place_key: Out(9)
    press: Out(1)
    number: Out(4)
    switch: Out(1)
    set_switch: Out(1)
    select: Out(1)
    new_game: Out(1)
    clear: Out(1)
    place: Out(PLACE)
    shift: Out(1)
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
        m.submodules.tx = tx = UartTx(self._bit_cycles)
        m.submodules.parser = parser = FrameParser(len(self._codes))
        m.submodules.answers = answers = AnswerText(self._codes)
        m.submodules.answering = answering = Answering()
        m.d.comb += [rx.rx.eq(self.rx), self.tx.eq(tx.tx)]

        # The frame: its meaning and its strobes go to the desk as the bytes arrive, a
        # T frame's bytes to the cartridge.
        m.d.comb += [
            parser.data.eq(rx.data), parser.valid.eq(rx.valid), parser.error.eq(rx.error),
            parser.hold.eq(self.hold),
            self.key.eq(parser.key), self.place_key.eq(parser.place_key),
            self.number.eq(parser.number), self.switch.eq(parser.switch),
            self.clear.eq(parser.clear), self.place.eq(parser.place),
            self.shift.eq(parser.shift),
        ]
        wiring.connect(m, parser.text, wiring.flipped(self.text_in))

        # Its answer, and the cartridge's lines between answers.
        m.d.comb += [
            answering.accepted.eq(parser.accepted), answering.rejected.eq(parser.rejected),
            answering.command.eq(parser.command), answering.idle.eq(parser.idle),
            answering.ready.eq(self.ready),
            self.press.eq(answering.press), self.set_switch.eq(answering.set_switch),
            self.select.eq(answering.select), self.new_game.eq(answering.new_game),
            answers.address.eq(answering.address),
            answering.char.eq(answers.char), answering.last.eq(answers.last),
            answers.board.eq(self.board), answers.lamps.eq(self.lamps),
            answers.switches.eq(self.switches), answers.cycles.eq(self.cycles),
            answers.game.eq(self.game),
            tx.data.eq(answering.tx_data), tx.start.eq(answering.tx_start),
            answering.tx_ready.eq(tx.ready),
        ]
        wiring.connect(m, wiring.flipped(self.text_out), answering.text)
        return m
