"""What Ultimate Tic-Tac-Toe's cartridge says to the host, a byte at a time: the
engine's line, the position's, and ``?`` for a refused position (docs/ultimate.md,
"The byte stream")."""

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal, unsigned
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from .search import NODES, VALUE
from .rules import CELLS

__all__ = ["MOVE_LINE", "POSITION_LINE", "REFUSED_LINE", "SILENT", "SAID", "CELLS_AT",
           "decimal", "hex_digit", "LineWriter"]

# What the cartridge says, one byte a step: the engine's line, the position's, "?".
MOVE_LINE, POSITION_LINE, REFUSED_LINE, SILENT = 0, 20, 106, 108
SAID = 105                  # the position line's newline: then silent
CELLS_AT = POSITION_LINE + 1


def decimal(value):
    """Two ASCII digits of `value` (0-80), as two byte signals (tens, units)."""
    table = Array(Const(v // 10 << 4 | v % 10, 8) for v in range(128))[value]
    return ord("0") + table[4:], ord("0") + table[:4]


def hex_digit(nibble):
    return Mux(nibble < 10, ord("0") + nibble, ord("A") - 10 + nibble)


class LineWriter(wiring.Component):
    """The lines, each a walk of ``say`` through the steps of one table: from
    `MOVE_LINE` the engine's line (``M``, its move, value and nodes) runs into the
    position's (``P``, the 81 cells, the last move) and from `REFUSED_LINE` ``?`` does;
    after `SAID` it is `SILENT`. ``begin`` starts a line at the step ``line``.

    One decimal converter, one hex digit and one look at a cell serve every line; the
    look at a cell is lent to the position loader while ``loading`` (the cell
    ``number``). A byte goes out from a register, valid the clock after ``say``
    settles: the look at a cell is deep. The registers a line tells of hold still while
    it is said (the cartridge waits for ``silent``).

    Members
    -------
    xs, os : In(81)
        The position's X's and O's.
    last_b, last_k : In(4)
        The last move: small board, cell.
    has_last : In(1)
        There was a last move, else ``--`` is said.
    best_b, best_k : In(4)
        The engine's move.
    value : In(VALUE)
        The engine's value, for the player who moved.
    nodes : In(NODES)
        The nodes the engine searched.
    begin : In(1)
        Say from step ``line`` on (it wins over the step a byte out takes).
    line : In(range(SILENT + 1))
        `MOVE_LINE`, `POSITION_LINE` or `REFUSED_LINE`.
    loading : In(1)
        The look at a cell is the loader's.
    number : In(7)
        The cell the loader looks at.
    x_at, o_at : Out(1)
        Combinational. The cell looked at holds an X, an O.
    silent : Out(1)
        Combinational. No line is being said.
    tx : Out(stream.Signature(unsigned(8)))
        The bytes said.
    """

    xs: In(CELLS)
    os: In(CELLS)
    last_b: In(4)
    last_k: In(4)
    has_last: In(1)
    best_b: In(4)
    best_k: In(4)
    value: In(VALUE)
    nodes: In(NODES)
    begin: In(1)
    line: In(range(SILENT + 1))
    loading: In(1)
    number: In(7)
    x_at: Out(1)
    o_at: Out(1)
    silent: Out(1)
    tx: Out(stream.Signature(unsigned(8)))

    def elaborate(self, platform):
        m = Module()
        say = Signal(range(SILENT + 1), init=SILENT)
        m.d.comb += self.silent.eq(say == SILENT)
        at = Signal(7)
        m.d.comb += [at.eq(Mux(self.loading, self.number, say - CELLS_AT)),
                     self.x_at.eq(self.xs.bit_select(at, 1)),
                     self.o_at.eq(self.os.bit_select(at, 1))]
        moving = say < POSITION_LINE
        told = Signal(7)                    # the engine's move, or the last move
        m.d.comb += told.eq(Mux(moving, self.best_b, self.last_b) * 9
                            + Mux(moving, self.best_k, self.last_k))
        tens_digit, units_digit = decimal(told)
        hexes = Cat(self.nodes, self.value, self.value[-1].replicate(2))
        nibble = hexes.word_select(Mux(say < 10, 17 - say, 18 - say)[:4], 4)
        payload = Signal(8)
        with m.If((say >= CELLS_AT) & (say < CELLS_AT + 81)):
            m.d.comb += payload.eq(Mux(self.x_at, ord("X"), Mux(self.o_at, ord("O"), ord("."))))
        with m.Elif((say >= 4) & (say < 10) | (say >= 11) & (say < 19)):
            m.d.comb += payload.eq(hex_digit(nibble))
        with m.Else():
            with m.Switch(say):
                with m.Case(MOVE_LINE):
                    m.d.comb += payload.eq(ord("M"))
                with m.Case(POSITION_LINE):
                    m.d.comb += payload.eq(ord("P"))
                with m.Case(REFUSED_LINE):
                    m.d.comb += payload.eq(ord("?"))
                with m.Case(MOVE_LINE + 3, MOVE_LINE + 10, CELLS_AT + 81):
                    m.d.comb += payload.eq(ord(" "))
                with m.Case(MOVE_LINE + 1, CELLS_AT + 82):
                    m.d.comb += payload.eq(Mux(moving | self.has_last, tens_digit, ord("-")))
                with m.Case(MOVE_LINE + 2, CELLS_AT + 83):
                    m.d.comb += payload.eq(Mux(moving | self.has_last, units_digit, ord("-")))
                with m.Default():
                    m.d.comb += payload.eq(ord("\n"))
        said, after = Signal(8, init=ord("\n")), Signal.like(say)
        m.d.sync += [said.eq(payload), after.eq(say)]
        m.d.comb += [self.tx.valid.eq(~self.silent & (say == after)), self.tx.payload.eq(said)]
        with m.If(self.tx.valid & self.tx.ready):
            m.d.sync += say.eq(Mux(say == SAID, SILENT,
                                   Mux(say == REFUSED_LINE + 1, POSITION_LINE, say + 1)))
        with m.If(self.begin):
            m.d.sync += say.eq(self.line)
        return m
