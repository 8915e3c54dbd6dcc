"""A new module: the edgework, the labels and the five pieces it begins with."""

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..cartridge import BOARD
from ..turns import completes
from .host import EDGE
from .keypad import pieces


__all__ = ["NewModule", "PIECES"]

PIECES = 5                  # on the board when a module begins


class NewModule(wiring.Component):
    """The first part of a module, from ``start`` (and power-up) to its first wait, one
    clock each (hdl/ktane/cartridge.py's text has the rules):

    - BEGIN: the board empty, the labels in reading order; the host's edgework if it set
      one, else DIGIT draws it.
    - DIGIT: the LFSR's low nibble ``v`` when below 10 is the last digit, bit 4 the
      parallel port, bits 5-6 the lit and bits 7-8 the unlit indicators.
    - SHUFFLE, with shuffled labels: swaps labels ``i`` and ``v`` for i = 8 down to 1,
      each once ``v <= i`` (Fisher-Yates).
    - PIECES: X (bit 4 set) or O on place ``v`` when it is empty and the piece makes no
      line there, until five are on; the clock after the fifth is ``done``, and the
      module is the defuser's until the next ``start``.

    Members
    -------
    start : In(1)
        A new module: BEGIN on the next clock, from any state.
    word : In(16)
        The LFSR's word on this clock.
    board : In(BOARD)
        The keypad, for the pieces' draws.
    host, host_set, shuffle : In(EDGE), In(1), In(1)
        The host's edgework and whether it set one, and whether labels are shuffled.
    edge : Out(EDGE)
        The module's edgework, registered.
    identity, swap, i, j : Out(1), Out(1), Out(range(9)), Out(range(9))
        To the labels: reading order (BEGIN), and a Fisher-Yates swap of labels ``i``
        and ``j``.
    clear : Out(1)
        To the keypad: the board empty (BEGIN).
    put, at, x : Out(1), Out(range(9)), Out(1)
        To the keypad: piece ``x`` (1 X) on place ``at``.
    done : Out(1)
        The pieces are on: bit 4 of this clock's word is Up Next, and the module waits.
    """

    start: In(1)
    word: In(16)
    board: In(BOARD)
    host: In(EDGE)
    host_set: In(1)
    shuffle: In(1)
    edge: Out(EDGE)
    identity: Out(1)
    swap: Out(1)
    i: Out(range(9))
    j: Out(range(9))
    clear: Out(1)
    put: Out(1)
    at: Out(range(9))
    x: Out(1)
    done: Out(1)

    def elaborate(self, platform):
        m = Module()
        word, edge = self.word, self.edge
        v, bit = word[:4], word[4]
        xs, os, empty = pieces(self.board)
        index = Signal(range(9))        # Fisher-Yates' i
        count = Signal(range(PIECES + 1))
        free = (v < 9) & empty.bit_select(v, 1)       # a draw of an empty place
        m.d.comb += [self.i.eq(index), self.j.eq(v), self.at.eq(v), self.x.eq(bit)]

        def restart():
            # From any state, last so that it wins.
            with m.If(self.start):
                m.next = "BEGIN"

        with m.FSM(init="BEGIN"):
            with m.State("BEGIN"):
                m.d.comb += [self.identity.eq(1), self.clear.eq(1)]
                m.d.sync += [count.eq(0), index.eq(8)]
                with m.If(self.host_set):
                    m.d.sync += edge.eq(self.host)
                    m.next = "SHUFFLE"
                with m.Else():
                    m.next = "DIGIT"
                restart()
            with m.State("DIGIT"):
                with m.If(v < 10):
                    m.d.sync += [edge.digit.eq(v), edge.port.eq(bit),
                                 edge.lit.eq(word[5:7]), edge.unlit.eq(word[7:9])]
                    m.next = "SHUFFLE"
                restart()
            with m.State("SHUFFLE"):
                with m.If(~self.shuffle | (index == 0)):
                    m.next = "PIECES"
                with m.Elif(v <= index):
                    m.d.comb += self.swap.eq(1)
                    m.d.sync += index.eq(index - 1)
                restart()
            with m.State("PIECES"):
                with m.If(count == PIECES):
                    m.d.comb += self.done.eq(1)
                    m.next = "DONE"
                with m.Elif(free & ~completes(Mux(bit, xs, os), empty).bit_select(v, 1)):
                    m.d.comb += self.put.eq(1)
                    m.d.sync += count.eq(count + 1)
                restart()
            with m.State("DONE"):
                restart()
        return m
