"""First free: a machine that always takes the first empty place, as a cartridge.

A game of turns (hdl/turns.py, whose text gives the game's rules) whose engine looks at
one place per clock from place 0 and takes the first empty one (firmware_ref/firstfree
is the golden model written from these texts).
"""

from amaranth.hdl import Module, Signal

from ..turns import Engine, Turns


__all__ = ["Scan", "FirstFree", "CARTRIDGE"]


class Scan(Engine):
    """The engine: place `index` each clock, from `first` by `step`, until an empty one.
    First free scans up from place 0; the tests' last free is this scan from place 8
    down, a game that disagrees with first free at once."""

    first, step = 0, 1

    def elaborate(self, platform):
        m = Module()
        index = Signal(range(9), init=self.first)
        taken = self.board[index].red | self.board[index].green
        m.d.comb += [self.done.eq(~taken), self.move.eq(index)]
        m.d.sync += index.eq(self.first)
        with m.If(self.think & taken):
            m.d.sync += index.eq(index + self.step)
        return m


class FirstFree(Turns):
    code = "F"
    title = "first free (a test cartridge: the first empty place)"

    engine = Scan


CARTRIDGE = FirstFree
