"""The host link's frame parser: the frame grammar as two ROMs, run as the bytes arrive."""

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import data, enum, stream, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from hdl.cartridge import PLACE, SWITCHES

from ..host.protocol import BOTH, PLACES


__all__ = ["FrameParser", "Command", "MAX_FRAME", "STATES", "START", "step", "grammar"]


class Command(enum.Enum, shape=3):
    NONE = 0
    STATUS = 1          # S
    RESET = 2           # R, or R and nine places
    KEY = 3             # K0 .. K8
    SWITCH = 4          # W and a switch 0..3 and 0 or 1
    GAME = 5            # G and a cartridge's number
    TEXT = 6            # T and bytes for the cartridge


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
STEP = data.StructLayout({"next": range(len(STATES)), "accept": Command, "reject": 1,
                          "text": 1, "shift": 1, "clear": 1, "digit": 1, "place": PLACE})
CLASS_BITS = 4


def step(state, byte, *, hold, games):
    """What byte `byte` does to a frame in `state` (a dict of STEP's fields, `next` a
    state). `hold`: the desk's position is in use, so R frames are refused."""
    c = chr(byte).upper() if byte < 0x80 else ""     # a letter either case
    out = {"next": BAD}
    if c and c in "\r\n":
        out["next"] = START
        if state in FINAL:
            out["accept"] = LETTERS[state[0]]
        elif state != START:            # an empty line is no frame
            out["reject"] = 1
        return out
    out["digit"] = 1
    letter, n = state if state not in (START, BAD) else (None, 0)
    digit = byte - ord("0") if ord("0") <= byte <= ord("9") else None
    places = {mark: value for mark, value in PLACES.items() if value != BOTH}
    if state == START and c and c in LETTERS and not (c == "R" and hold):
        out.update(next=(c, 1), clear=int(c == "R"))
    elif letter == "K" and n == 1 and digit is not None and digit <= 8:
        out["next"] = ("K", 2)
    elif letter == "W" and n == 1 and digit is not None and digit < SWITCHES:
        out["next"] = ("W", 2)
    elif letter == "W" and n == 2 and digit is not None and digit < 2:
        out["next"] = ("W", 3)
    elif letter == "G" and n == 1 and digit is not None and digit < games:
        out["next"] = ("G", 2)
    elif letter == "R" and n < 10 and c and c in places and not hold:
        out.update(next=("R", n + 1), shift=1,
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
    stop bit ends its frame too, rejected: the host resends a whole line.

    The frame's meaning (``key``, ``number``, ``switch``) goes out as the parser holds
    it: it is used only with the strobe of its command, and no byte arrives between a
    terminator and its strobe.

    Parameters
    ----------
    games : int
        The cartridges a ``G`` frame may choose from.

    Members
    -------
    data, valid, error : In(8), In(1), In(1)
        The receiver's byte, held until the next; high for the clock it arrives; its
        stop bit was low.
    hold : In(1)
        The desk's position is in use: ``R`` frames are refused.
    idle : Out(1)
        No frame is arriving (the grammar's start).
    accepted : Out(1)
        High for one clock, registered: a terminator ended a good frame, ``command``.
    rejected : Out(1)
        High for one clock, registered: a terminator ended a bad frame, or a byte broke.
    command : Out(Command)
        With ``accepted``: the frame's command.
    key : Out(4)
        The frame's last digit: a ``K`` frame's place, a ``G`` frame's cartridge.
    place_key : Out(9)
        ``key`` as a place, one hot (bit k = place k), from a third ROM: the desk
        decodes no key.
    number : Out(4)
        A ``W`` frame's switch.
    switch : Out(1)
        A ``W`` frame's value.
    clear : Out(1)
        High for one clock, registered: an ``R`` frame begins.
    place : Out(PLACE)
        With ``shift``: the next place of an ``R`` frame.
    shift : Out(1)
        High for one clock, registered: ``place`` arrived.
    text : Out(stream.Signature(8))
        The bytes of ``T`` frames, ``valid`` registered (``ready`` is not looked at).
    """

    data: In(8)
    valid: In(1)
    error: In(1)
    hold: In(1)
    idle: Out(1)
    accepted: Out(1)
    rejected: Out(1)
    command: Out(Command)
    key: Out(4)
    place_key: Out(9)
    number: Out(4)
    switch: Out(1)
    clear: Out(1)
    place: Out(PLACE)
    shift: Out(1)
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
        m.submodules.places = places_rom = Memory(
            shape=9, depth=256, init=[1 << b - ord("0") if ord("0") <= b <= ord("8") else 0
                                      for b in range(256)], attrs={"rom_style": "block"})
        class_port, step_port = class_rom.read_port(), step_rom.read_port()
        places_port = places_rom.read_port()
        m.d.comb += places_port.addr.eq(self.data)
        state = Signal(range(len(STATES)))
        m.d.comb += [class_port.addr.eq(Cat(self.data, self.hold)),
                     step_port.addr.eq(Cat(class_port.data, state)),
                     self.idle.eq(state == STATES.index(START))]
        valid = Signal(2)           # the byte's step is read when valid[1] is high
        broken = self.error         # held with the byte, so it needs no delay of its own
        m.d.sync += valid.eq(Cat(self.valid, valid[0]))
        now = step_port.data
        last_digit = Signal(4)                      # the low nibbles of the last two bytes
        first_digit = Signal(4)
        m.d.sync += [self.accepted.eq(0), self.rejected.eq(0)]
        # The strobes to the desk and the cartridge are registered (the receiver holds
        # the byte, the text's payload, for clocks yet).
        m.d.sync += [self.shift.eq(0), self.clear.eq(0), self.text.valid.eq(0)]
        m.d.comb += self.text.payload.eq(self.data)
        with m.If(valid[1] & broken):
            m.d.sync += [state.eq(STATES.index(START)), self.rejected.eq(1)]
        with m.Elif(valid[1]):
            m.d.sync += [
                state.eq(now.next),
                self.text.valid.eq(now.text),
                self.place.eq(now.place), self.shift.eq(now.shift),
                self.clear.eq(now.clear),
                self.accepted.eq(now.accept != Command.NONE), self.command.eq(now.accept),
                self.rejected.eq(now.reject),
            ]
            with m.If(now.digit):
                m.d.sync += [first_digit.eq(last_digit), last_digit.eq(self.data[:4]),
                             self.place_key.eq(places_port.data)]
        # The grammar takes only switches below SWITCHES: the number's high bits are 0.
        m.d.comb += [self.key.eq(last_digit), self.switch.eq(last_digit[0]),
                     self.number.eq(first_digit[:(SWITCHES - 1).bit_length()])]
        return m
