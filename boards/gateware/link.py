"""The host link: a line protocol on the board's USB serial port (docs/boards.md)."""

import operator
from functools import reduce

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import data, enum, stream, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from hdl.cartridge import BOARD, LAMPS, PLACE, SWITCHES

from ..host.protocol import BOTH, MARKS, PLACES, TEXT_MARK
from .uart import UartRx, UartTx


__all__ = ["HostLink", "Command", "STATUS_FORMAT", "ERROR_LINE", "MAX_FRAME"]


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
# The status line: text, and fields (names) that the hardware fills in.
STATUS_FORMAT = (["place0", "place1", "place2", "|", "place3", "place4", "place5", "|",
                  "place6", "place7", "place8", " g", "code", " l"]
                 + [f"lamp{n}" for n in range(LAMPS)] + [" s"]
                 + [f"switch{n}" for n in range(SWITCHES)]
                 + [" c", "cycles3", "cycles2", "cycles1", "cycles0", "\r\n"])
ERROR_LINE = "error\r\n"

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


# The answer is two ROMs in block RAM. The first is the lines: per character a base
# character and a slot, a nibble of the fields (two places, the lamps, the switches, a
# hex digit of the cycles, the cartridge's number; text: 0). The slot's value is or-ed
# into the base's low bits to address the second ROM, whose regions of 16 map a nibble
# to a character: text to itself (ASCII), the low or the high place of a slot to its
# mark, bit n to "0"/"1", a hex digit, a cartridge's letter. So the only multiplexer in
# logic is 12 slots of 4 bits, an and-or with the slot one hot in the first ROM.
PLACE_LO, PLACE_HI, BIT, HEX, CODE = 0x80, 0x90, 0xA0, 0xE0, 0xF0   # BIT + 16 n: bit n
LAMP_SLOT, SWITCH_SLOT, CYCLES_SLOT, CODE_SLOT, NO_SLOT = 5, 6, 7, 11, 15
HEX_DIGITS = "0123456789ABCDEF"


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

    @staticmethod
    def lines():
        """The first ROM: the status line at address 0, the error line after it, then
        the text mark. Each word is (base character, slot, last of its line)."""
        status = []
        for entry in STATUS_FORMAT:
            if entry.startswith("place"):
                k = int(entry[5:])
                status.append((PLACE_HI if k % 2 else PLACE_LO, k // 2))
            elif entry.startswith("lamp"):
                status.append((BIT + 16 * int(entry[4:]), LAMP_SLOT))
            elif entry.startswith("switch"):
                status.append((BIT + 16 * int(entry[6:]), SWITCH_SLOT))
            elif entry.startswith("cycles"):
                status.append((HEX, CYCLES_SLOT + int(entry[6:])))
            elif entry == "code":
                status.append((CODE, CODE_SLOT))
            else:
                status.extend((ord(c), NO_SLOT) for c in entry)
        error = [(ord(c), NO_SLOT) for c in ERROR_LINE]
        mark = [(TEXT_MARK[0], NO_SLOT)]
        return [[(*w, i == len(line) - 1) for i, w in enumerate(line)]
                for line in (status, error, mark)]

    def grammar(self):
        """The two parser ROMs: the class of each (hold, byte), and the step of each
        (state, class)."""
        games = len(self._codes)
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

    def characters(self):
        """The second ROM: what each address stands for."""
        table = list(range(128)) + [0] * 128
        for value in range(16):
            table[PLACE_LO + value] = ord(MARKS[value & 3])
            table[PLACE_HI + value] = ord(MARKS[value >> 2])
            for n in range(max(LAMPS, SWITCHES)):
                table[BIT + 16 * n + value] = ord("0") + (value >> n & 1)
            table[HEX + value] = ord(HEX_DIGITS[value])
        for value, code in enumerate(self._codes):
            table[CODE + value] = ord(code)
        return table

    def elaborate(self, platform):
        m = Module()
        m.submodules.rx = rx = UartRx(self._bit_cycles)
        m.submodules.tx = tx = UartTx(self._bit_cycles)
        m.d.comb += [rx.rx.eq(self.rx), self.tx.eq(tx.tx)]

        # The frame, parsed as its bytes arrive: nothing is stored but what it means.
        # A byte's class is read the clock after it arrives (the UART holds it until
        # the next start bit), the step the clock after that.
        classes, steps = self.grammar()
        m.submodules.classes = class_rom = Memory(
            shape=CLASS_BITS, depth=len(classes), init=classes, attrs={"rom_style": "block"})
        m.submodules.steps = step_rom = Memory(
            shape=STEP, depth=len(steps), init=steps, attrs={"rom_style": "block"})
        # A third ROM gives a digit as a place, one hot, so the desk decodes no key.
        m.submodules.places = places_rom = Memory(
            shape=9, depth=256, init=[1 << b - ord("0") if ord("0") <= b <= ord("8") else 0
                                      for b in range(256)], attrs={"rom_style": "block"})
        class_port, step_port = class_rom.read_port(), step_rom.read_port()
        places_port = places_rom.read_port()
        m.d.comb += places_port.addr.eq(rx.data)
        state = Signal(range(len(STATES)))
        m.d.comb += [class_port.addr.eq(Cat(rx.data, self.hold)),
                     step_port.addr.eq(Cat(class_port.data, state))]
        valid = Signal(2)           # the byte's step is read when valid[1] is high
        broken = rx.error           # held with the byte, so it needs no delay of its own
        m.d.sync += valid.eq(Cat(rx.valid, valid[0]))
        now = step_port.data
        last_digit = Signal(4)                      # the low nibbles of the last two bytes
        first_digit = Signal(4)
        # Registered too, for the answering state machine:
        command = Signal(Command)   # the command accepted
        accepted = Signal()         # a terminator ended a good frame
        rejected = Signal()         # a terminator ended a bad one, or a byte broke
        m.d.sync += [accepted.eq(0), rejected.eq(0)]
        # The strobes to the desk and the cartridge are registered (the UART holds
        # the byte, the text's payload, for clocks yet).
        m.d.sync += [self.shift.eq(0), self.clear.eq(0), self.text_in.valid.eq(0)]
        m.d.comb += self.text_in.payload.eq(rx.data)
        with m.If(valid[1] & broken):
            # A broken byte ends its frame too: the host resends a whole line.
            m.d.sync += [state.eq(STATES.index(START)), rejected.eq(1)]
        with m.Elif(valid[1]):
            m.d.sync += [
                state.eq(now.next),
                self.text_in.valid.eq(now.text),
                self.place.eq(now.place), self.shift.eq(now.shift),
                self.clear.eq(now.clear),
            ]
            m.d.sync += [
                accepted.eq(now.accept != Command.NONE), command.eq(now.accept),
                rejected.eq(now.reject),
            ]
            with m.If(now.digit):
                m.d.sync += [first_digit.eq(last_digit), last_digit.eq(rx.data[:4]),
                             self.place_key.eq(places_port.data)]

        # The frame's meaning goes out as the parser holds it: it is used only with the
        # strobe of the command, and no byte arrives between a terminator and its strobe.
        # The grammar takes only switches below SWITCHES: the number's high bits are 0.
        m.d.comb += [self.key.eq(last_digit), self.switch.eq(last_digit[0]),
                     self.number.eq(first_digit[:(SWITCHES - 1).bit_length()])]

        # Answering: a ROM word (registered in the block RAM), then the slot's value
        # (registered), then the character (registered in the block RAM), then the
        # transmitter: no path from the desk or the cartridge runs into the transmitter.
        status, error, mark = self.lines()
        words = status + error + mark
        # One word more: the address moves past the last line's last character. A word
        # names its slot one hot, so picking the slot's value is an and-or (a pair of
        # slots per LUT), not a 12-way multiplexer.
        lines_rom = Memory(shape=9 + NO_SLOT, depth=len(words) + 1,
                           attrs={"rom_style": "block"},
                           init=[base | last << 8 | (slot != NO_SLOT) << 9 + slot
                                 for base, slot, last in words])
        chars_rom = Memory(shape=8, depth=256, attrs={"rom_style": "block"},
                           init=self.characters())
        m.submodules.lines_rom = lines_rom
        m.submodules.chars_rom = chars_rom
        word = lines_rom.read_port()
        char = chars_rom.read_port()
        address = Signal(range(len(words) + 1))
        value = Signal(4)
        m.d.comb += word.addr.eq(address)
        base, last, chosen = word.data[:8], word.data[8], word.data[9:]   # held while
        board = self.board.as_value()                                      # the address is
        slots = ([board[4 * n:4 * n + 4] for n in range(5)] + [self.lamps, self.switches]
                 + [self.cycles[4 * n:4 * n + 4] for n in range(4)] + [self.game])
        assert len(slots) == CODE_SLOT + 1 and BIT + 16 * max(LAMPS, SWITCHES) <= HEX
        # The base's low bits are one more term of the or: the address needs no LUTs.
        m.d.sync += value.eq(reduce(operator.or_, [slot & chosen[n].replicate(4)
                                                   for n, slot in enumerate(slots)],
                                    base[:4]))
        m.d.comb += char.addr.eq(Cat(value, base[4:]))

        # Clocks until `char` is that of `address` (three), or until the desk's ready
        # shows a command's effect (four), as ones.
        wait = Signal(4)
        m.d.sync += wait.eq(wait >> 1)
        waited = ~wait[0]           # (the ones shift out: bit 0 is the last)

        # The answering state machine, one hot (each state a flip-flop: its decisions
        # are a LUT or two): listening; acting on a command until the desk is ready;
        # sending a line from the ROM (the status, "error", or the "#" of the
        # cartridge's line); then the cartridge's line itself.
        listen = Signal(init=1)
        act = Signal()
        send = Signal()             # the status line or "error"
        mark = Signal()             # the "#" before the cartridge's line
        text = Signal()             # the cartridge's line
        error_pending = Signal()    # a frame to answer "error" once this answer is sent
        took = tx.ready & waited    # the transmitter takes the ROM's character
        newline = self.text_out.valid & tx.ready & (self.text_out.payload == ord("\n"))
        m.d.sync += [self.press.eq(0), self.set_switch.eq(0), self.select.eq(0),
                     self.new_game.eq(0)]
        m.d.comb += [
            tx.data.eq(Mux(text, self.text_out.payload, char.data)),
            tx.start.eq((send | mark) & waited | text & self.text_out.valid),
            self.text_out.ready.eq(text & tx.ready),
        ]

        def begin(at):
            m.d.sync += [address.eq(at), wait.eq(0b1111)]

        with m.If(listen & accepted):
            m.d.sync += [listen.eq(0), act.eq(1), wait.eq(0b1111)]
            with m.Switch(command):
                with m.Case(Command.KEY):
                    m.d.sync += self.press.eq(1)
                with m.Case(Command.SWITCH):
                    m.d.sync += self.set_switch.eq(1)
                with m.Case(Command.GAME):
                    m.d.sync += self.select.eq(1)
                with m.Case(Command.RESET):
                    m.d.sync += self.new_game.eq(1)
        with m.Elif(listen & (rejected | error_pending)):
            m.d.sync += [listen.eq(0), send.eq(1), error_pending.eq(0)]
            begin(len(status))
        with m.Elif(listen & self.text_out.valid & (state == STATES.index(START))):
            # Not while a frame arrives: its end would meet the line and be refused,
            # and a text frame's reply would go out before the frame's answer.
            m.d.sync += [listen.eq(0), mark.eq(1)]
            begin(len(status) + len(error))
        with m.If(act & waited & self.ready):
            # The desk's ready is looked at only once it has seen the command: its
            # strobe, the key event, its waiting, then a registered ready.
            m.d.sync += [act.eq(0), send.eq(1)]
            begin(0)
        with m.If((send | mark) & took):
            # One character per byte the transmitter takes.
            m.d.sync += [address.eq(address + 1), wait.eq(0b1111)]
        with m.If(send & took & last):
            m.d.sync += [send.eq(0), listen.eq(1)]
        with m.If(mark & took):
            m.d.sync += [mark.eq(0), text.eq(1)]
        with m.If(text & newline):
            m.d.sync += [text.eq(0), listen.eq(1)]
        with m.If((accepted | rejected) & ~listen):
            m.d.sync += error_pending.eq(1)
        return m
