"""Clean presses from contacts that bounce: keys and buttons pressed by a person."""

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out


__all__ = ["Debouncer"]


class Debouncer(wiring.Component):
    """A set of contacts, looked at on ``sample`` strobes.

    A change counts once ``stable + 1`` samples in a row agree on it, so a contact that
    bounces for less than ``stable`` sample periods gives one press, and a held contact
    gives one press however long it is held. Inputs must already be synchronous, and
    ``raw`` must hold on the clock before each strobe as on the strobe's own (strobes
    at least two clocks apart): whether it changed is compared a clock ahead, so no
    path runs from ``raw`` through a wide comparison into the outputs.

    Members
    -------
    raw : In(width)
        The contacts, 1 = closed.
    sample : In(1)
        Look at ``raw`` now.
    held : Out(width)
        The contacts that are closed, debounced.
    pressed : Out(width)
        High for one clock: the contacts that have just closed.
    released : Out(width)
        High for one clock: the contacts that have just opened.
    """

    def __init__(self, width, *, stable):
        if stable < 1:
            raise ValueError(f"stable must be at least 1 sample, not {stable}")
        self._stable = stable
        super().__init__({
            "raw": In(width),
            "sample": In(1),
            "held": Out(width),
            "pressed": Out(width),
            "released": Out(width),
        })

    def elaborate(self, platform):
        m = Module()
        last = Signal.like(self.raw)
        agreed = Signal(range(self._stable))

        # raw differs from the last sample, a clock ago: in halves, each a short or.
        half = (len(self.raw) + 1) // 2
        differs = Signal(2)
        changed = differs.any()
        m.d.sync += [self.pressed.eq(0), self.released.eq(0),
                     differs.eq(Cat(self.raw[:half] != last[:half],
                                    self.raw[half:] != last[half:]))]
        with m.If(self.sample):
            with m.If(changed):
                m.d.sync += [last.eq(self.raw), agreed.eq(0)]
            with m.Elif(agreed == self._stable - 1):
                m.d.sync += [
                    self.held.eq(self.raw),
                    self.pressed.eq(self.raw & ~self.held),
                    self.released.eq(~self.raw & self.held),
                ]
            with m.Else():
                m.d.sync += agreed.eq(agreed + 1)
        return m
