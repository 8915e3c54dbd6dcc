"""The starting row: rules 1-5 of the manual page, from the edgework."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .host import EDGE


__all__ = ["StartRow", "ROWS"]

# The starting row (0-8) of rules 1-5: (lowest, average, highest) for an odd or even
# last digit, without and with a parallel port.
ROWS = {(0, 0): (0, 1, 2), (0, 1): (1, 2, 3), (1, 0): (4, 6, 8), (1, 1): (5, 6, 7)}


class StartRow(wiring.Component):
    """The row a walk begins from after a module begins or a strike, combinationally.

    Rules 1 and 2 pick the rows left by the serial number's last digit (odd, even) and
    the parallel port; rule 3 takes the lowest when more indicators are unlit than lit,
    rule 4 the highest when more are lit, rule 5 their average (docs/ktane.md decides
    it: each is a whole row).

    Members
    -------
    edge : In(EDGE)
        The module's edgework.
    row : Out(range(9))
        The starting row, 0-8 (the page's row less one).
    """

    edge: In(EDGE)
    row: Out(range(9))

    def elaborate(self, platform):
        m = Module()
        edge = self.edge
        for (even, port), rows in ROWS.items():
            with m.If((~edge.digit[0] == even) & (edge.port == port)):
                with m.If(edge.unlit > edge.lit):
                    m.d.comb += self.row.eq(rows[0])
                with m.Elif(edge.lit > edge.unlit):
                    m.d.comb += self.row.eq(rows[2])
                with m.Else():
                    m.d.comb += self.row.eq(rows[1])
        return m
