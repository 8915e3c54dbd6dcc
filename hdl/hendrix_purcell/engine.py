"""The engine of Hendrix and Purcell's machine: three looks, one per clock (rules:
hdl/hendrix_purcell/cartridge.py's text)."""

from amaranth.hdl import Cat, Const, Module, Mux, Signal

from ..turns import Engine, completes


__all__ = ["ORDER", "Looks"]

ORDER = tuple(cell - 1 for cell in (5, 1, 6, 7, 2, 9, 4, 3, 8))    # cells 1..9: places 0..8


def first(candidates):
    """The first place of `ORDER` among `candidates` (9 bits; place 0 if none)."""
    place = Const(0, range(9))
    for k in reversed(ORDER):
        place = Mux(candidates[k], k, place)
    return place


class Looks(Engine):
    """Look 0 wins, look 1 blocks, look 2 plays the order; subclasses may put
    `exception` (its found bit and place) before the order."""

    def exception(self):
        """(a bit: the board is an exception, its place); none here."""
        return Const(0), Const(0, range(9))

    def elaborate(self, platform):
        m = Module()
        look = Signal(range(3))
        red = Cat(place.red for place in self.board)
        green = Cat(place.green for place in self.board)
        empty = ~(red | green)
        wins, blocks = completes(red, empty), completes(green, empty)
        excepted, exception = self.exception()

        with m.Switch(look):
            with m.Case(0):
                m.d.comb += [self.done.eq(wins.any()), self.move.eq(first(wins))]
            with m.Case(1):
                m.d.comb += [self.done.eq(blocks.any()), self.move.eq(first(blocks))]
            with m.Default():
                m.d.comb += [self.done.eq(1),
                             self.move.eq(Mux(excepted, exception, first(empty)))]

        m.d.sync += look.eq(0)
        with m.If(self.think & ~self.done):
            m.d.sync += look.eq(look + 1)
        return m
