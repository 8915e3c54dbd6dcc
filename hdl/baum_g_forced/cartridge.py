"""Baum's G with forced moves played through, as a cartridge.

Baum (Tic-Tac-Toe, 1975, end of chapter 2) proposes to mend his G: "play through any
forced moves before the function F is applied". Read here as follows (the reasons are
in docs/museum-baum-g.md): G is Baum's evaluation as in hdl/g.py (the machine's
stones +1, the person's -1), and each candidate move is weighed by the game that
follows it while the side to move has no choice.

The rules, clock by clock (firmware_ref/baum_g_forced is the golden model written from
this text and hdl/turns.py's):

- A game of turns (hdl/turns.py) whose engine, `Forced`, takes places 0..8 in turn as
  candidates, one clock for each place and then one clock per ply of its playthrough.
- A taken place is no candidate: its one clock and on to the next place.
- An empty place: the machine's stone goes there on a board of the engine's own, the
  person to move. Then each ply, in this order:
  - the machine has a line (the candidate made it): the candidate is a WIN;
  - the side to move has an empty place that completes its line: a WIN if that side
    is the machine, a LOSS if it is the person;
  - the other side has such places (threats): the side to move is forced; its stone
    goes on the lowest of them (facing two, it blocks one and loses at the next ply)
    and the other side is to move;
  - no one threatens: the candidate's value is G of that board.
- WIN is above every G and LOSS below (G is at most 8 x 28 either way). The move is
  the first candidate (lowest place) with the largest value; it is played on the clock
  that ends place 8's candidate, so a move takes nine clocks plus one per ply.
"""

from amaranth.hdl import Cat, Module, Mux, Signal

from ..g import G, G_MAX, G_SHAPE
from ..turns import Engine, Turns, completes, lines


__all__ = ["WIN", "LOSS", "Forced", "BaumGForced", "CARTRIDGE"]

WIN, LOSS = G_MAX + 1, -(G_MAX + 1)


class Forced(Engine):
    """The engine: each candidate played through its forced replies, then weighed."""

    def elaborate(self, platform):
        m = Module()
        m.submodules.g = g = G()
        index = Signal(range(9))        # the candidate
        playing = Signal()              # in its playthrough (else at its first clock)
        red, green = Signal(9), Signal(9)   # the playthrough's board
        person = Signal()               # the person is to move on it
        best = Signal(range(9))
        best_value = Signal(G_SHAPE)
        found = Signal()

        board_red = self.board.as_value()[0::2]
        board_green = self.board.as_value()[1::2]
        here = Cat(index == k for k in range(9))
        empty = ~(red | green)
        mine = completes(Mux(person, green, red), empty)
        theirs = completes(Mux(person, red, green), empty)
        block = theirs & (~theirs + 1)  # the lowest threat, one-hot
        m.d.comb += [g.red.eq(red), g.green.eq(green)]

        finish = Signal()               # the candidate's last clock
        value = Signal(G_SHAPE)
        weighed = Signal()              # it was a candidate (an empty place)
        with m.If(~playing):
            m.d.comb += finish.eq((here & (board_red | board_green)).any())
        with m.Elif(lines(red).any()):
            m.d.comb += [finish.eq(1), weighed.eq(1), value.eq(WIN)]
        with m.Elif(mine.any()):
            m.d.comb += [finish.eq(1), weighed.eq(1), value.eq(Mux(person, LOSS, WIN))]
        with m.Elif(~theirs.any()):
            m.d.comb += [finish.eq(1), weighed.eq(1), value.eq(g.value)]
        better = weighed & (~found | (value > best_value))
        m.d.comb += [self.done.eq(finish & (index == 8)),
                     self.move.eq(Mux(better, index, best))]

        with m.If(~self.think):
            m.d.sync += [index.eq(0), playing.eq(0), found.eq(0)]
        with m.Elif(finish):
            m.d.sync += [index.eq(index + 1), playing.eq(0)]
            with m.If(better):
                m.d.sync += [best.eq(index), best_value.eq(value), found.eq(1)]
        with m.Elif(~playing):
            m.d.sync += [red.eq(board_red | here), green.eq(board_green), person.eq(1),
                         playing.eq(1)]
        with m.Elif(person):
            m.d.sync += [green.eq(green | block), person.eq(0)]
        with m.Else():
            m.d.sync += [red.eq(red | block), person.eq(1)]
        return m


class BaumGForced(Turns):
    code = "P"
    blunder_lamp = True
    title = "Baum's G with forced moves played through (1975)"

    engine = Forced


CARTRIDGE = BaumGForced
