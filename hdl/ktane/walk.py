"""The walk's key and the press the judge wants: the manual page read at a row."""

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..cartridge import BOARD
from ..turns import completes
from .chart import Chart
from .keypad import pieces


__all__ = ["Walk", "PASS"]

PASS = 9                    # the press that is not a key


class Walk(wiring.Component):
    """The chart at ``row`` and the board's column, through the labels: the key the
    walk looks at, whether it is taken, and the press JUDGE wants there.

    The column (more Xs, as many, more Os; X or O up next) is registered, a short path:
    the board and Up Next change only on the way to READY, and a walk begins a clock
    after READY at the soonest, so the column is the board's by then.

    Members
    -------
    board : In(BOARD)
        The keypad.
    up : In(1)
        Up Next: 1 X, 0 O.
    row : In(range(9))
        The chart's row, 0-8.
    label : Out(range(9))
        The chart's label at the row and column (the page's number less one), for
        the labels to find its key.
    place : In(range(9))
        The key showing ``label``.
    taken : Out(1)
        A piece is on ``place``: the walk moves down a row.
    wanted : Out(range(PASS + 1))
        The press wanted: `PASS` when Up Next on ``place`` makes a line, else ``place``.
    """

    board: In(BOARD)
    up: In(1)
    row: In(range(9))
    label: Out(range(9))
    place: In(range(9))
    taken: Out(1)
    wanted: Out(range(PASS + 1))

    def elaborate(self, platform):
        m = Module()
        m.submodules.chart = chart = Chart()
        xs, os, empty = pieces(self.board)
        more_x = sum(xs) > sum(os)
        same = sum(xs) == sum(os)
        column = Signal(range(6))
        m.d.sync += column.eq(Mux(more_x, 0, Mux(same, 2, 4)) + ~self.up)
        m.d.comb += [chart.row.eq(self.row), chart.column.eq(column),
                     self.label.eq(chart.label)]
        place = self.place
        line = completes(Mux(self.up, xs, os), empty).bit_select(place, 1)
        m.d.comb += [self.taken.eq(~empty.bit_select(place, 1)),
                     self.wanted.eq(Mux(line, PASS, place))]
        return m
