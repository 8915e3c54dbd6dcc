"""What Tactic-Toe's panel shows (docs/tactic.md, "On the board"): the board while a
plan is entered, and the game's board with a bounced place flashing."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..cartridge import BOARD, Blink

__all__ = ["Display"]


class Display(wiring.Component):
    """Player A (X) is green, player B (O) red.

    While a player enters a plan (``entering``) the board is dark but for the top row,
    one place lit in the player's colour for each key taken (so nothing shows where),
    the middle row red while the last key was refused, and the bottom row showing the
    round (1-3 places, both colours). Otherwise the game's board is ``shown``, a
    bounced place flashing both colours with a `Blink` of
    `blink` clocks.

    Parameters
    ----------
    blink : int
        The clocks of one blink, a power of two (`hdl.cartridge.blink_clocks`).

    Members
    -------
    stones : In(BOARD)
        The game's board.
    bounce : In(1)
        The last step bounced, on place ``bounce_at``.
    bounce_at : In(4)
        The place the last step bounced on.
    taken : In(range(3))
        The keys of the plan being entered.
    refused : In(1)
        The last key was refused.
    round : In(range(1, 4))
        The round.
    colour : In(1)
        The player entering: 0 A (green), 1 B (red).
    entering : Out(BOARD)
        Combinational. The board while a plan is entered.
    shown : Out(BOARD)
        Combinational. The game's board, a bounce flashing.
    """

    stones: In(BOARD)
    bounce: In(1)
    bounce_at: In(4)
    taken: In(range(3))
    refused: In(1)
    round: In(range(1, 4))
    colour: In(1)
    entering: Out(BOARD)
    shown: Out(BOARD)

    def __init__(self, blink):
        self.blink = blink
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        m.submodules.blink = blink = Blink(self.blink)
        for i in range(3):
            m.d.comb += [self.entering[i].green.eq(~self.colour & (self.taken > i)),
                         self.entering[i].red.eq(self.colour & (self.taken > i)),
                         self.entering[3 + i].red.eq(self.refused),
                         self.entering[6 + i].red.eq(self.round > i),
                         self.entering[6 + i].green.eq(self.round > i)]
        m.d.comb += self.shown.eq(self.stones)
        with m.If(self.bounce & blink.lit):
            m.d.comb += [self.shown[self.bounce_at].red.eq(1),
                         self.shown[self.bounce_at].green.eq(1)]
        return m
