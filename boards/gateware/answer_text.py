"""The host link's answers as characters: the status line, ``error`` and the ``#`` mark."""

import operator
from functools import reduce

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import data, wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out

from firmware_ref.places import MARKS
from hdl.cartridge import BOARD, LAMPS, SWITCHES


__all__ = ["AnswerText", "Reading", "Status", "STATUS_FORMAT", "ERROR_LINE", "TEXT_MARK",
           "STATUS_AT", "ERROR_AT", "MARK_AT", "DEPTH", "lines", "characters"]

# The status line: text, and fields (names) that the hardware fills in.
STATUS_FORMAT = (["place0", "place1", "place2", "|", "place3", "place4", "place5", "|",
                  "place6", "place7", "place8", " g", "code", " l"]
                 + [f"lamp{n}" for n in range(LAMPS)] + [" s"]
                 + [f"switch{n}" for n in range(SWITCHES)]
                 + [" c", "cycles3", "cycles2", "cycles1", "cycles0", "\r\n"])
ERROR_LINE = "error\r\n"
TEXT_MARK = b"#"            # begins a line of the cartridge's own text

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


def lines():
    """The first ROM: the status line at address 0, the error line after it, then the
    text mark. Each word is (base character, slot, last of its line)."""
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


def characters(codes):
    """The second ROM: what each address stands for, for the cartridges `codes`."""
    table = list(range(128)) + [0] * 128
    for value in range(16):
        table[PLACE_LO + value] = ord(MARKS[value & 3])
        table[PLACE_HI + value] = ord(MARKS[value >> 2])
        for n in range(max(LAMPS, SWITCHES)):
            table[BIT + 16 * n + value] = ord("0") + (value >> n & 1)
        table[HEX + value] = ord(HEX_DIGITS[value])
    for value, code in enumerate(codes):
        table[CODE + value] = ord(code)
    return table


_STATUS, _ERROR, _MARK = lines()
STATUS_AT, ERROR_AT, MARK_AT = 0, len(_STATUS), len(_STATUS) + len(_ERROR)
DEPTH = MARK_AT + len(_MARK) + 1    # one word more: past the last line's last character


class Status(data.Struct):
    """The fields of the status line, as the desk shows them to the link.

    Members
    -------
    board : BOARD
        The board the display shows.
    game : 4
        The cartridge playing (its letter is in the line).
    lamps : LAMPS
    switches : SWITCHES
    cycles : 16
        The cycles the machine's last move took.
    """
    board: BOARD
    game: 4
    lamps: LAMPS
    switches: SWITCHES
    cycles: 16


class Reading(wiring.Signature):
    """The answers' text as its reader sees it: it names a character, the text gives it.

    Members
    -------
    address : Out(range(DEPTH))
        The character, held while it is read.
    last : In(1)
        A clock after ``address`` is set: it is its line's last character.
    char : In(8)
        Three clocks after ``address`` is set: its character.
    """

    def __init__(self):
        super().__init__({"address": Out(range(DEPTH)), "last": In(1), "char": In(8)})


class AnswerText(wiring.Component):
    """The character at ``address`` of the answers' lines, with the desk's fields filled
    in: a ROM word (registered in the block RAM), then the slot's value (registered),
    then the character (registered in the block RAM), so ``char`` is that of an address
    three clocks after it is set, and no path from the desk or the cartridge runs into
    the transmitter. The status line is at `STATUS_AT`, ``error`` at `ERROR_AT`, the
    ``#`` mark at `MARK_AT`.

    Parameters
    ----------
    codes : str
        The letters of the cartridges, cartridge 0 first.

    Members
    -------
    read : In(Reading())
        The character asked for, and it.
    status : In(Status)
        The fields of the status line.
    """

    read: In(Reading())
    status: In(Status)

    def __init__(self, codes):
        self._codes = codes
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        words = _STATUS + _ERROR + _MARK
        # A word names its slot one hot, so picking the slot's value is an and-or (a
        # pair of slots per LUT), not a 12-way multiplexer.
        m.submodules.lines_rom = lines_rom = Memory(
            shape=9 + NO_SLOT, depth=len(words) + 1, attrs={"rom_style": "block"},
            init=[base | last << 8 | (slot != NO_SLOT) << 9 + slot
                  for base, slot, last in words])
        m.submodules.chars_rom = chars_rom = Memory(
            shape=8, depth=256, attrs={"rom_style": "block"},
            init=characters(self._codes))
        word, char = lines_rom.read_port(), chars_rom.read_port()
        value = Signal(4)
        read, status = self.read, self.status
        m.d.comb += word.addr.eq(read.address)
        base, chosen = word.data[:8], word.data[9:]     # held while the address is
        m.d.comb += [read.last.eq(word.data[8]), read.char.eq(char.data)]
        board = status.board.as_value()
        slots = ([board[4 * n:4 * n + 4] for n in range(5)] + [status.lamps, status.switches]
                 + [status.cycles[4 * n:4 * n + 4] for n in range(4)] + [status.game])
        assert len(slots) == CODE_SLOT + 1 and BIT + 16 * max(LAMPS, SWITCHES) <= HEX
        # The base's low bits are one more term of the or: the address needs no LUTs.
        m.d.sync += value.eq(reduce(operator.or_, [slot & chosen[n].replicate(4)
                                                   for n, slot in enumerate(slots)],
                                    base[:4]))
        m.d.comb += char.addr.eq(Cat(value, base[4:]))
        return m
