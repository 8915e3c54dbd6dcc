"""The stack (the report's §3.4): an 8 x 6 bit register file and its pointer."""

from amaranth.hdl import Module, Signal
from amaranth.lib import data
from amaranth.lib.wiring import In, Out

from .scan import Scanned
from .value import VALUE_A, VALUE_BESTR


__all__ = ["DEPTH", "Entry", "Stack"]


# §3.4: "The depth of 8 is given by the maximum of look-ahead moves to store."
DEPTH = 8

# §3.4: "The six bits contain copies of i (4bits), a and bestr." p is not stacked: it is
# inverted back on return (§3.1).
Entry = data.StructLayout({
    "i": 4,
    "a": VALUE_A,
    "bestr": VALUE_BESTR,
})


class Stack(Scanned):
    """The stack of the recursive search.

    Flip-flops, not a memory, so the scan path reaches every entry. ``call`` writes
    ``push`` to ``stack[sp]`` and increments ``sp``; ``pop`` decrements ``sp``, and the
    caller's registers load ``top`` (``stack[sp-1]``) at the same edge.

    Members
    -------
    call : In(1)
        Push ``push``.
    pop : In(1)
        Pop: ``sp = sp - 1``.
    push : In(Entry)
        The entry to push: the current ``i``, ``a`` and ``bestr``.
    reset : In(1)
        Synchronous reset: ``sp = 0``.
    top : Out(Entry)
        Combinational. ``stack[sp-1]``, the entry a pop restores.
    sp : Out(3)
        The stack pointer.
    ground : Out(1)
        Combinational. ``sp == 0``: the bottom of the recursion (appendix C.1).

    Attributes
    ----------
    stackregs : Signal(ArrayLayout(Entry, 8))
        The register file (the report's ``stackregs`` cell).
    """

    scan_block = "stack"

    call: In(1)
    pop: In(1)
    push: In(Entry)
    reset: In(1)

    top: Out(Entry)
    sp: Out(3)
    ground: Out(1)

    def __init__(self):
        super().__init__()
        self.stackregs = Signal(data.ArrayLayout(Entry, DEPTH))

    @property
    def scan_registers(self):
        """The block's flip-flops by scan name; the entries are slices of ``stackregs``,
        not attributes, so they are named here (see :data:`hdl.eth.scan.SCAN_CHAIN`)."""
        return {
            "sp": self.sp,
            **{f"stack[{k}]": self.stackregs[k] for k in range(DEPTH)},
        }

    def elaborate(self, platform):
        m = Module()

        m.d.comb += [
            self.ground.eq(self.sp == 0),
            # 3-bit wrap-around: a pop at ground (never issued) would read entry 7.
            self.top.eq(self.stackregs[(self.sp - 1)[:3]]),
        ]

        with m.If(self.call):
            m.d.sync += self.stackregs[self.sp].eq(self.push)

        with m.If(self.reset):
            m.d.sync += self.sp.eq(0)
        with m.Elif(self.call):
            m.d.sync += self.sp.eq(self.sp + 1)
        with m.Elif(self.pop):
            m.d.sync += self.sp.eq(self.sp - 1)

        self.add_scan(m)

        return m
