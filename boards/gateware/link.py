"""The host link: a line protocol on the board's USB serial port (docs/boards.md)."""

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import enum, wiring
from amaranth.lib.wiring import In, Out

from .uart import UartRx, UartTx


__all__ = ["HostLink", "Command", "STATUS_FORMAT", "ERROR_LINE", "MAX_FRAME"]


class Command(enum.Enum, shape=3):
    NONE = 0
    STATUS = 1          # S
    RESET = 2           # R, or R and nine places
    KEY = 3             # K0 .. K8
    USERBEGINS = 4      # U0, U1
    PIN = 5             # P0, P1


LETTERS = {"S": Command.STATUS, "R": Command.RESET, "K": Command.KEY,
           "U": Command.USERBEGINS, "P": Command.PIN}
# The lengths a frame may have, terminator not counted.
LENGTHS = {Command.STATUS: (1,), Command.RESET: (1, 10), Command.KEY: (2,),
           Command.USERBEGINS: (2,), Command.PIN: (2,)}
MAX_FRAME = 10
# As firmware_ref.eth.alg prints boards; "both" only after a position no game reaches, when
# the chip's stale move lands on the user's stone (docs/decisions.md).
MARKS = {"empty": ".", "chip": "O", "user": "X", "both": "*"}
# The status line: text, and fields (names) that the hardware fills in.
STATUS_FORMAT = ["board0", "board1", "board2", "|", "board3", "board4", "board5", "|",
                 "board6", "board7", "board8",
                 " p", "prompt", " f", "fin", " w", "win", " u", "userbegins", " n", "piN",
                 " c", "cycles3", "cycles2", "cycles1", "cycles0", "\r\n"]
ERROR_LINE = "error\r\n"


class HostLink(wiring.Component):
    """Reads command lines from the host and answers each with one line.

    A frame is the bytes up to a CR or LF. It has effect only when it is whole and one of
    the commands of docs/boards.md; anything else, a frame that arrives while the last
    one is still being answered, or a byte with a broken stop bit, is answered
    ``error`` and changes nothing. Empty lines are ignored, so CR LF is one terminator.
    Each accepted command is answered with the status line once ``ready`` is high, so the
    answer to a key shows the chip's reply.

    Members
    -------
    rx : In(1)
        Serial data from the host.
    tx : Out(1)
        Serial data to the host.
    board : In(18)
        The board the display shows, in the chip's ``led`` order.
    prompt, fin, win, userbegins, piN : In(1)
        The chip's status pins and the switches.
    cycles : In(16)
        The cycles the chip's last move took.
    ready : In(1)
        The desk has acted on the last command and the chip waits or has finished.
    key : Out(4)
        With ``press``: the place of a key pressed by the host.
    press : Out(1)
        High for one clock: the host pressed ``key``.
    switch : Out(1)
        With ``set_userbegins`` or ``set_piN``: the switch's new position.
    set_userbegins, set_piN : Out(1)
        High for one clock: set the switch to ``switch``.
    new_game : Out(1)
        High for one clock: reset the chip and enter ``position``.
    position : Out(18)
        With ``new_game``: the stones to enter, in the chip's ``led`` order.
    """

    rx: In(1, init=1)
    tx: Out(1, init=1)
    board: In(18)
    prompt: In(1)
    fin: In(1)
    win: In(1)
    userbegins: In(1)
    piN: In(1)
    cycles: In(16)
    ready: In(1)
    key: Out(4)
    press: Out(1)
    switch: Out(1)
    set_userbegins: Out(1)
    set_piN: Out(1)
    new_game: Out(1)
    position: Out(18)

    def __init__(self, *, bit_cycles):
        self._bit_cycles = bit_cycles
        super().__init__()

    def _status(self):
        """The status line, one 8-bit value per character: text, or a field's value."""
        chars = []
        for entry in STATUS_FORMAT:
            if entry.startswith("board"):
                k = int(entry[5:])
                chip, user = self.board[2 * k], self.board[2 * k + 1]
                chars.append(Mux(user, Mux(chip, ord(MARKS["both"]), ord(MARKS["user"])),
                                 Mux(chip, ord(MARKS["chip"]), ord(MARKS["empty"]))))
            elif entry.startswith("cycles"):
                n = int(entry[6:])
                digit = self.cycles[4 * n:4 * n + 4]
                chars.append(Mux(digit < 10, ord("0") + digit, ord("A") - 10 + digit))
            elif entry.isidentifier():
                chars.append(ord("0") + getattr(self, entry))
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
        position = Signal(18)

        byte = rx.data
        upper = Mux((byte >= ord("a")) & (byte <= ord("z")), byte - 32, byte)
        terminator = (byte == ord("\r")) | (byte == ord("\n"))
        is_mark = {name: upper == ord(mark) for name, mark in MARKS.items() if name != "both"}

        whole = Signal()            # the frame's length fits its command
        m.d.comb += whole.eq(0)
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
                with m.Elif((command == Command.KEY) & (length == 1)):
                    m.d.sync += argument.eq(byte - ord("0"))
                    with m.If((byte < ord("0")) | (byte > ord("8"))):
                        m.d.sync += bad.eq(1)
                with m.Elif(((command == Command.USERBEGINS) | (command == Command.PIN))
                            & (length == 1)):
                    m.d.sync += argument.eq(byte[0])
                    with m.If((byte != ord("0")) & (byte != ord("1"))):
                        m.d.sync += bad.eq(1)
                with m.Elif((command == Command.RESET) & (length <= 9)):
                    # Places arrive 0 first; shifting down leaves place 0 at bits 1:0.
                    m.d.sync += position.eq(Cat(position[2:], is_mark["chip"], is_mark["user"]))
                    with m.If(~is_mark["empty"] & ~is_mark["chip"] & ~is_mark["user"]):
                        m.d.sync += bad.eq(1)
                with m.Else():
                    m.d.sync += bad.eq(1)

        # Acting and answering.
        status = self._status()
        error = [ord(c) for c in ERROR_LINE]
        index = Signal(range(max(len(status), len(error))))
        char = Signal(8)
        error_pending = Signal()    # a frame to answer "error" once this answer is sent
        settle = Signal(2)
        m.d.sync += [
            self.press.eq(0), self.set_userbegins.eq(0), self.set_piN.eq(0),
            self.new_game.eq(0),
        ]
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
                                 settle.eq(3)]
                    with m.Switch(command):
                        with m.Case(Command.KEY):
                            m.d.sync += self.press.eq(1)
                        with m.Case(Command.USERBEGINS):
                            m.d.sync += self.set_userbegins.eq(1)
                        with m.Case(Command.PIN):
                            m.d.sync += self.set_piN.eq(1)
                        with m.Case(Command.RESET):
                            m.d.sync += [
                                self.new_game.eq(1),
                                self.position.eq(Mux(length == 1, 0, position)),
                            ]
                    m.next = "ACT"
                with m.Elif(rejected | error_pending):
                    m.d.sync += [error_pending.eq(0), index.eq(0)]
                    m.next = "ERROR"
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
        with m.If((accepted | rejected) & ~fsm.ongoing("LISTEN")):
            m.d.sync += error_pending.eq(1)
        return m
