"""The host link: a line protocol on the board's USB serial port (docs/boards.md)."""

from amaranth.hdl import Cat, Const, Module, Mux, Signal
from amaranth.lib import enum, stream, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from hdl.cartridge import BOARD, LAMPS, SWITCHES

from .uart import UartRx, UartTx


__all__ = ["HostLink", "Command", "MARKS", "STATUS_FORMAT", "ERROR_LINE", "MAX_FRAME",
           "TEXT_MARK"]


class Command(enum.Enum, shape=3):
    NONE = 0
    STATUS = 1          # S
    RESET = 2           # R, or R and nine places
    KEY = 3             # K0 .. K8
    SWITCH = 4          # W and a switch 0..3 and 0 or 1
    GAME = 5            # G and a cartridge's number
    TEXT = 6            # T and bytes for the cartridge


class Field(enum.Enum, shape=3):
    """What fills a character of an answer (the ROM's ``kind``)."""
    TEXT = 0            # the ROM's character
    BIT = 1             # "0" or "1": lamp or switch ``select``
    PLACE = 2           # the mark of place ``select``
    HEX = 3             # hex digit ``select`` of the cycles
    CODE = 4            # the cartridge's letter


LETTERS = {"S": Command.STATUS, "R": Command.RESET, "K": Command.KEY,
           "W": Command.SWITCH, "G": Command.GAME, "T": Command.TEXT}
MAX_FRAME = 10
# The lengths a frame may have, terminator not counted.
LENGTHS = {Command.STATUS: (1,), Command.RESET: (1, 10), Command.KEY: (2,),
           Command.SWITCH: (3,), Command.GAME: (2,), Command.TEXT: range(2, MAX_FRAME + 1)}
# "both" only after a position no game reaches (docs/decisions.md).
MARKS = {"empty": ".", "machine": "O", "person": "X", "both": "*"}
# The status line: text, and fields (names) that the hardware fills in.
STATUS_FORMAT = (["place0", "place1", "place2", "|", "place3", "place4", "place5", "|",
                  "place6", "place7", "place8", " g", "code", " l"]
                 + [f"lamp{n}" for n in range(LAMPS)] + [" s"]
                 + [f"switch{n}" for n in range(SWITCHES)]
                 + [" c", "cycles3", "cycles2", "cycles1", "cycles0", "\r\n"])
ERROR_LINE = "error\r\n"
TEXT_MARK = "#"             # begins a line of the cartridge's own text


class HostLink(wiring.Component):
    """Reads command lines from the host and answers each with one line.

    A frame is the bytes up to a CR or LF. It has effect only when it is whole and one of
    the commands of docs/boards.md; anything else, a frame that arrives while the last
    one is still being answered, or a byte with a broken stop bit, is answered
    ``error`` and changes nothing. Empty lines are ignored, so CR LF is one terminator.
    The bytes of a ``T`` frame are the exception: they go to the cartridge as they
    arrive. Each accepted command is answered with the status line once ``ready`` is
    high, so the answer to a key shows the machine's reply. Between answers, a line the
    cartridge sends goes to the host behind a ``#``.

    Parameters
    ----------
    bit_cycles : int
        Clocks per bit on the line.
    games : int
        The cartridges ``G`` may choose from.

    Members
    -------
    rx : In(1)
        Serial data from the host.
    tx : Out(1)
        Serial data to the host.
    board : In(BOARD)
        The board the display shows.
    code : In(8)
        The letter that names the cartridge playing.
    lamps : In(LAMPS)
    switches : In(SWITCHES)
    cycles : In(16)
        The cycles the machine's last move took.
    ready : In(1)
        The desk has acted on the last command and the cartridge waits or has finished.
    key : Out(4)
        With ``press``: the place of a key pressed by the host.
    press : Out(1)
        High for one clock: the host pressed ``key``.
    number : Out(4)
        With ``set_switch``: the switch; with ``select``: the cartridge.
    switch : Out(1)
        With ``set_switch``: the switch's new position.
    set_switch : Out(1)
        High for one clock: set switch ``number`` to ``switch``.
    select : Out(1)
        High for one clock: play cartridge ``number`` from an empty board.
    new_game : Out(1)
        High for one clock: a new game from ``position``.
    position : Out(BOARD)
    text_in : Out(stream.Signature(8))
        The bytes of ``T`` frames, for the cartridge.
    text_out : In(stream.Signature(8))
        The cartridge's lines, for the host.
    """

    rx: In(1, init=1)
    tx: Out(1, init=1)
    board: In(BOARD)
    code: In(8)
    lamps: In(LAMPS)
    switches: In(SWITCHES)
    cycles: In(16)
    ready: In(1)
    key: Out(4)
    press: Out(1)
    number: Out(4)
    switch: Out(1)
    set_switch: Out(1)
    select: Out(1)
    new_game: Out(1)
    position: Out(BOARD)
    text_in: Out(stream.Signature(8))
    text_out: In(stream.Signature(8))

    def __init__(self, *, bit_cycles, games=1):
        self._bit_cycles = bit_cycles
        self._games = games
        super().__init__()

    @staticmethod
    def _lines():
        """The status line and the error line as ROM words: the text, and where a field's
        value goes, which field. Status at address 0, error at ``len(status)``.

        A word is (char, kind, select, last): ``char`` the text (or ``0`` for a bit
        field, whose bit is or-ed in), ``kind`` what fills the character, ``select``
        which place, bit or hex digit, ``last`` the line's last character.
        """
        words = []
        for entry in STATUS_FORMAT:
            if entry.startswith("place"):
                words.append((0, Field.PLACE, int(entry[5:])))
            elif entry.startswith("cycles"):
                words.append((0, Field.HEX, int(entry[6:])))
            elif entry.startswith("lamp"):
                words.append((ord("0"), Field.BIT, int(entry[4:])))
            elif entry.startswith("switch"):
                words.append((ord("0"), Field.BIT, LAMPS + int(entry[6:])))
            elif entry == "code":
                words.append((0, Field.CODE, 0))
            else:
                words.extend((ord(c), Field.TEXT, 0) for c in entry)
        status = [w + (i == len(words) - 1,) for i, w in enumerate(words)]
        error = [(ord(c), Field.TEXT, 0, i == len(ERROR_LINE) - 1)
                 for i, c in enumerate(ERROR_LINE)]
        return status, error

    def elaborate(self, platform):
        m = Module()
        m.submodules.rx = rx = UartRx(self._bit_cycles)
        m.submodules.tx = tx = UartTx(self._bit_cycles)
        m.d.comb += [rx.rx.eq(self.rx), self.tx.eq(tx.tx)]

        # The frame, parsed as its bytes arrive: nothing is stored but what it means.
        command = Signal(Command)
        length = Signal(range(MAX_FRAME + 2))       # saturates one past the longest frame
        bad = Signal()
        argument = Signal(4)
        number = Signal(4)
        position = Signal(BOARD)

        byte = rx.data
        # A letter either case: bit 5 is the case (only letters are compared so).
        upper = Cat(byte[:5], Const(0, 1), byte[6:])
        terminator = (byte == ord("\r")) | (byte == ord("\n"))
        is_mark = {name: (upper if mark.isalpha() else byte) == ord(mark)
                   for name, mark in MARKS.items() if name != "both"}
        digit = byte[:4]            # of a byte "0" to "9"
        is_digit = byte[4:] == ord("0") >> 4

        whole = Signal()            # the frame's length fits its command
        with m.Switch(command):
            for cmd, lengths in LENGTHS.items():
                with m.Case(cmd):
                    m.d.comb += whole.eq(Cat(length == n for n in lengths).any())
        accepted = Signal()         # a terminator ended a good frame
        rejected = Signal()         # a terminator ended a bad one
        m.d.comb += [
            accepted.eq(rx.valid & terminator & (length != 0) & ~bad & ~rx.error & whole),
            rejected.eq(rx.valid & ((terminator & (length != 0)) | rx.error) & ~accepted),
        ]

        def want(condition):
            with m.If(~condition):
                m.d.sync += bad.eq(1)

        with m.If(rx.valid):
            with m.If(terminator | rx.error):
                # A broken byte ends its frame too: the host resends a whole line.
                m.d.sync += [length.eq(0), bad.eq(0), command.eq(Command.NONE)]
            with m.Else():
                with m.If(length != MAX_FRAME + 1):
                    m.d.sync += length.eq(length + 1)
                with m.If(length == 0):
                    # "R" alone is the empty board: no place shifts in.
                    m.d.sync += [bad.eq(1), position.eq(0)]
                    for letter, cmd in LETTERS.items():
                        with m.If(upper == ord(letter)):
                            m.d.sync += [command.eq(cmd), bad.eq(0)]
                with m.Elif(command == Command.TEXT):
                    # Text is the cartridge's: it goes on as it comes.
                    m.d.comb += [self.text_in.payload.eq(byte), self.text_in.valid.eq(1)]
                with m.Elif((command == Command.KEY) & (length == 1)):
                    m.d.sync += argument.eq(digit)
                    want(is_digit & (digit <= 8))
                with m.Elif((command == Command.SWITCH) & (length == 1)):
                    m.d.sync += number.eq(digit)
                    want(is_digit & (digit < SWITCHES))
                with m.Elif(((command == Command.SWITCH) & (length == 2))):
                    m.d.sync += argument.eq(digit)
                    want(is_digit & (digit < 2))
                with m.Elif((command == Command.GAME) & (length == 1)):
                    m.d.sync += number.eq(digit)
                    want(is_digit & (digit < self._games))
                with m.Elif((command == Command.RESET) & (length <= 9)):
                    # Places arrive 0 first; shifting down leaves place 0 at bits 1:0.
                    m.d.sync += position.eq(Cat(position.as_value()[2:], is_mark["machine"],
                                                is_mark["person"]))
                    want(is_mark["empty"] | is_mark["machine"] | is_mark["person"])
                with m.Else():
                    m.d.sync += bad.eq(1)

        # The frame's meaning goes out as the parser holds it: it is used only with the
        # strobe of the command, and no byte arrives between a terminator and its strobe.
        m.d.comb += [self.key.eq(argument), self.switch.eq(argument[0]),
                     self.number.eq(number), self.position.eq(position)]

        # Acting and answering. The lines' text is in a ROM (block RAM), read one
        # character ahead: a ROM word, then the character it makes, then the
        # transmitter. The fields are read into the character register, so no path
        # from the cartridge runs into the transmitter.
        status, error = self._lines()
        rom = Memory(shape=16, depth=len(status) + len(error), attrs={"rom_style": "block"},
                     init=[c | w.value << 8 | sel << 11 | last << 15
                           for c, w, sel, last in status + error])
        m.submodules.rom = rom
        port = rom.read_port()
        address = Signal(range(len(status) + len(error)))
        m.d.comb += port.addr.eq(address)
        word_char, word_kind = port.data[:8], port.data[8:11]
        word_select, word_last = port.data[11:15], port.data[15]

        place = Signal(2)           # red, green of place `word_select`
        with m.Switch(word_select):
            for k in range(9):
                with m.Case(k):
                    m.d.comb += place.eq(self.board[k].as_value())
        bit = Cat(self.lamps, self.switches).bit_select(word_select[:3], 1)
        digit = self.cycles.word_select(word_select[:2], 4)
        mark = Signal(8)
        with m.Switch(place):
            for value, name in ((0, "empty"), (1, "machine"), (2, "person"), (3, "both")):
                with m.Case(value):
                    m.d.comb += mark.eq(ord(MARKS[name]))

        char = Signal(8)            # the character the ROM word makes, registered
        last = Signal()
        wait = Signal(2)            # clocks until `char` is that of `address`
        m.d.sync += [last.eq(word_last), wait.eq(wait >> 1)]
        with m.Switch(word_kind):
            with m.Case(Field.PLACE):
                m.d.sync += char.eq(mark)
            with m.Case(Field.HEX):
                m.d.sync += char.eq(Mux(digit < 10, ord("0") + digit, ord("A") - 10 + digit))
            with m.Case(Field.CODE):
                m.d.sync += char.eq(self.code)
            with m.Default():
                m.d.sync += char.eq(word_char | (bit & (word_kind == Field.BIT)))

        def begin(at, state):
            m.d.sync += [address.eq(at), wait.eq(0b11)]
            m.next = state

        error_pending = Signal()    # a frame to answer "error" once this answer is sent
        settle = Signal(2)
        m.d.sync += [self.press.eq(0), self.set_switch.eq(0), self.select.eq(0),
                     self.new_game.eq(0)]

        def send():
            # One character per byte the transmitter takes; then back to listening.
            m.d.comb += [tx.data.eq(char), tx.start.eq(wait == 0)]
            with m.If(tx.ready & (wait == 0)):
                m.d.sync += [address.eq(address + 1), wait.eq(0b11)]
                with m.If(last):
                    m.next = "LISTEN"

        with m.FSM() as fsm:
            with m.State("LISTEN"):
                with m.If(accepted):
                    m.d.sync += settle.eq(3)
                    with m.Switch(command):
                        with m.Case(Command.KEY):
                            m.d.sync += self.press.eq(1)
                        with m.Case(Command.SWITCH):
                            m.d.sync += self.set_switch.eq(1)
                        with m.Case(Command.GAME):
                            m.d.sync += self.select.eq(1)
                        with m.Case(Command.RESET):
                            m.d.sync += self.new_game.eq(1)
                    m.next = "ACT"
                with m.Elif(rejected | error_pending):
                    m.d.sync += error_pending.eq(0)
                    begin(len(status), "ERROR")
                with m.Elif(self.text_out.valid):
                    m.next = "TEXT_MARK"
            with m.State("ACT"):
                # The desk's ready is looked at only once it has seen the command.
                with m.If(settle != 0):
                    m.d.sync += settle.eq(settle - 1)
                with m.Elif(self.ready):
                    begin(0, "STATUS")
            with m.State("STATUS"):
                send()
            with m.State("ERROR"):
                send()
            with m.State("TEXT_MARK"):
                m.d.comb += [tx.data.eq(ord(TEXT_MARK)), tx.start.eq(1)]
                with m.If(tx.ready):
                    m.next = "TEXT"
            with m.State("TEXT"):
                # The cartridge's line, byte by byte, up to its newline.
                m.d.comb += [tx.data.eq(self.text_out.payload),
                             tx.start.eq(self.text_out.valid),
                             self.text_out.ready.eq(tx.ready)]
                with m.If(self.text_out.valid & tx.ready
                          & (self.text_out.payload == ord("\n"))):
                    m.next = "LISTEN"
        with m.If((accepted | rejected) & ~fsm.ongoing("LISTEN")):
            m.d.sync += error_pending.eq(1)
        return m
