"""The defusal: the module's presses judged, from its first wait until it is solved."""

from amaranth.hdl import Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..cartridge import BOARD
from .keypad import pieces
from .walk import PASS


__all__ = ["Defusal", "STRIKES_MAX"]

STRIKES_MAX = 9             # one digit on the host's line


class Defusal(wiring.Component):
    """The second part of a module, one clock each (hdl/ktane/cartridge.py's text has
    the rules):

    - SETUP, while a new module is set up: the strikes, the strike lamp and the pass
      are zeroed and PASS changes are no press; at ``set_up`` bit 4 is Up Next, the row
      the starting row, and the module waits.
    - READY (``ready``): a key, else a change of ``passing`` (PASS), is the press.
    - WALK (``busy``, a clock per row): down a row while the walk's key is ``taken``.
    - JUDGE: a press other than ``wanted`` is a strike (counted to `STRIKES_MAX`, the
      row back to the start, the line said again); a right key takes Up Next; a right
      PASS flips Up Next, or after an earlier right PASS goes to RANDOM.
    - RANDOM: Up Next on place ``v`` once it is empty.
    - NEXT: a full board is SOLVED (``over``), else bit 4 is Up Next.

    Members
    -------
    start : In(1)
        A new module: SETUP on the next clock, from any state.
    set_up : In(1)
        The new module's pieces are on.
    word : In(16)
        The LFSR's word on this clock.
    key : In(9)
        The console's key press, one hot.
    passing : In(1)
        Switch 1: each change is a press of PASS.
    board : In(BOARD)
        The keypad.
    start_row : In(range(9))
        The starting row of the module's edgework.
    place, taken, wanted : In(range(9)), In(1), In(range(PASS + 1))
        The walk's key at ``row``, whether it is taken, and the press wanted there.
    ready, busy, over : Out(1)
        The cartridge's: waiting for a press, working on one, solved.
    row : Out(range(9))
        The chart's row, registered.
    up : Out(1)
        Up Next, registered: 1 X, 0 O.
    strikes : Out(range(STRIKES_MAX + 1))
        The strikes of this module, registered.
    struck : Out(1)
        From a wrong press until the next right one.
    put, at, x : Out(1), Out(range(9)), Out(1)
        To the keypad: piece ``x`` (Up Next) on place ``at``.
    say : Out(1)
        A strike: the module's line is sent again.
    """

    start: In(1)
    set_up: In(1)
    word: In(16)
    key: In(9)
    passing: In(1)
    board: In(BOARD)
    start_row: In(range(9))
    place: In(range(9))
    taken: In(1)
    wanted: In(range(PASS + 1))
    ready: Out(1)
    busy: Out(1)
    over: Out(1)
    row: Out(range(9))
    up: Out(1, init=1)
    strikes: Out(range(STRIKES_MAX + 1))
    struck: Out(1)
    put: Out(1)
    at: Out(range(9))
    x: Out(1)
    say: Out(1)

    def elaborate(self, platform):
        m = Module()
        v, bit = self.word[:4], self.word[4]
        row, up, strikes, struck, passing = (self.row, self.up, self.strikes, self.struck,
                                             self.passing)
        passed = Signal()               # the last right press was a PASS
        press = Signal(range(PASS + 1))
        pass_seen = Signal()            # switch 1 as last taken
        _, _, empty = pieces(self.board)
        free = (v < 9) & empty.bit_select(v, 1)       # a draw of an empty place
        next_row = Mux(row == 8, 0, row + 1)
        m.d.comb += self.x.eq(up)

        def restart():
            # From any state, last so that it wins.
            with m.If(self.start):
                m.next = "SETUP"

        with m.FSM(init="SETUP"):
            with m.State("SETUP"):
                m.d.sync += [strikes.eq(0), struck.eq(0), passed.eq(0),
                             pass_seen.eq(passing)]
                with m.If(self.set_up):
                    m.d.sync += [up.eq(bit), row.eq(self.start_row)]
                    m.next = "READY"
                restart()
            with m.State("READY"):
                m.d.comb += self.ready.eq(1)
                with m.If(self.key.any()):
                    for k in range(9):
                        with m.If(self.key[k]):
                            m.d.sync += press.eq(k)
                    m.next = "WALK"
                with m.Elif(passing != pass_seen):
                    m.d.sync += [press.eq(PASS), pass_seen.eq(passing)]
                    m.next = "WALK"
                restart()
            with m.State("WALK"):
                m.d.comb += self.busy.eq(1)
                with m.If(self.taken):
                    m.d.sync += row.eq(next_row)
                with m.Else():
                    m.next = "JUDGE"
                restart()
            with m.State("JUDGE"):
                m.d.comb += self.busy.eq(1)
                with m.If(press != self.wanted):
                    m.d.sync += [strikes.eq(Mux(strikes == STRIKES_MAX, strikes,
                                                strikes + 1)),
                                 struck.eq(1), row.eq(self.start_row)]
                    m.d.comb += self.say.eq(1)
                    m.next = "READY"
                with m.Elif(press != PASS):
                    m.d.comb += [self.put.eq(1), self.at.eq(self.place)]
                    m.d.sync += [passed.eq(0), struck.eq(0), row.eq(next_row)]
                    m.next = "NEXT"
                with m.Elif(passed):
                    m.d.sync += struck.eq(0)
                    m.next = "RANDOM"
                with m.Else():
                    m.d.sync += [struck.eq(0), passed.eq(1), up.eq(~up)]
                    m.next = "READY"
                restart()
            with m.State("RANDOM"):
                m.d.comb += self.busy.eq(1)
                with m.If(free):
                    m.d.comb += [self.put.eq(1), self.at.eq(v)]
                    m.d.sync += [passed.eq(0), row.eq(next_row)]
                    m.next = "NEXT"
                restart()
            with m.State("NEXT"):
                m.d.comb += self.busy.eq(1)
                with m.If(~empty.any()):
                    m.next = "SOLVED"
                with m.Else():
                    m.d.sync += up.eq(bit)
                    m.next = "READY"
                restart()
            with m.State("SOLVED"):
                m.d.comb += self.over.eq(1)
                m.d.sync += pass_seen.eq(passing)
                restart()
        return m
