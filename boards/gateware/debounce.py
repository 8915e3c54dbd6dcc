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
    strobes at least two clocks apart. ``raw`` is looked at on the clock of a strobe
    and on the clock before it: whether it changed is compared a clock ahead, so no
    path runs from ``raw`` through a wide comparison into the outputs. The block keeps
    the last sample itself, so a source need not hold ``raw`` between strobes.

    Members
    -------
    raw : In(width)
        The contacts, 1 = closed.
    sample : In(1)
        Look at ``raw`` now.
    sampled : Out(width)
        The contacts as sampled (they change only on a strobe).
    agree : Out(1)
        With ``sample``: ``stable + 1`` samples agree, so ``held`` takes ``sampled`` at
        this clock's edge (``sampled & ~held`` are the contacts that close now).
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
            "sampled": Out(width),
            "agree": Out(1),
            "held": Out(width),
            "pressed": Out(width),
            "released": Out(width),
        })

    def elaborate(self, platform):
        m = Module()
        last = self.sampled
        agreed = Signal(range(self._stable))

        # raw differs from the last sample, a clock ago: in halves, each a short or.
        half = (len(self.raw) + 1) // 2
        differs = Signal(2)
        changed = differs.any()
        m.d.sync += [self.pressed.eq(0), self.released.eq(0),
                     differs.eq(Cat(self.raw[:half] != last[:half],
                                    self.raw[half:] != last[half:]))]
        # Held takes the last sample, not raw: raw may have moved in the clock since it
        # was compared, and a sample only counts once it has agreed.
        # agreed changes only on strobes, so "it is full" is a flip-flop too.
        ripe = Signal()
        m.d.sync += ripe.eq(agreed == self._stable - 1)
        m.d.comb += self.agree.eq(self.sample & ~changed & ripe)
        with m.If(self.sample & changed):
            m.d.sync += [last.eq(self.raw), agreed.eq(0)]
        with m.Elif(self.agree):
            m.d.sync += [
                self.held.eq(last),
                self.pressed.eq(last & ~self.held),
                self.released.eq(~last & self.held),
            ]
        with m.Elif(self.sample):
            m.d.sync += agreed.eq(agreed + 1)
        return m
