"""The chart of the manual page, as a ROM."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.memory import Memory
from amaranth.lib.wiring import In, Out


__all__ = ["Chart", "TABLE"]

# Table 1 of the module's manual page, row 1 first: the key numbers for more Xs, equal,
# more Os, each placing an X then an O.
TABLE = (
    (9, 3, 3, 9, 8, 1),
    (5, 6, 6, 7, 1, 2),
    (7, 8, 2, 1, 5, 8),
    (4, 5, 7, 8, 9, 6),
    (1, 4, 1, 6, 7, 3),
    (8, 7, 5, 2, 4, 4),
    (6, 1, 8, 4, 3, 9),
    (2, 2, 9, 5, 2, 5),
    (3, 9, 4, 3, 6, 7),
)


class Chart(wiring.Component):
    """``label`` (0-8, the page's number less one) at ``row`` (0-8) and ``column``
    (0-5), combinationally: 54 words of 4 bits, LUTs on an iCE40."""

    row: In(range(9))
    column: In(range(6))
    label: Out(range(9))

    def elaborate(self, platform):
        m = Module()
        m.submodules.rom = rom = Memory(
            shape=4, depth=9 * 8, init=[TABLE[r][c] - 1 if c < 6 else 0
                                        for r in range(9) for c in range(8)])
        port = rom.read_port(domain="comb")
        m.d.comb += [port.addr.eq(self.row << 3 | self.column), self.label.eq(port.data)]
        return m
