"""David Dickerson's Tactic-Toe as a cartridge: the board referees two people, or one person
against the machine's planner (docs/tactic.md).

The rules and the resolver are firmware_ref/tactic's; the cartridge, clock by clock
(firmware_ref/tactic/model.py is the golden model written from this text):

- Player A (X) is green, player B (O) red. Switch 1 on (at power-up): the machine
  plans for B (hdl/tactic/planner.py); off: two people, hot-seat.
- ``start`` (and power-up) begins a game: while it is high the board shows
  ``position``; then BEGIN clears the board and takes round 1.
- ENTER_A, then ENTER_B (``ready``): the player enters a plan, three keys. The board
  goes dark but for the top row, one place lit in the player's colour for each key
  taken (so nothing shows where), the middle row red while the last key was
  refused, and the bottom row showing the round (1-3 places, both colours). A key the
  round's rule refuses (hdl/tactic/rules.py) changes nothing else.
- THINK (``busy``), instead of ENTER_B with the machine: the planner runs; the clock
  after its ``done`` the plan is B's, and B's plan is said to the host as a line, its
  three places 1-9 and a newline.
- APPLY (``busy``) resolves one step: a move onto a taken place fails, two onto one
  empty place bounce. JUDGE (``busy``): a line ends the game (both: a tie), so does a
  full board (a cats game), and the last step of round 3 (a cats game); else SHOW
  (``ready``) shows the board, a bounced place flashing both colours, until a key:
  the next step, or after the third the next round (round 1's plans are kept as the
  players' histories).
- OVER (``over``). Lamps: your move (``ready``), over, B won (the machine's), A won;
  a tie lights both, a cats game neither.
"""

from amaranth.hdl import Cat, Module, Mux, Signal

from ..cartridge import BOARD, Cartridge
from .planner import Planner
from .resolver import CATS, O_WINS, OPEN, TIE, X_WINS, step
from ..turns import lines
from .rules import allowed


__all__ = ["Tactic", "CARTRIDGE"]

MACHINE_SWITCH = 1


class Tactic(Cartridge):
    code = "C"             # "T" is turbo's
    title = "David Dickerson's Tactic-Toe: plan three, reveal together"
    machine = "the planner"
    lamp_names = ("your move", "over", "B won", "A won")
    switch_names = ("(unused)", "the machine plays B")
    switch_init = 0b10
    blinks = True           # a bounce flashes, with the top bit of a blink's counter

    def elaborate(self, platform):
        m = Module()
        m.submodules.planner = planner = Planner()
        stones = Signal(BOARD)              # the game's board (the port shows more)
        round = Signal(range(1, 4), init=1)
        plan_a = [Signal(4, name=f"plan_a{i}") for i in range(3)]
        plan_b = [Signal(4, name=f"plan_b{i}") for i in range(3)]
        hist_a = [Signal(4, name=f"hist_a{i}") for i in range(3)]
        hist_b = [Signal(4, name=f"hist_b{i}") for i in range(3)]
        taken = Signal(range(3))            # keys of the plan being entered
        refused = Signal()
        at = Signal(range(3))               # the step being shown
        bounce = Signal()
        bounce_at = Signal(4)
        result = Signal(3)
        flash = Signal(range(self.blink))
        saying = Signal(range(5))           # 4..1: three places and a newline to send
        m.d.sync += flash.eq(flash + 1)

        xs, os = Signal(9), Signal(9)                  # A's places, B's
        m.d.comb += [xs.eq(Cat(place.green for place in stones)),
                     os.eq(Cat(place.red for place in stones))]
        key = Signal(4)
        for k in range(9):
            with m.If(self.key[k]):
                m.d.comb += key.eq(k)

        m.d.comb += [
            planner.round.eq(round), planner.xs.eq(xs), planner.os.eq(os),
            *(planner.history_a[i].eq(hist_a[i]) for i in range(3)),
            *(planner.history_b[i].eq(hist_b[i]) for i in range(3)),
            self.rx.ready.eq(1),
        ]

        # The line that says B's plan.
        m.d.comb += [self.tx.valid.eq(saying != 0),
                     self.tx.payload.eq(Mux(saying == 1, ord("\n"), ord("1") + Mux(
                         saying == 4, plan_b[0], Mux(saying == 3, plan_b[1], plan_b[2]))))]
        with m.If(self.tx.valid & self.tx.ready):
            m.d.sync += saying.eq(saying - 1)

        # What the board shows.
        entering = Signal(BOARD)
        colour = Signal()                   # the entering player: 0 A green, 1 B red
        for i in range(3):
            m.d.comb += [entering[i].green.eq(~colour & (taken > i)),
                         entering[i].red.eq(colour & (taken > i)),
                         entering[3 + i].red.eq(refused),
                         entering[6 + i].red.eq(round > i),
                         entering[6 + i].green.eq(round > i)]
        shown = Signal(BOARD)
        m.d.comb += shown.eq(stones)
        with m.If(bounce & flash[-1]):
            m.d.comb += [shown[bounce_at].red.eq(1), shown[bounce_at].green.eq(1)]

        def enter(plan, history, after):
            m.d.comb += self.ready.eq(1)
            ok = Mux(taken == 0, allowed(round, history, [], key),
                     Mux(taken == 1, allowed(round, history, plan[:1], key),
                         allowed(round, history, plan[:2], key)))
            with m.If(self.key.any()):
                with m.If(ok):
                    m.d.sync += [plan[0].eq(Mux(taken == 0, key, plan[0])),
                                 plan[1].eq(Mux(taken == 1, key, plan[1])),
                                 plan[2].eq(Mux(taken == 2, key, plan[2])),
                                 refused.eq(0), taken.eq(taken + 1)]
                    with m.If(taken == 2):
                        m.d.sync += taken.eq(0)
                        after()
                with m.Else():
                    m.d.sync += refused.eq(1)

        def restart():
            # From any state, last so that it wins.
            with m.If(self.start):
                m.d.sync += stones.eq(self.position)
                m.next = "BEGIN"

        def goto(state):
            def go():
                m.next = state
            return go

        with m.FSM(init="BEGIN"):
            with m.State("BEGIN"):
                m.d.comb += self.board.eq(stones)
                m.d.sync += [stones.eq(0), round.eq(1), taken.eq(0), refused.eq(0),
                             at.eq(0), bounce.eq(0), result.eq(OPEN)]
                m.next = "ENTER_A"
                restart()
            with m.State("ENTER_A"):
                m.d.comb += [self.board.eq(entering), colour.eq(0)]

                def after_a():
                    with m.If(self.switches[MACHINE_SWITCH]):
                        m.next = "THINK"
                    with m.Else():
                        m.next = "ENTER_B"
                enter(plan_a, hist_a, after_a)
                restart()
            with m.State("ENTER_B"):
                m.d.comb += [self.board.eq(entering), colour.eq(1)]
                enter(plan_b, hist_b, goto("APPLY"))
                restart()
            with m.State("THINK"):
                m.d.comb += [self.busy.eq(1), planner.run.eq(1), self.board.eq(shown)]
                with m.If(planner.done):
                    m.d.sync += [*(plan_b[i].eq(planner.plan[i]) for i in range(3)),
                                 saying.eq(4)]
                    m.next = "APPLY"
                restart()
            with m.State("APPLY"):
                m.d.comb += [self.busy.eq(1), self.board.eq(shown)]
                a = Mux(at == 0, plan_a[0], Mux(at == 1, plan_a[1], plan_a[2]))
                b = Mux(at == 0, plan_b[0], Mux(at == 1, plan_b[1], plan_b[2]))
                new_xs, new_os = step(m, xs, os, a, b)
                m.d.sync += [Cat(place.green for place in stones).eq(new_xs),
                             Cat(place.red for place in stones).eq(new_os),
                             bounce.eq((a == b) & ~((xs | os).bit_select(a, 1))),
                             bounce_at.eq(a)]
                m.next = "JUDGE"
                restart()
            with m.State("JUDGE"):
                m.d.comb += [self.busy.eq(1), self.board.eq(shown)]
                x_line, o_line, full = lines(xs).any(), lines(os).any(), (xs | os).all()
                with m.If(x_line | o_line | full):
                    m.d.sync += result.eq(Mux(x_line & o_line, TIE, Mux(
                        x_line, X_WINS, Mux(o_line, O_WINS, CATS))))
                    m.next = "OVER"
                with m.Elif((at == 2) & (round == 3)):
                    m.d.sync += result.eq(CATS)
                    m.next = "OVER"
                with m.Else():
                    m.next = "SHOW"
                restart()
            with m.State("SHOW"):
                m.d.comb += [self.ready.eq(1), self.board.eq(shown)]
                with m.If(self.key.any()):
                    with m.If(at == 2):
                        m.d.sync += [at.eq(0), bounce.eq(0), round.eq(round + 1)]
                        with m.If(round == 1):
                            m.d.sync += [*(hist_a[i].eq(plan_a[i]) for i in range(3)),
                                         *(hist_b[i].eq(plan_b[i]) for i in range(3))]
                        m.next = "ENTER_A"
                    with m.Else():
                        m.d.sync += at.eq(at + 1)
                        m.next = "APPLY"
                restart()
            with m.State("OVER"):
                m.d.comb += [self.over.eq(1), self.board.eq(shown)]
                restart()
        m.d.comb += self.lamps.eq(Cat(
            self.ready, self.over,
            self.over & ((result == O_WINS) | (result == TIE)),
            self.over & ((result == X_WINS) | (result == TIE))))
        return m


CARTRIDGE = Tactic
