"""A key event: the host's key, else a panel key pressed alone."""

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from .command import Command, CommandBus


__all__ = ["KeyEvent", "EVENTS"]

# A key event, one hot; no back pressure: it is taken the clock it comes.
EVENTS = stream.Signature(9, always_ready=True)


class KeyEvent(wiring.Component):
    """A key event, one hot: the host's, else a panel key pressed alone (a chord is
    none, as the chip treats one), on the clock the debouncer agrees.

    Alone is exactly one of the nine, counted per row (some, two or more), then over the
    rows, each step registered: the closing keys change only on the debouncer's strobes,
    a panel frame apart, so the count is ready two clocks after they change.

    Members
    -------
    closing : In(9)
        The panel keys that close at the debouncer's next agreement (``sampled &
        ~held``), bit k place k.
    agree : In(1)
        The debouncer agrees now: ``closing`` closed.
    commands : In(CommandBus())
        The host's: ``KEY`` is this block's.
    events : Out(EVENTS)
        The key events.
    """

    closing: In(9)
    agree: In(1)
    commands: In(CommandBus())
    events: Out(EVENTS)

    def elaborate(self, platform):
        m = Module()
        closing = self.closing
        some, many = Signal(3), Signal(3)       # a key of row r closes; two or more do
        alone = Signal()
        for r in range(3):
            row = closing[3 * r:3 * r + 3]
            m.d.sync += [some[r].eq(row.any()),
                         many[r].eq(row[0] & row[1] | row[0] & row[2] | row[1] & row[2])]
        one_row = Cat(some[r] & ~Cat(some[q] for q in range(3) if q != r).any()
                      for r in range(3)).any()
        m.d.sync += alone.eq(one_row & ~many.any())
        commands = self.commands
        press = commands.valid & (commands.command == Command.KEY)
        m.d.comb += [self.events.payload.eq(Mux(press, commands.argument.key, closing)),
                     self.events.valid.eq(press | self.agree & alone)]
        return m
