"""The host link: a line protocol on the board's USB serial port (docs/boards.md)."""

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import enum, stream, wiring
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

    def _status(self):
        """The status line, one 8-bit value per character: text, or a field's value."""
        chars = []
        for entry in STATUS_FORMAT:
            if entry.startswith("place"):
                place = self.board[int(entry[5:])]
                chars.append(Mux(place.green,
                                 Mux(place.red, ord(MARKS["both"]), ord(MARKS["person"])),
                                 Mux(place.red, ord(MARKS["machine"]), ord(MARKS["empty"]))))
            elif entry.startswith("cycles"):
                n = int(entry[6:])
                digit = self.cycles[4 * n:4 * n + 4]
                chars.append(Mux(digit < 10, ord("0") + digit, ord("A") - 10 + digit))
            elif entry.startswith("lamp"):
                chars.append(ord("0") + self.lamps[int(entry[4:])])
            elif entry.startswith("switch"):
                chars.append(ord("0") + self.switches[int(entry[6:])])
            elif entry == "code":
                chars.append(self.code)
            else:
                chars.extend(ord(c) for c in entry)
        return chars

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
        upper = Mux((byte >= ord("a")) & (byte <= ord("z")), byte - 32, byte)
        terminator = (byte == ord("\r")) | (byte == ord("\n"))
        is_mark = {name: upper == ord(mark) for name, mark in MARKS.items() if name != "both"}
        digit = byte - ord("0")

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
                    m.d.sync += bad.eq(1)
                    for letter, cmd in LETTERS.items():
                        with m.If(upper == ord(letter)):
                            m.d.sync += [command.eq(cmd), bad.eq(0)]
                with m.Elif(command == Command.TEXT):
                    # Text is the cartridge's: it goes on as it comes.
                    m.d.comb += [self.text_in.payload.eq(byte), self.text_in.valid.eq(1)]
                with m.Elif((command == Command.KEY) & (length == 1)):
                    m.d.sync += argument.eq(digit)
                    want((byte >= ord("0")) & (byte <= ord("8")))
                with m.Elif((command == Command.SWITCH) & (length == 1)):
                    m.d.sync += number.eq(digit)
                    want((byte >= ord("0")) & (byte < ord("0") + SWITCHES))
                with m.Elif(((command == Command.SWITCH) & (length == 2))):
                    m.d.sync += argument.eq(digit)
                    want((byte == ord("0")) | (byte == ord("1")))
                with m.Elif((command == Command.GAME) & (length == 1)):
                    m.d.sync += number.eq(digit)
                    want((byte >= ord("0")) & (byte < ord("0") + self._games))
                with m.Elif((command == Command.RESET) & (length <= 9)):
                    # Places arrive 0 first; shifting down leaves place 0 at bits 1:0.
                    m.d.sync += position.eq(Cat(position.as_value()[2:], is_mark["machine"],
                                                is_mark["person"]))
                    want(is_mark["empty"] | is_mark["machine"] | is_mark["person"])
                with m.Else():
                    m.d.sync += bad.eq(1)

        # Acting and answering.
        status = self._status()
        error = [ord(c) for c in ERROR_LINE]
        index = Signal(range(max(len(status), len(error))))
        char = Signal(8)
        error_pending = Signal()    # a frame to answer "error" once this answer is sent
        settle = Signal(2)
        m.d.sync += [self.press.eq(0), self.set_switch.eq(0), self.select.eq(0),
                     self.new_game.eq(0)]
        m.d.comb += tx.data.eq(char)

        def send(line):
            # One character per byte the transmitter takes; then back to listening.
            with m.Switch(index):
                for i, value in enumerate(line):
                    with m.Case(i):
                        m.d.comb += char.eq(value)
            m.d.comb += tx.start.eq(1)
            with m.If(tx.ready):
                m.d.sync += index.eq(index + 1)
                with m.If(index == len(line) - 1):
                    m.next = "LISTEN"

        with m.FSM() as fsm:
            with m.State("LISTEN"):
                with m.If(accepted):
                    m.d.sync += [self.key.eq(argument), self.switch.eq(argument[0]),
                                 self.number.eq(number), settle.eq(3)]
                    with m.Switch(command):
                        with m.Case(Command.KEY):
                            m.d.sync += self.press.eq(1)
                        with m.Case(Command.SWITCH):
                            m.d.sync += self.set_switch.eq(1)
                        with m.Case(Command.GAME):
                            m.d.sync += self.select.eq(1)
                        with m.Case(Command.RESET):
                            m.d.sync += [
                                self.new_game.eq(1),
                                self.position.eq(Mux(length == 1, 0, position)),
                            ]
                    m.next = "ACT"
                with m.Elif(rejected | error_pending):
                    m.d.sync += [error_pending.eq(0), index.eq(0)]
                    m.next = "ERROR"
                with m.Elif(self.text_out.valid):
                    m.next = "TEXT_MARK"
            with m.State("ACT"):
                # The desk's ready is looked at only once it has seen the command.
                with m.If(settle != 0):
                    m.d.sync += settle.eq(settle - 1)
                with m.Elif(self.ready):
                    m.d.sync += index.eq(0)
                    m.next = "STATUS"
            with m.State("STATUS"):
                send(status)
            with m.State("ERROR"):
                send(error)
            with m.State("TEXT_MARK"):
                m.d.comb += [char.eq(ord(TEXT_MARK)), tx.start.eq(1)]
                with m.If(tx.ready):
                    m.next = "TEXT"
            with m.State("TEXT"):
                # The cartridge's line, byte by byte, up to its newline.
                m.d.comb += [char.eq(self.text_out.payload), tx.start.eq(self.text_out.valid),
                             self.text_out.ready.eq(tx.ready)]
                with m.If(self.text_out.valid & tx.ready
                          & (self.text_out.payload == ord("\n"))):
                    m.next = "LISTEN"
        with m.If((accepted | rejected) & ~fsm.ongoing("LISTEN")):
            m.d.sync += error_pending.eq(1)
        return m
