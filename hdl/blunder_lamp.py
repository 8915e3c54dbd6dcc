"""The blunder lamp of a game of turns: lit from a machine's move that is a blunder."""

from amaranth.hdl import Cat, Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .cartridge import BOARD


__all__ = ["BlunderLamp"]


class BlunderLamp(wiring.Component):
    """Lit from a move that is one of the machine's ``blunders`` (a board and the place
    played on it that throw away a draw or a win, found by its golden model's perfect
    play) until the machine's next move or a new game.

    Parameters
    ----------
    blunders : iterable of (int, int)
        The board moved from (18 bits, as ``board``) and the place.

    Members
    -------
    board : In(BOARD)
        The board the machine moves on.
    move : In(range(9))
        The machine's move, with ``moved``.
    moved : In(1)
        The machine plays ``move`` on ``board`` on this clock.
    clear : In(1)
        A new game: the lamp goes dark (it wins over ``moved``).
    lit : Out(1)
        The lamp, registered.
    """

    board: In(BOARD)
    move: In(range(9))
    moved: In(1)
    clear: In(1)
    lit: Out(1)

    def __init__(self, blunders=()):
        self.blunders = sorted(blunders)
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        blundering = Cat((self.board.as_value() == b) & (self.move == k)
                         for b, k in self.blunders).any()
        with m.If(self.moved):
            m.d.sync += self.lit.eq(blundering)
        with m.If(self.clear):
            m.d.sync += self.lit.eq(0)
        return m
