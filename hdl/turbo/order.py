"""The first of a set of places in the search's order (hdl/turbo/cartridge.py's text)."""

from amaranth.hdl import Cat, Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out


__all__ = ["ORDER", "First"]

ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)     # centre, corners, edges


class First(wiring.Component):
    """``first``: one-hot, the first place of ``places`` in `ORDER` (none if empty)."""

    places: In(9)
    first: Out(9)

    def elaborate(self, platform):
        m = Module()
        for n, k in enumerate(ORDER):
            earlier = Cat(self.places[j] for j in ORDER[:n])
            m.d.comb += self.first[k].eq(self.places[k] & ~earlier.any())
        return m
