"""The cigarette box's wiring, turned on the table (rules: hdl/bawer_hawkins/cartridge.py's
text)."""

from amaranth.hdl import Cat, Const, Module, Mux, Signal

from ..turns import Engine


__all__ = ["ANSWERS", "CORNERS", "turned", "Box"]

# Figure 3, cells 1..9 as places 0..8: the person's cell -> the box's answer.
ANSWERS = {cell - 1: answer - 1 for cell, answer in
           ((1, 5), (2, 3), (3, 2), (4, 7), (6, 8), (7, 4), (8, 6), (9, 8))}
CORNERS = (0, 2, 8, 6)      # cell 1 after 0, 1, 2, 3 quarter turns clockwise


def turned(cell, turns):
    """The board's place under the box's `cell`, the box turned `turns` quarter turns
    clockwise."""
    for _ in range(turns):
        row, col = divmod(cell, 3)
        cell = 3 * col + 2 - row
    return cell


def first(bits, order):
    """The first place of `order` whose bit is set (the first of `order` if none)."""
    place = Const(order[0], range(9))
    for k in reversed(order):
        place = Mux(bits[k], k, place)
    return place


class Box(Engine):
    """Answers on the first clock of thinking; `frame` and `seen` (the person's stones)
    are kept from one answer to the next."""

    def elaborate(self, platform):
        m = Module()
        frame = Signal(2)
        seen = Signal(9)
        red = Cat(place.red for place in self.board)
        green = Cat(place.green for place in self.board)
        empty = ~(red | green)
        reading = range(9)

        opening = ~red.any()
        new = Mux(opening, green, green & ~seen)
        cell = first(new, reading)
        turns = Signal(2)
        m.d.comb += turns.eq(frame)
        with m.If(opening):
            for quarter, corner in enumerate(CORNERS):
                with m.If(cell == corner):
                    m.d.comb += turns.eq(quarter)

        wired = Signal()
        answer = Signal(range(9))
        fallback = Signal(range(9))
        with m.Switch(turns):
            for quarter in range(4):
                with m.Case(quarter):
                    frame_order = [turned(k, quarter) for k in range(9)]
                    m.d.comb += fallback.eq(first(empty, frame_order))
                    for person, box in ANSWERS.items():
                        with m.If(new.any() & (cell == turned(person, quarter))):
                            m.d.comb += [wired.eq(1), answer.eq(turned(box, quarter))]

        m.d.comb += [self.done.eq(1),
                     self.move.eq(Mux(wired & empty.bit_select(answer, 1),
                                      answer, fallback))]
        with m.If(self.think):
            m.d.sync += [frame.eq(turns), seen.eq(green)]
        return m
