"""The pending key: a key event waits until the cartridge takes it."""

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from hdl.cartridge import SETTLE

from .key_event import EVENTS


__all__ = ["PendingKey"]


class PendingKey(wiring.Component):
    """The last key event, held until the cartridge takes it, or the game ends, or a
    new game begins, or a position is entered (there the desk steps its place).

    The cartridge gets it for one clock, once it is ``ready``, a clock after the event
    at the soonest, and once the `SETTLE` clocks after the last key it got are over: by
    then the cartridge shows that it took that one (docs/cartridge.md).

    Members
    -------
    events : In(EVENTS)
        The key events.
    setup : In(1)
        A position is entered (the reset button is held): no key waits, none is given.
    start : In(1)
        The cartridge is held at a new game.
    ready, over : In(1)
        The cartridge's.
    key : Out(9)
        The key the cartridge gets, one clock.
    give : Out(1)
        The cartridge takes ``pending`` now.
    pending : Out(9)
        The last key event, one hot, registered.
    waiting : Out(1)
        ``pending`` waits for the cartridge.
    settled : Out(1)
        The `SETTLE` clocks after the last key given are over.
    """

    events: In(EVENTS)
    setup: In(1)
    start: In(1)
    ready: In(1)
    over: In(1)
    key: Out(9)
    give: Out(1)
    pending: Out(9)
    waiting: Out(1)
    settled: Out(1)

    def elaborate(self, platform):
        m = Module()
        fresh = Signal()            # the event came a clock ago
        # The SETTLE clocks after a key, as ones shifting out: quiet[0] is the last.
        quiet = Signal(SETTLE)
        give, waiting = self.give, self.waiting
        m.d.comb += [
            self.settled.eq(~quiet[0]),
            give.eq(~self.setup & waiting & ~fresh & ~self.start & self.settled
                    & self.ready),
            self.key.eq(Mux(give, self.pending, 0)),
        ]
        with m.If(give):
            m.d.sync += quiet.eq((1 << SETTLE) - 1)
        with m.Else():
            m.d.sync += quiet.eq(quiet >> 1)
        m.d.sync += fresh.eq(self.events.valid)
        with m.If(self.events.valid):
            m.d.sync += self.pending.eq(self.events.payload)
        with m.If(fresh & ~self.setup):
            m.d.sync += waiting.eq(1)       # a clock after the event: short paths
        with m.Elif(give | self.over | self.start | self.setup):
            m.d.sync += waiting.eq(0)
        return m
