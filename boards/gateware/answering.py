"""The host link's answering: each frame answered with one line, and the cartridge's lines."""

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from .answer_text import DEPTH, ERROR_AT, MARK_AT, STATUS_AT
from .frame_parser import Command


__all__ = ["Answering"]


class Answering(wiring.Component):
    """The answering state machine, one hot (each state a flip-flop: its decisions are a
    LUT or two): listening; acting on a command until the desk is ready; sending a line
    of the answers' text (the status, ``error``, or the ``#`` of the cartridge's line);
    then the cartridge's line itself.

    - An accepted frame's command strobes the desk; the status line follows once the
      desk is ``ready``, looked at only once the desk has seen the command (its strobe,
      the key event, its waiting, then a registered ready: four clocks).
    - A rejected frame is answered ``error``; so is a frame that ends while the last
      one is answered, once that answer is sent.
    - Between answers, and not while a frame arrives, a line the cartridge offers goes
      out behind a ``#``: a frame's end would meet it and be refused, and a text
      frame's reply would go out before the frame's answer.

    Members
    -------
    accepted, rejected : In(1)
        High for one clock: a frame ended good (``command``) or bad.
    command : In(Command)
        With ``accepted``: the frame's command.
    idle : In(1)
        No frame is arriving.
    ready : In(1)
        The desk has acted on the last command.
    press, set_switch, select, new_game : Out(1)
        High for one clock, registered: an accepted ``K``, ``W``, ``G``, ``R`` frame.
    address : Out(range(DEPTH))
        The character of the answers' text being read, registered.
    char : In(8)
        Three clocks after ``address`` is set: its character.
    last : In(1)
        A clock after ``address`` is set: it is its line's last character.
    text : In(stream.Signature(8))
        The cartridge's lines.
    tx_data, tx_start : Out(8), Out(1)
        To the transmitter: send this byte.
    tx_ready : In(1)
        The transmitter takes a byte.
    """

    accepted: In(1)
    rejected: In(1)
    command: In(Command)
    idle: In(1)
    ready: In(1)
    press: Out(1)
    set_switch: Out(1)
    select: Out(1)
    new_game: Out(1)
    address: Out(range(DEPTH))
    char: In(8)
    last: In(1)
    text: In(stream.Signature(8))
    tx_data: Out(8)
    tx_start: Out(1)
    tx_ready: In(1)

    def elaborate(self, platform):
        m = Module()
        # Clocks until `char` is that of `address` (three), or until the desk's ready
        # shows a command's effect (four), as ones.
        wait = Signal(4)
        m.d.sync += wait.eq(wait >> 1)
        waited = ~wait[0]           # (the ones shift out: bit 0 is the last)

        listen = Signal(init=1)
        act = Signal()
        send = Signal()             # the status line or "error"
        mark = Signal()             # the "#" before the cartridge's line
        text = Signal()             # the cartridge's line
        error_pending = Signal()    # a frame to answer "error" once this answer is sent
        took = self.tx_ready & waited   # the transmitter takes the text's character
        newline = self.text.valid & self.tx_ready & (self.text.payload == ord("\n"))
        m.d.sync += [self.press.eq(0), self.set_switch.eq(0), self.select.eq(0),
                     self.new_game.eq(0)]
        m.d.comb += [
            self.tx_data.eq(Mux(text, self.text.payload, self.char)),
            self.tx_start.eq((send | mark) & waited | text & self.text.valid),
            self.text.ready.eq(text & self.tx_ready),
        ]

        def begin(at):
            m.d.sync += [self.address.eq(at), wait.eq(0b1111)]

        with m.If(listen & self.accepted):
            m.d.sync += [listen.eq(0), act.eq(1), wait.eq(0b1111)]
            with m.Switch(self.command):
                with m.Case(Command.KEY):
                    m.d.sync += self.press.eq(1)
                with m.Case(Command.SWITCH):
                    m.d.sync += self.set_switch.eq(1)
                with m.Case(Command.GAME):
                    m.d.sync += self.select.eq(1)
                with m.Case(Command.RESET):
                    m.d.sync += self.new_game.eq(1)
        with m.Elif(listen & (self.rejected | error_pending)):
            m.d.sync += [listen.eq(0), send.eq(1), error_pending.eq(0)]
            begin(ERROR_AT)
        with m.Elif(listen & self.text.valid & self.idle):
            m.d.sync += [listen.eq(0), mark.eq(1)]
            begin(MARK_AT)
        with m.If(act & waited & self.ready):
            m.d.sync += [act.eq(0), send.eq(1)]
            begin(STATUS_AT)
        with m.If((send | mark) & took):
            # One character per byte the transmitter takes.
            m.d.sync += [self.address.eq(self.address + 1), wait.eq(0b1111)]
        with m.If(send & took & self.last):
            m.d.sync += [send.eq(0), listen.eq(1)]
        with m.If(mark & took):
            m.d.sync += [mark.eq(0), text.eq(1)]
        with m.If(text & newline):
            m.d.sync += [text.eq(0), listen.eq(1)]
        with m.If((self.accepted | self.rejected) & ~listen):
            m.d.sync += error_pending.eq(1)
        return m
