"""The keypad: the module's nine keys and the pieces on them."""

from amaranth.hdl import Cat, Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..cartridge import BOARD


__all__ = ["Keypad", "pieces"]


def pieces(board):
    """(xs, os, empty) of `board` (a BOARD view): one bit per place each."""
    xs = Cat(place.red for place in board)
    os = Cat(place.green for place in board)
    return xs, os, ~(xs | os)


class Keypad(wiring.Component):
    """The board register: X red, O green, one piece or none on each key.

    It is written by both halves of the module, a new module's pieces and the pieces
    the defuser and the module place, and a new game's ``position`` wins over both, as
    ``start`` does over every state.

    Members
    -------
    load : In(1)
        The board becomes ``position`` (``start``).
    position : In(BOARD)
        The board ``load`` takes.
    clear : In(1)
        The board becomes empty (a module begins).
    put : In(1)
        Piece ``x`` goes on place ``at``.
    at : In(range(9))
        The place ``put`` writes.
    x : In(1)
        The piece ``put`` writes: 1 X, 0 O.
    board : Out(BOARD)
        The board, registered.
    """

    load: In(1)
    position: In(BOARD)
    clear: In(1)
    put: In(1)
    at: In(range(9))
    x: In(1)
    board: Out(BOARD)

    def elaborate(self, platform):
        m = Module()
        board = self.board
        with m.If(self.load):
            m.d.sync += board.eq(self.position)
        with m.Elif(self.clear):
            m.d.sync += board.eq(0)
        with m.Elif(self.put):
            m.d.sync += [board[self.at].red.eq(self.x), board[self.at].green.eq(~self.x)]
        return m
