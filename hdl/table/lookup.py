"""The table's engine: a ROM of every board's move, addressed by the board itself
(rules: hdl/table/cartridge.py's text)."""

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib.memory import Memory

from ..turns import Engine


__all__ = ["BOARDS", "ENTRY", "words", "Lookup"]

BOARDS = 3 ** 9         # every board, by its ternary number
ENTRY = 3               # bits of a move: which empty place, of the first eight


def words(moves):
    """The ROM's words: `moves` (one entry per board number) two to a word, board 2w in
    word w's low bits."""
    moves = tuple(moves)
    if len(moves) != BOARDS or not all(0 <= k < 1 << ENTRY for k in moves):
        raise ValueError(f"a table is {BOARDS} moves of 0..{(1 << ENTRY) - 1}")
    padded = moves + (0,) * (len(moves) % 2)
    return [padded[n] | padded[n + 1] << ENTRY for n in range(0, BOARDS, 2)]


class Lookup(Engine):
    """The engine around a ROM of `moves` (one entry per board number)."""

    def __init__(self, moves):
        self.words = words(moves)
        super().__init__()

    def number(self, board):
        """The board's ternary number: digit k is place k, 1 red (or both), 2 green."""
        return sum(Mux(place.red, 3 ** k, Mux(place.green, 2 * 3 ** k, 0))
                   for k, place in enumerate(board))

    def elaborate(self, platform):
        m = Module()
        m.submodules.rom = rom = Memory(shape=2 * ENTRY, depth=len(self.words),
                                        init=self.words)
        read = rom.read_port()
        number = Signal(range(BOARDS))
        m.d.comb += [number.eq(self.number(self.board)), read.addr.eq(number[1:])]

        # The word was read at the last clock's board, which is this clock's whenever
        # the machine thinks (the module's text): only the half is chosen now.
        entry = Mux(number[0], read.data[ENTRY:], read.data[:ENTRY])
        empty = [~place.red & ~place.green for place in self.board]
        before = 0                                  # empty places before place p
        for p in range(9):
            with m.If(empty[p] & (before == entry)):
                m.d.comb += self.move.eq(p)
            before = before + empty[p]
        m.d.comb += self.done.eq(1)
        return m
