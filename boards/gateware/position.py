"""The desk's position: the one position a new game begins from."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from hdl.cartridge import BOARD

from .command import Command, CommandBus


__all__ = ["Position"]


class Position(wiring.Component):
    """The position, entered at the panel or by the host. The host's places shift in as
    an ``R`` frame arrives, each a ``PLACE`` command (nothing reads them but a start,
    and the link refuses them while the position is in use); while the reset button is
    held each key steps its place: empty, the person's, the machine's, empty.

    Members
    -------
    clear : In(1)
        The position becomes the empty board (it wins over the others).
    commands : In(CommandBus())
        The host's: at ``PLACE`` its place shifts in at place 8, each place moving down
        one (the ninth of a frame lands on place 8, the first on place 0).
    step : In(1)
        The places of ``key`` step on (a ``PLACE`` wins).
    key : In(9)
        With ``step``: the keys, bit k place k.
    position : Out(BOARD)
        The position, registered.
    """

    clear: In(1)
    commands: In(CommandBus())
    step: In(1)
    key: In(9)
    position: Out(BOARD)

    def elaborate(self, platform):
        m = Module()
        commands = self.commands
        shift = commands.valid & (commands.command == Command.PLACE)
        for k in range(9):
            place = self.position[k]
            after = self.position[k + 1] if k < 8 else commands.argument.place
            with m.If(self.clear):
                m.d.sync += place.eq(0)
            with m.Elif(shift):
                m.d.sync += place.eq(after)
            with m.Elif(self.step & self.key[k]):
                m.d.sync += [place.green.eq(~place.green & ~place.red),
                             place.red.eq(place.green)]
        return m
