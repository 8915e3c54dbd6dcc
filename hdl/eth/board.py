"""The board block (the report's §3.1): the board and p registers and their
combinational cells."""

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .controller import Choose
from .scan import Scanned


__all__ = ["PLACES", "LINES", "Board", "FindFree", "Wins", "Full"]


# Places 0..8, row-major (§3.1: "nine places (numbered from 0 to 8)").
PLACES = 9

# The eight rows, columns and diagonals of three places.
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),
         (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))


def _empty(board, k):
    # §4: a place is empty when both of its bits are 0 (chip 01, user 10).
    return ~(board[2 * k] | board[2 * k + 1])


class FindFree(wiring.Component):
    """The ``findfree`` cell: the next free place after ``li``, and ``lasti``.

    With ``li = i`` if ``usei`` else ``-1``, ``nextfree`` is the first empty place ``k > li``
    (don't-care when there is none: the controller never loads it then). ``lasti`` says
    that no place in ``i+1..8`` is empty (appendix C.1); it always uses ``li = i``.

    Both are ripple chains, one stage per place from 0 to 8: a search signal starts after
    ``li``, runs through occupied places and stops at the first empty one. §3.1 calls this
    "a signal which is propagated similarly to the carry chain in a 9 bit ripple carry
    adder", the chip's longest path.

    Members
    -------
    board : In(18)
        The board register.
    i : In(4)
        The move being tried.
    usei : In(1)
        Start after place ``i`` rather than before place 0.
    nextfree : Out(4)
        Combinational. The first empty place after ``li``.
    lasti : Out(1)
        Combinational. No empty place after ``i``.
    """

    board: In(2 * PLACES)
    i: In(4)
    usei: In(1)
    nextfree: Out(4)
    lasti: Out(1)

    def elaborate(self, platform):
        m = Module()

        # search[k]: the nextfree chain reaches place k still looking for an empty place.
        # after[k]: the same for the lasti chain, which always starts after i.
        search = Signal(PLACES + 1)
        after = Signal(PLACES + 1)
        found = Signal(PLACES)
        m.d.comb += [
            # usei low: li = -1, the search starts before place 0.
            search[0].eq(~self.usei),
            after[0].eq(0),
        ]
        for k in range(PLACES):
            empty = _empty(self.board, k)
            m.d.comb += [
                found[k].eq(search[k] & empty),
                # Occupied places pass the search on; place li itself starts it.
                search[k + 1].eq((search[k] & ~empty) | (self.usei & (self.i == k))),
                after[k + 1].eq((after[k] & ~empty) | (self.i == k)),
            ]
        # found is one-hot (or zero); encode it.
        for bit in range(4):
            m.d.comb += self.nextfree[bit].eq(
                Cat(*(found[k] for k in range(PLACES) if k >> bit & 1)).any())
        # The lasti chain comes out of place 8 still looking: nothing empty after i.
        m.d.comb += self.lasti.eq(after[PLACES])

        return m


class Wins(wiring.Component):
    """The ``win`` cell: player ``p`` has three of its stones in a row.

    A place counts for ``p`` when ``p``'s bit (bit ``2k + p``) is set.

    Members
    -------
    board : In(18)
        The board register.
    p : In(1)
        The player: 0 chip, 1 user.
    wins : Out(1)
        Combinational. One of the eight lines holds three of ``p``'s bits.
    """

    board: In(2 * PLACES)
    p: In(1)
    wins: Out(1)

    def elaborate(self, platform):
        m = Module()

        mine = Signal(PLACES)
        for k in range(PLACES):
            m.d.comb += mine[k].eq(self.board.bit_select(2 * k + self.p, 1))
        m.d.comb += self.wins.eq(Cat(*(mine[a] & mine[b] & mine[c] for a, b, c in LINES)).any())

        return m


class Full(wiring.Component):
    """The ``full`` cell: every place holds a stone (§3.1, "filled with 9 stones").

    Members
    -------
    board : In(18)
        The board register.
    full : Out(1)
        Combinational. No place is empty.
    """

    board: In(2 * PLACES)
    full: Out(1)

    def elaborate(self, platform):
        m = Module()

        empty = Signal(PLACES)
        for k in range(PLACES):
            m.d.comb += empty[k].eq(_empty(self.board, k))
        m.d.comb += self.full.eq(empty == 0)

        return m


class Board(Scanned):
    """The board block: the 18-bit board register, the p register and their logic.

    One bit of the board can be toggled per cycle (§3.1). Its address is
    ``2 * index + low``, where ``index`` comes from the move block's choose mux and ``low``
    is ``p``, except for key placements, which use ``keylow`` (the chip sets it to
    ``not piN``: the user's bit normally, the chip's bit when ``piN`` is high, §4).

    Members
    -------
    toggleN : In(1)
        Active low: invert the addressed bit at the next edge.
    index : In(4)
        Place to toggle, from the choose mux.
    choose : In(Choose)
        The choose mux select, to know when the place is a key.
    keylow : In(1)
        Low address bit of a key placement.
    flipp : In(1)
        Invert ``p`` (a call or a pop, appendix C.2).
    reset : In(1)
        Synchronous reset: board empty, ``p`` = chip (appendix C.3).
    i : In(4)
        The move being tried, for ``findfree``.
    usei : In(1)
        ``findfree`` starts after ``i``.
    key : In(4)
        The key pressed, for the valid-key check.
    led : Out(18)
        The board register (place k: bit 2k chip, bit 2k+1 user), as the led pins show it.
    p : Out(1)
        The p register: 0 chip to move, 1 user.
    wins : Out(1)
        Combinational. Player ``p`` has three in a row.
    full : Out(1)
        Combinational. Every place holds a stone.
    nextfree : Out(4)
        Combinational. First empty place after ``li`` (see :class:`FindFree`).
    lasti : Out(1)
        Combinational. No empty place after ``i``.
    validkey : Out(1)
        Combinational. The place ``key`` is empty.

    Attributes
    ----------
    board : Signal(18)
        The board register itself. It is not a port: the chip's wire from it is ``led``,
        so that no wire in the chip is called ``board`` and the block's instance keeps its
        plain name in the netlist (Amaranth renames an instance that shares a wire's name).
    """

    scan_block = "board"

    toggleN: In(1, init=1)
    index: In(4)
    choose: In(Choose)
    keylow: In(1)
    flipp: In(1)
    reset: In(1)
    i: In(4)
    usei: In(1)
    key: In(4)

    led: Out(2 * PLACES)
    p: Out(1)
    wins: Out(1)
    full: Out(1)
    nextfree: Out(4)
    lasti: Out(1)
    validkey: Out(1)

    def __init__(self):
        super().__init__()
        self.board = Signal(2 * PLACES)

    def elaborate(self, platform):
        m = Module()

        # The combinational cells hang off the register's output (§3.1).
        m.submodules.findfree = findfree = FindFree()
        m.d.comb += [
            findfree.board.eq(self.board),
            findfree.i.eq(self.i),
            findfree.usei.eq(self.usei),
            self.nextfree.eq(findfree.nextfree),
            self.lasti.eq(findfree.lasti),
        ]
        m.submodules.win = win = Wins()
        m.d.comb += [
            win.board.eq(self.board),
            win.p.eq(self.p),
            self.wins.eq(win.wins),
        ]
        # Not called "full": that is the output's name (see the class docstring).
        m.submodules.fullcheck = fullcheck = Full()
        m.d.comb += [
            fullcheck.board.eq(self.board),
            self.full.eq(fullcheck.full),
        ]

        # §3.1: "If the player presses a key, a third circuit is able to check whether this
        # is a legal move" -- the keyed place must be empty; keys 9..15 never are valid.
        m.d.comb += self.validkey.eq(
            Cat(*((self.key == k) & _empty(self.board, k) for k in range(PLACES))).any())

        m.d.comb += self.led.eq(self.board)

        # §3.1: the address's four upper bits are the index, the low bit is p, except
        # that a key placement chooses its stone with piN (§4).
        low = Signal()
        address = Signal(5)
        with m.If(self.choose == Choose.key):
            m.d.comb += low.eq(self.keylow)
        with m.Else():
            m.d.comb += low.eq(self.p)
        m.d.comb += address.eq(self.index * 2 + low)

        with m.If(self.reset):
            m.d.sync += [
                self.board.eq(0),
                self.p.eq(0),
            ]
        with m.Else():
            # The dec18e decoder: one enable per board bit, inverting only the addressed
            # one. Addresses 18..31 (no such place) toggle nothing.
            with m.If(~self.toggleN):
                for bit in range(2 * PLACES):
                    with m.If(address == bit):
                        m.d.sync += self.board[bit].eq(~self.board[bit])
            # §3.1: p is inverted at every call and back at every return, never stacked.
            with m.If(self.flipp):
                m.d.sync += self.p.eq(~self.p)

        self.add_scan(m)

        return m
