"""What the panel shows of Ultimate Tic-Tac-Toe: the big board, the chosen small
board, and the owners frozen while the engine thinks (docs/ultimate.md, "The panel")."""

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..cartridge import BOARD, Blink
from .rules import CELLS, small

__all__ = ["Display"]


class Display(wiring.Component):
    """The big board and the chosen small board in the players' colours: the engine
    red; with two people X green, O red.

    The big board shows each small board's owner, both colours for a drawn one, and
    while ``picking`` the small boards the player may move in blink in the player's
    colour. The chosen small board shows its stones, its legal cells blinking. Both
    are shown a clock late: the legal cells are a long way from the registers that
    hold the position. The engine searches on the position itself, so ``frozen`` keeps
    the owners as they were before ``thinking`` began. It blinks with a
    `Blink` of `blink` clocks.

    Parameters
    ----------
    blink : int
        The clocks of one blink, a power of two (`hdl.cartridge.blink_clocks`).

    Members
    -------
    x_line, o_line, decided : In(9)
        Each small board holds a line of X's, of O's; is decided (the engine's rules).
    legal : In(81)
        The cells the player to move may take.
    x_turn : In(1)
        X is to move: the blinking is in X's colour.
    x_view, o_view : In(9)
        The chosen small board's X's and O's.
    chosen : In(4)
        The small board ``x_view`` and ``o_view`` show.
    x_red : In(1)
        X is red (the engine plays X), else green.
    picking : In(1)
        The small boards the player may move in blink on the big board.
    thinking : In(1)
        The engine searches: ``frozen`` holds.
    big : Out(BOARD)
        The big board, a clock late.
    cells : Out(BOARD)
        The chosen small board, a clock late.
    frozen : Out(BOARD)
        The owners of the clock before ``thinking`` rose.
    open_boards : Out(9)
        The small boards the player may move in, a clock late (the keys look at it
        too).
    open_cells : Out(9)
        Combinational. The chosen small board's legal cells, from ``open_boards``.
    """

    x_line: In(9)
    o_line: In(9)
    decided: In(9)
    legal: In(CELLS)
    x_turn: In(1)
    x_view: In(9)
    o_view: In(9)
    chosen: In(4)
    x_red: In(1)
    picking: In(1)
    thinking: In(1)
    big: Out(BOARD)
    cells: Out(BOARD)
    frozen: Out(BOARD)
    open_boards: Out(9)
    open_cells: Out(9)

    def __init__(self, blink):
        self.blink = blink
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        m.submodules.blinking = blinking = Blink(self.blink)
        blink = blinking.lit
        board_legal = Cat(small(self.legal, b).any() for b in range(9))
        # The keys look at it a clock late: the position holds still from TURN on, so
        # PICK and CELL see it up to date.
        m.d.sync += self.open_boards.eq(board_legal)

        x_colour, o_colour, mover = Signal(2), Signal(2), Signal(2)
        m.d.comb += [x_colour.eq(Mux(self.x_red, 0b01, 0b10)),
                     o_colour.eq(Mux(self.x_red, 0b10, 0b01)),
                     mover.eq(Mux(self.x_turn, x_colour, o_colour))]
        owners, big_now, cells_now = Signal(BOARD), Signal(BOARD), Signal(BOARD)
        m.d.sync += [self.big.eq(big_now), self.cells.eq(cells_now)]
        for b in range(9):
            m.d.comb += [
                owners[b].as_value().eq(Mux(self.x_line[b], x_colour, Mux(
                    self.o_line[b], o_colour, Mux(self.decided[b], 0b11, 0)))),
                big_now[b].as_value().eq(owners[b].as_value() | Mux(
                    self.picking & board_legal[b] & blink, mover, 0))]
        m.d.comb += self.open_cells.eq(~(self.x_view | self.o_view)
                                       & self.open_boards.bit_select(self.chosen, 1).replicate(9))
        for k in range(9):
            m.d.comb += cells_now[k].as_value().eq(
                Mux(self.x_view[k], x_colour, Mux(self.o_view[k], o_colour,
                    Mux(self.open_cells[k] & blink, mover, 0))))

        with m.If(~self.thinking):
            m.d.sync += self.frozen.eq(owners)
        return m
