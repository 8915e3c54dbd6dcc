"""The host link's frame parser: the frame grammar as two ROMs, run as the bytes arrive."""

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import data, stream, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from firmware_ref.places import BOTH, BY_MARK
from hdl.cartridge import PLACE, SWITCHES

from .command import Command, CommandBus
from .uart import RECEIVED


__all__ = ["FrameParser", "MAX_FRAME", "STATES", "START", "step", "grammar"]


LETTERS = {"S": Command.STATUS, "R": Command.RESET, "K": Command.KEY,
           "W": Command.SWITCH, "G": Command.GAME, "T": Command.TEXT}
MAX_FRAME = 10

# The frame grammar, run by two ROMs in block RAM so the parser compares no bytes: a
# byte's class (bytes that act the same in every state share one), then the step from
# (state, class). `step` is the grammar in Python; the ROMs are its table.
START, BAD = ("start",), ("bad",)
STATES = ([START, BAD, ("S", 1)] + [("K", n) for n in (1, 2)] + [("W", n) for n in (1, 2, 3)]
          + [("G", n) for n in (1, 2)] + [("R", n) for n in range(1, 11)]
          + [("T", n) for n in range(1, MAX_FRAME + 1)])      # (letter, bytes so far)
FINAL = {("S", 1), ("K", 2), ("W", 3), ("G", 2), ("R", 1), ("R", 10)} \
    | {("T", n) for n in range(2, MAX_FRAME + 1)}
# A step's `command` goes out when `event` is set: a place, a frame's command at its
# end, or NONE at a malformed frame's end.
STEP = data.StructLayout({"next": range(len(STATES)), "command": Command, "event": 1,
                          "text": 1, "digit": 1, "place": PLACE, "empty": 1})
CLASS_BITS = 4
# What a byte is as a frame's digit: a K frame's place one hot ("0" to "8"), and its low
# nibble (a G frame's cartridge, a W frame's switch or position).
DIGIT = data.StructLayout({"key": 9, "low": 4})


def digit(byte):
    """The digit ROM's word for `byte`: its place one hot ("0" to "8"), its low nibble."""
    return {"key": 1 << byte - ord("0") if ord("0") <= byte <= ord("8") else 0,
            "low": byte & 0xF}


def step(state, byte, *, hold, games):
    """What byte `byte` does to a frame in `state` (a dict of STEP's fields, `next` a
    state). `hold`: the desk's position is in use, so R frames are refused."""
    c = chr(byte).upper() if byte < 0x80 else ""     # a letter either case
    out = {"next": BAD}
    if c and c in "\r\n":
        out["next"] = START
        if state in FINAL:
            out.update(command=LETTERS[state[0]], event=1,
                       empty=int(state == ("R", 1) or state[0] == "G"))
        elif state != START:            # an empty line is no frame
            out["event"] = 1
        return out
    out["digit"] = 1
    letter, n = state if state not in (START, BAD) else (None, 0)
    digit = byte - ord("0") if ord("0") <= byte <= ord("9") else None
    places = {mark: value for mark, value in BY_MARK.items() if value != BOTH}
    if state == START and c and c in LETTERS and not (c == "R" and hold):
        out["next"] = (c, 1)
    elif letter == "K" and n == 1 and digit is not None and digit <= 8:
        out["next"] = ("K", 2)
    elif letter == "W" and n == 1 and digit is not None and digit < SWITCHES:
        out["next"] = ("W", 2)
    elif letter == "W" and n == 2 and digit is not None and digit < 2:
        out["next"] = ("W", 3)
    elif letter == "G" and n == 1 and digit is not None and digit < games:
        out["next"] = ("G", 2)
    elif letter == "R" and n < 10 and c and c in places and not hold:
        out.update(next=("R", n + 1), command=Command.PLACE, event=1,
                   place={"red": places[c] & 1, "green": places[c] >> 1})   # as PLACE
    elif letter == "T" and n < MAX_FRAME:
        out.update(next=("T", n + 1), text=1)
    return out


def grammar(games):
    """The two parser ROMs: the class of each (hold, byte), and the step of each
    (state, class), for a desk of `games` cartridges."""
    columns, classes = {}, []     # a column: the steps of one (hold, byte), by state
    for hold in (0, 1):
        for byte in range(256):
            column = [step(state, byte, hold=hold, games=games) for state in STATES]
            key = repr(column)
            if key not in columns:
                columns[key] = (len(columns), column)
            classes.append(columns[key][0])
    assert len(columns) <= 1 << CLASS_BITS, "more byte classes than the ROM holds"
    steps = [STEP.const({})] * (len(STATES) << CLASS_BITS)
    for n, column in columns.values():
        for state, out in zip(STATES, column):
            steps[STATES.index(state) << CLASS_BITS | n] = STEP.const(
                {**out, "next": STATES.index(out["next"])})
    return classes, steps


class FrameParser(wiring.Component):
    """The frame, parsed as its bytes arrive from the receiver: nothing is stored but
    what it means. A byte's class is read the clock after it arrives (the receiver holds
    it until the next start bit), the step the clock after that. A byte with a broken
    stop bit ends its frame too, malformed: the host resends a whole line.

    Parameters
    ----------
    games : int
        The cartridges a ``G`` frame may choose from.

    Members
    -------
    received : In(RECEIVED)
        The receiver's bytes.
    hold : In(1)
        The desk's position is in use: ``R`` frames are refused.
    idle : Out(1)
        No frame is arriving (the grammar's start, and no byte's step under way), so the
        last frame's command and argument hold.
    parsed : Out(CommandBus())
        Registered: each place of an ``R`` frame (``PLACE``) and each frame's end: its
        command, or ``NONE`` for a malformed frame. The command and its argument hold
        while the parser is ``idle`` (empty lines change nothing), so a reader may act
        on a frame long after its end: the answering holds one that met a line of the
        cartridge's. A ``K`` frame's key comes one hot from a third ROM, the digits'.
    text : Out(stream.Signature(8))
        The bytes of ``T`` frames, ``valid`` registered (``ready`` is not looked at).
    """

    received: In(RECEIVED)
    hold: In(1)
    idle: Out(1)
    parsed: Out(CommandBus())
    text: Out(stream.Signature(8))

    def __init__(self, games):
        self._games = games
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        classes, steps = grammar(self._games)
        m.submodules.classes = class_rom = Memory(
            shape=CLASS_BITS, depth=len(classes), init=classes, attrs={"rom_style": "block"})
        m.submodules.steps = step_rom = Memory(
            shape=STEP, depth=len(steps), init=steps, attrs={"rom_style": "block"})
        m.submodules.digits = digit_rom = Memory(
            shape=DIGIT, depth=256, init=[DIGIT.const(digit(b)) for b in range(256)],
            attrs={"rom_style": "block"})
        class_port, step_port = class_rom.read_port(), step_rom.read_port()
        digit_port = digit_rom.read_port()
        byte = self.received.payload.byte
        m.d.comb += digit_port.addr.eq(byte)
        state = Signal(range(len(STATES)))
        valid = Signal(2)           # the byte's step is read when valid[1] is high
        m.d.comb += [class_port.addr.eq(Cat(byte, self.hold)),
                     step_port.addr.eq(Cat(class_port.data, state)),
                     self.idle.eq((state == STATES.index(START)) & ~valid[1])]
        broken = self.received.payload.broken   # held with the byte: no delay of its own
        m.d.sync += valid.eq(Cat(self.received.valid, valid[0]))
        now = step_port.data
        parsed, argument = self.parsed, self.parsed.argument
        # The bus's and the text's valid are registered (the receiver holds the byte,
        # the text's payload, for clocks yet).
        m.d.sync += [parsed.valid.eq(0), self.text.valid.eq(0)]
        m.d.comb += self.text.payload.eq(byte)
        with m.If(valid[1] & broken):
            m.d.sync += [state.eq(STATES.index(START)), parsed.valid.eq(1),
                         parsed.command.eq(Command.NONE)]
        with m.Elif(valid[1]):
            m.d.sync += [state.eq(now.next), self.text.valid.eq(now.text),
                         parsed.valid.eq(now.event)]
            with m.If(now.event):
                m.d.sync += [parsed.command.eq(now.command), argument.place.eq(now.place),
                             argument.empty.eq(now.empty)]
            # The frame's last two digits: a K frame's place and a G frame's cartridge
            # are the last; a W frame's switch the one before it, its position the
            # last. The grammar takes only switches below SWITCHES.
            with m.If(now.digit):
                m.d.sync += argument.switch.eq(argument.game)
        # The last digit's fields are the digit ROM's own output register, read only at
        # a digit's step and held in between: no flip-flops of their own.
        last = digit_port.data
        m.d.comb += [digit_port.en.eq(valid[1] & ~broken & now.digit),
                     argument.key.eq(last.key), argument.game.eq(last.low),
                     argument.on.eq(last.low[0])]
        return m
