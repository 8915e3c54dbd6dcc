"""The move block (the report's §3.2): i, m, the random counter and the choose mux."""

from amaranth.hdl import Module, Signal
from amaranth.lib.wiring import In, Out

from .controller import Choose
from .scan import Scanned


__all__ = ["Move"]


class Move(Scanned):
    """The move block: generates and remembers moves.

    ``i`` is the move being tried, ``m`` the best one found so far, and a 3-bit counter
    that counts on every edge (reset or not) stands in for a random number generator:
    the user's timing makes its value at the chip's opening move unpredictable (§3.2).
    Three bits are why the chip never opens at place 8. The choose mux picks the place
    whose board bit is toggled.

    Parameters
    ----------
    random_init : int
        Power-up value of the random counter. The paper says "an undefined value"; 0 is
        the faithful default (docs/decisions.md).

    Members
    -------
    nextfree : In(4)
        From the board's ``findfree``.
    nexti : In(1)
        ``i = nextfree``.
    assignmove : In(1)
        ``m = i``.
    pop : In(1)
        ``i`` = the ``i`` on top of the stack.
    stacki : In(4)
        The ``i`` of the stack's top entry.
    choose : In(Choose)
        Mux select.
    key : In(4)
        The key pressed.
    i : Out(4)
        The i register.
    index : Out(4)
        Combinational. The mux output: the random counter (zero-extended), ``i``, ``m``
        or ``key``.

    Attributes
    ----------
    m : Signal(4)
        The m register (powers up as 0, docs/decisions.md).
    random : Signal(3)
        The random counter.
    """

    scan_block = "move"

    nextfree: In(4)
    nexti: In(1)
    assignmove: In(1)
    pop: In(1)
    stacki: In(4)
    choose: In(Choose)
    key: In(4)

    i: Out(4)
    index: Out(4)

    def __init__(self, *, random_init=0):
        if random_init not in range(8):
            raise ValueError(f"random_init must be 0..7, not {random_init!r}")
        super().__init__()
        self.m = Signal(4)
        self.random = Signal(3, init=random_init)

    def elaborate(self, platform):
        m = Module()

        # §3.2: "counting endlessly" -- on every edge, and it is not reset.
        m.d.sync += self.random.eq(self.random + 1)

        # §3.2: "set to a free place on the board by the signal nexti"; a pop restores the
        # caller's i.
        with m.If(self.pop):
            m.d.sync += self.i.eq(self.stacki)
        with m.Elif(self.nexti):
            m.d.sync += self.i.eq(self.nextfree)

        # §3.2: "the assignmove signal assigns the value of i to m".
        with m.If(self.assignmove):
            m.d.sync += self.m.eq(self.i)

        with m.Switch(self.choose):
            with m.Case(Choose.random):
                m.d.comb += self.index.eq(self.random)
            with m.Case(Choose.i):
                m.d.comb += self.index.eq(self.i)
            with m.Case(Choose.m):
                m.d.comb += self.index.eq(self.m)
            with m.Case(Choose.key):
                m.d.comb += self.index.eq(self.key)

        self.add_scan(m)

        return m
