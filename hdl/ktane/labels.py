"""The keys' labels: which key shows each number, shuffled as the original shuffles."""

from amaranth.hdl import Array, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out


__all__ = ["Labels"]


class Labels(wiring.Component):
    """A permutation: ``place_of[label]``, both 0-8.

    - ``identity``: every label back on its key in reading order (label k on key k).
    - ``swap``: exchange the keys of labels ``i`` and ``j`` (Fisher-Yates' step).
    - ``label`` -> ``place``: the key showing a label; ``at`` -> ``label_at``: the
      label a key shows (for the host's line), both combinational.
    """

    identity: In(1)
    swap: In(1)
    i: In(range(9))
    j: In(range(9))
    label: In(range(9))
    place: Out(range(9))
    at: In(range(9))
    label_at: Out(range(9))

    def elaborate(self, platform):
        m = Module()
        place_of = Array(Signal(range(9), init=k, name=f"place_of{k}") for k in range(9))
        with m.If(self.identity):
            m.d.sync += [place_of[k].eq(k) for k in range(9)]
        with m.Elif(self.swap):
            m.d.sync += [place_of[self.i].eq(place_of[self.j]),
                         place_of[self.j].eq(place_of[self.i])]
        m.d.comb += self.place.eq(place_of[self.label])
        for k in range(9):
            with m.If(place_of[k] == self.at):
                m.d.comb += self.label_at.eq(k)
        return m
