"""The value block (the report's §3.3): r, bestr and a, and their comparisons."""

from amaranth.hdl import Module, Signal, signed
from amaranth.lib.wiring import In, Out

from .scan import Scanned


__all__ = ["Value", "VALUE_R", "VALUE_BESTR", "VALUE_A"]


# The ranges of figure 1's values, as the report's C program declares them
# ("bestr in -1..0; a in 0..1"). Each shape holds exactly its range.
VALUE_R = signed(2)      # -1..1
VALUE_BESTR = signed(1)  # -1..0: one flip-flop, set means -1
VALUE_A = 1              # 0..1


class Value(Scanned):
    """The value block: the minimax values and the alpha-beta bound.

    ``r`` is the value of the move just rated (as seen by the player who made it),
    ``bestr`` the best value found at this level, ``a`` the bound above which the search
    at this level stops (§3.3, ``rgea``). The controls are appendix C.2's.

    Members
    -------
    init : In(1)
        ``bestr = -1``.
    retbest : In(1)
        ``r = -bestr``.
    remember : In(1)
        ``bestr = 0``.
    negr : In(1)
        ``r = -r``.
    sno : In(1)
        ``r = -1``.
    clearr : In(1)
        ``r = 0``.
    call : In(1)
        ``a = -bestr``, ``bestr = -1``.
    pop : In(1)
        ``a`` and ``bestr`` from the stack's top entry.
    stacka : In(1)
        The ``a`` of the stack's top entry.
    stackbestr : In(signed(1))
        The ``bestr`` of the stack's top entry.
    reset : In(1)
        Synchronous reset: ``a = 1`` (appendix C.3).
    bestr : Out(signed(1))
        The bestr register, -1..0.
    a : Out(1)
        The a register, 0..1 (powers up as 1).
    rgea : Out(1)
        Combinational. ``r >= a``.
    rgbestr : Out(1)
        Combinational. ``r > bestr``.

    Attributes
    ----------
    r : Signal(signed(2))
        The r register, -1..1.
    """

    scan_block = "value"

    init: In(1)
    retbest: In(1)
    remember: In(1)
    negr: In(1)
    sno: In(1)
    clearr: In(1)
    call: In(1)
    pop: In(1)
    stacka: In(VALUE_A)
    stackbestr: In(VALUE_BESTR)
    reset: In(1)

    bestr: Out(VALUE_BESTR)
    # Power-up equals reset (docs/decisions.md).
    a: Out(VALUE_A, init=1)
    rgea: Out(1)
    rgbestr: Out(1)

    def __init__(self):
        super().__init__()
        self.r = Signal(VALUE_R)

    def elaborate(self, platform):
        m = Module()

        # §3.3: the two comparisons the controller branches on.
        m.d.comb += [
            self.rgea.eq(self.r >= self.a),
            self.rgbestr.eq(self.r > self.bestr),
        ]

        # §3.3: "four signals to control r"; the controller raises at most one.
        with m.If(self.negr):
            m.d.sync += self.r.eq(-self.r)
        with m.Elif(self.sno):
            m.d.sync += self.r.eq(-1)
        with m.Elif(self.clearr):
            m.d.sync += self.r.eq(0)
        with m.Elif(self.retbest):
            m.d.sync += self.r.eq(-self.bestr)

        # A pop restores the caller's bestr. It must win over remember: in returned case 4
        # the level being left sets bestr = 0 in the same cycle, which nothing reads.
        with m.If(self.pop):
            m.d.sync += self.bestr.eq(self.stackbestr)
        with m.Elif(self.call | self.init):
            m.d.sync += self.bestr.eq(-1)
        with m.Elif(self.remember):
            m.d.sync += self.bestr.eq(0)

        # §3.3: "A is changed if one of call and pop is high". a = -bestr is the alpha-beta
        # bound: once the called level finds r >= -bestr, this move cannot beat the
        # caller's bestr, so the level stops (rgea).
        with m.If(self.reset):
            m.d.sync += self.a.eq(1)
        with m.Elif(self.pop):
            m.d.sync += self.a.eq(self.stacka)
        with m.Elif(self.call):
            m.d.sync += self.a.eq(-self.bestr)

        self.add_scan(m)

        return m
