"""The host link's answering: each frame answered with one line, and the cartridge's lines."""

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from .answer_text import ERROR_AT, MARK_AT, STATUS_AT, Reading
from .command import Command, CommandBus


__all__ = ["Answering"]


class Answering(wiring.Component):
    """The answering state machine, one hot (each state a flip-flop: its decisions are a
    LUT or two): listening; acting on a command until the desk is ready; sending a line
    of the answers' text (the status, ``error``, or the ``#`` of the cartridge's line);
    then the cartridge's line itself.

    - A good frame's command goes on to the desk, and the status line follows once the
      desk is ``ready``, looked at only once the desk has seen the command (the
      command, the key event, its waiting, then a registered ready: four clocks).
    - A malformed frame is answered ``error``; so is a frame that ends while the last
      one is answered, once that answer is sent, and its command goes nowhere.
    - The places of an ``R`` frame go on to the desk as they come.
    - Between answers, and not while a frame arrives, a line the cartridge offers goes
      out behind a ``#`` (a text frame's reply would otherwise go out before the
      frame's answer). A host cannot see a line coming (its frame may be on the wire
      as the line begins), so a good frame that ends during a line is not refused but
      waits for the line's end, its command held by the parser (``deferred``), and is
      then acted on and answered. A frame that ends while one waits: both are answered
      ``error``, as the parser no longer holds the first.

    Members
    -------
    parsed : In(CommandBus())
        From the frame parser: the places, and each frame's end (``NONE``: malformed),
        the command and its argument held while the parser is ``idle``.
    idle : In(1)
        No frame is arriving, and the parser holds the last frame's command and argument.
    commands : Out(CommandBus())
        To the desk: the places and the good frames' commands, ``valid`` registered.
    ready : In(1)
        The desk has acted on the last command.
    read : Out(Reading())
        The answers' text, read a character at a time.
    text : In(stream.Signature(8))
        The cartridge's lines.
    send : Out(stream.Signature(8))
        To the transmitter.
    """

    parsed: In(CommandBus())
    idle: In(1)
    commands: Out(CommandBus())
    ready: In(1)
    read: Out(Reading())
    text: In(stream.Signature(8))
    send: Out(stream.Signature(8))

    def elaborate(self, platform):
        m = Module()
        parsed, read, send = self.parsed, self.read, self.send
        # Clocks until `char` is that of `address` (three), or until the desk's ready
        # shows a command's effect (four), as ones.
        wait = Signal(4)
        m.d.sync += wait.eq(wait >> 1)
        waited = ~wait[0]           # (the ones shift out: bit 0 is the last)

        listen = Signal(init=1)
        act = Signal()
        line = Signal()             # the status line or "error"
        mark = Signal()             # the "#" before the cartridge's line
        text = Signal()             # the cartridge's line
        error_pending = Signal()    # a frame to answer "error" once this answer is sent
        deferred = Signal()         # a good frame that ended during the cartridge's line
        place = parsed.command == Command.PLACE
        bad = parsed.valid & (parsed.command == Command.NONE)
        good = parsed.valid & ~place & (parsed.command != Command.NONE)
        # The frame to act on now: one that has just ended, or the one that waited.
        go = listen & (good & ~deferred | deferred & self.idle & ~parsed.valid)
        took = send.ready & waited  # the transmitter takes the text's character
        newline = self.text.valid & send.ready & (self.text.payload == ord("\n"))
        m.d.comb += [
            self.commands.command.eq(parsed.command),
            self.commands.argument.eq(parsed.argument),
            send.payload.eq(Mux(text, self.text.payload, read.char)),
            send.valid.eq((line | mark) & waited | text & self.text.valid),
            self.text.ready.eq(text & send.ready),
        ]
        # A place goes on as it comes, a frame's command only to be answered; a clock
        # later, registered, with the command the parser holds while it is idle.
        m.d.sync += self.commands.valid.eq(parsed.valid & place | go)

        def begin(at):
            m.d.sync += [read.address.eq(at), wait.eq(0b1111)]

        with m.If(go):
            m.d.sync += [listen.eq(0), act.eq(1), wait.eq(0b1111), deferred.eq(0)]
        with m.Elif(listen & (good | bad | error_pending)):
            m.d.sync += [listen.eq(0), line.eq(1), error_pending.eq(0), deferred.eq(0)]
            begin(ERROR_AT)
        with m.Elif(listen & self.text.valid & self.idle):
            m.d.sync += [listen.eq(0), mark.eq(1)]
            begin(MARK_AT)
        with m.If(act & waited & self.ready):
            m.d.sync += [act.eq(0), line.eq(1)]
            begin(STATUS_AT)
        with m.If((line | mark) & took):
            # One character per byte the transmitter takes.
            m.d.sync += [read.address.eq(read.address + 1), wait.eq(0b1111)]
        with m.If(line & took & read.last):
            m.d.sync += [line.eq(0), listen.eq(1)]
        with m.If(mark & took):
            m.d.sync += [mark.eq(0), text.eq(1)]
        with m.If(text & newline):
            m.d.sync += [text.eq(0), listen.eq(1)]
        with m.If((good | bad) & ~listen):
            with m.If(good & (mark | text) & ~deferred & ~error_pending):
                m.d.sync += deferred.eq(1)
            with m.Else():
                m.d.sync += [error_pending.eq(1), deferred.eq(0)]
        return m
