"""The think time: the clocks the machine's last move took."""

from amaranth.hdl import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out


__all__ = ["ThinkTime", "CYCLES_MAX"]

CYCLES_MAX = 0xFFFF


class ThinkTime(wiring.Component):
    """The busy clocks that follow a key the cartridge took, up to `CYCLES_MAX`, where
    the count stays. It restarts at the first busy clock after a key, so a key the
    cartridge refused (no busy clock before the next key or game) keeps the last move's
    figure.

    Members
    -------
    give : In(1)
        The cartridge takes a key now.
    busy : In(1)
        The cartridge's ``busy``.
    start : In(1)
        A new game: a key given is forgotten.
    cycles : Out(16)
        The last move's busy clocks, registered.
    """

    give: In(1)
    busy: In(1)
    start: In(1)
    cycles: Out(16)

    def elaborate(self, platform):
        m = Module()
        armed = Signal()            # a key was given; its busy clocks are not yet counted
        counting = Signal()
        count = self.cycles
        more = count + 1            # its carry out: count is CYCLES_MAX, where it stays
        assert CYCLES_MAX == (1 << len(count)) - 1
        with m.If(self.give):
            m.d.sync += armed.eq(1)
        with m.If(self.busy):
            with m.If(armed):
                m.d.sync += [count.eq(1), armed.eq(0), counting.eq(1)]
            with m.Elif(counting & ~more[len(count)]):
                m.d.sync += count.eq(more)
        with m.Else():
            m.d.sync += counting.eq(0)
        with m.If(self.start):
            m.d.sync += armed.eq(0)
        return m
