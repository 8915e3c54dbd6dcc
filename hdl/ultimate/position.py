"""The position the engine owns (docs/ultimate.md, "The engine in hardware"): X's and
O's cells, the last move and the player to move, set up by the cartridge while the
engine is idle and moved on by the search."""

from amaranth.hdl import Array, Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .rules import CELLS, small

__all__ = ["cell", "Position"]


def cell(m, b, k):
    """The 81-bit one-hot of cell `k` of small board `b`: each decoded on its own, so
    that a cell is one gate of two."""
    boards, places, cells = Signal(9), Signal(9), Signal(CELLS)
    m.d.comb += [boards.eq(Cat(b == i for i in range(9))),
                 places.eq(Cat(k == i for i in range(9))),
                 cells.eq(Cat(boards[i // 9] & places[i % 9] for i in range(CELLS)))]
    return cells


class Position(wiring.Component):
    """The position's registers. Every change of the board goes through one gate a
    cell: the cells emptied, then the cells set (X's or O's); the position's registers
    were most of a build that did not fit.

    While ``idle`` the cartridge sets them up: ``clear`` empties the board, ``stone``
    puts a stone (X if ``stone_x``) on the cell ``at_b``, ``at_k``, ``put`` sets the last
    move and the turn, and ``play`` makes a move on that cell for the player to move,
    each in that order, the later winning. The search then moves on it: ``walk`` sets
    the last move's small board alone (INIT walks the small boards with it), ``make``
    plays ``move`` for the player to move, ``unmake`` takes the last move back and puts
    the one before it.

    Members
    -------
    xs, os : Out(81)
        X's and O's cells.
    last_b, last_k : Out(4)
        The last move: small board, cell.
    has_last : Out(1)
        There was a last move.
    x_turn : Out(1)
        X is to move.
    view_b : In(4)
        The small board ``x_view`` and ``o_view`` show.
    x_view, o_view : Out(9)
        Combinational. Small board ``view_b``'s X's and O's.
    idle : In(1)
        The engine is idle: the set-up commands are taken.
    clear, stone, stone_x, put, play : In(1)
        The set-up commands (above).
    at_b, at_k : In(4)
        The cell ``stone`` and ``play`` set.
    put_b, put_k : In(4)
        The last move ``put`` sets.
    put_has_last, put_x_turn : In(1)
        Whether there was one, and the player to move, that ``put`` sets.
    walk : In(1)
        The last move's small board is ``walk_b``.
    walk_b : In(4)
        The small board ``walk`` sets.
    make : In(1)
        The player to move plays ``move``.
    move : In(81)
        The cell ``make`` plays, one-hot.
    move_b, move_k : In(4)
        That cell: small board, cell.
    unmake : In(1)
        The last move is taken back; the one before it is ``back_b``, ``back_k``,
        ``back_has_last``.
    back_b, back_k : In(4)
        The move before the last: small board, cell.
    back_has_last : In(1)
        There was a move before the last.
    """

    xs: Out(CELLS)
    os: Out(CELLS)
    last_b: Out(4)
    last_k: Out(4)
    has_last: Out(1)
    x_turn: Out(1, init=1)
    view_b: In(4)
    x_view: Out(9)
    o_view: Out(9)
    idle: In(1)
    clear: In(1)
    stone: In(1)
    stone_x: In(1)
    at_b: In(4)
    at_k: In(4)
    put: In(1)
    put_b: In(4)
    put_k: In(4)
    put_has_last: In(1)
    put_x_turn: In(1)
    play: In(1)
    walk: In(1)
    walk_b: In(4)
    make: In(1)
    move: In(CELLS)
    move_b: In(4)
    move_k: In(4)
    unmake: In(1)
    back_b: In(4)
    back_k: In(4)
    back_has_last: In(1)

    def elaborate(self, platform):
        m = Module()
        m.d.comb += [self.x_view.eq(Array(small(self.xs, b) for b in range(9))[self.view_b]),
                     self.o_view.eq(Array(small(self.os, b) for b in range(9))[self.view_b])]
        last, placed = cell(m, self.last_b, self.last_k), cell(m, self.at_b, self.at_k)
        erase, write, to_x = Signal(CELLS), Signal(CELLS), Signal()
        m.d.sync += [self.xs.eq(self.xs & ~erase | write & to_x.replicate(CELLS)),
                     self.os.eq(self.os & ~erase | write & ~to_x.replicate(CELLS))]

        with m.If(self.idle):
            with m.If(self.clear):
                m.d.comb += erase.eq(~0)
                m.d.sync += [self.has_last.eq(0), self.last_b.eq(0), self.last_k.eq(0),
                             self.x_turn.eq(1)]
            with m.If(self.stone):
                m.d.comb += [write.eq(placed), to_x.eq(self.stone_x)]
            with m.If(self.put):
                m.d.sync += [self.last_b.eq(self.put_b), self.last_k.eq(self.put_k),
                             self.has_last.eq(self.put_has_last),
                             self.x_turn.eq(self.put_x_turn)]
            with m.If(self.play):
                m.d.comb += [write.eq(placed), to_x.eq(self.x_turn)]
                m.d.sync += [self.last_b.eq(self.at_b), self.last_k.eq(self.at_k),
                             self.has_last.eq(1), self.x_turn.eq(~self.x_turn)]
        # The search's changes, after the set-up's: `walk` begins while idle.
        with m.If(self.walk):
            m.d.sync += self.last_b.eq(self.walk_b)
        with m.If(self.make):
            m.d.comb += [write.eq(self.move), to_x.eq(self.x_turn)]
            m.d.sync += [self.last_b.eq(self.move_b), self.last_k.eq(self.move_k),
                         self.has_last.eq(1), self.x_turn.eq(~self.x_turn)]
        with m.If(self.unmake):
            m.d.comb += erase.eq(last)
            m.d.sync += [self.last_b.eq(self.back_b), self.last_k.eq(self.back_k),
                         self.has_last.eq(self.back_has_last), self.x_turn.eq(~self.x_turn)]
        return m
