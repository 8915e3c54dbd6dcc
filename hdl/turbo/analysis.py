"""What one board says to the side to move, in one clock of logic: its wins, the other
side's threats, its makers and forks, the empty places (hdl/turbo/cartridge.py's
text)."""

from amaranth.hdl import Cat, Module, Mux
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..turns import LINES


__all__ = ["at_least", "Analysis"]


def at_least(bits, n):
    """Whether `n` or more of `bits` are set, as an OR of ANDs: shallower than a count."""
    if n == 1:
        return Cat(bits).any()
    return Cat(bits[k] & at_least(bits[:k], n - 1) for k in range(n - 1, len(bits))).any()


class Analysis(wiring.Component):
    """The stones of the side to move (``mine``) and of the other (``theirs``) give one
    bit per place of ``wins``, ``threats``, ``makers``, ``forks`` and ``empties``, and
    ``won`` (a win), ``threatened`` (a threat), ``forked`` (two threats or more),
    ``forking`` (a fork among the candidates: the threat, else the empty places),
    ``few`` (three empty places or fewer), ``bare`` (no stone). ``won`` and
    ``threatened`` are read off the lines, not the places: a level shallower."""

    mine: In(9)
    theirs: In(9)
    wins: Out(9)
    threats: Out(9)
    makers: Out(9)
    forks: Out(9)
    empties: Out(9)
    won: Out(1)
    threatened: Out(1)
    forked: Out(1)
    forking: Out(1)
    few: Out(1)
    bare: Out(1)

    def elaborate(self, platform):
        m = Module()
        own, other = self.mine, self.theirs
        empty = ~(own | other)
        for k in range(9):
            pairs = [[j for j in three if j != k] for three in LINES if k in three]
            making = [own[i] & empty[j] | empty[i] & own[j] for i, j in pairs]
            m.d.comb += [
                self.wins[k].eq(empty[k] & Cat(own[i] & own[j] for i, j in pairs).any()),
                self.threats[k].eq(empty[k] & Cat(other[i] & other[j]
                                                  for i, j in pairs).any()),
                self.makers[k].eq(empty[k] & at_least(making, 1)),
                self.forks[k].eq(empty[k] & at_least(making, 2)),
            ]
        def open_line(stones):
            """One of LINES holds two of `stones` and an empty place."""
            return Cat(stones[a] & stones[b] & empty[c] | stones[a] & empty[b] & stones[c]
                       | empty[a] & stones[b] & stones[c] for a, b, c in LINES).any()

        m.d.comb += [
            self.empties.eq(empty),
            self.won.eq(open_line(own)),
            self.threatened.eq(open_line(other)),
            self.forked.eq(at_least(list(self.threats), 2)),
            self.forking.eq(Mux(self.threatened, (self.threats & self.forks).any(),
                                self.forks.any())),
            self.few.eq(~at_least(list(empty), 4)),
            self.bare.eq(empty.all()),
        ]
        return m
