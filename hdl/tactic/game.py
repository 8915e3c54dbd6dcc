"""Tactic-Toe's cartridge, state by state: BEGIN, ENTER_A, ENTER_B, THINK, APPLY,
JUDGE, SHOW and OVER (hdl/tactic/cartridge.py's text gives them clock by clock)."""

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from ..cartridge import BOARD, SWITCHES
from ..turns import lines
from .resolver import CATS, O_WINS, OPEN, TIE, X_WINS, step

__all__ = ["MACHINE_SWITCH", "Game"]

MACHINE_SWITCH = 1


class Game(wiring.Component):
    """The states of a game and the board it is played on: the round, the step being
    shown, the last step's bounce and the result. The plans are entered in the plans
    (hdl/tactic/plans.py), B's planned by the planner (hdl/tactic/planner.py) while
    the machine plays B.

    ``start`` goes to BEGIN from every state, the board taking ``position`` meanwhile.

    Members
    -------
    key : In(9)
        A key press, one-hot (SHOW: the next step).
    start : In(1)
        Begin a new game.
    position : In(BOARD)
        The board while ``start`` is high.
    switches : In(SWITCHES)
        `MACHINE_SWITCH`: the machine plans for B.
    board : Out(BOARD)
        Combinational. What the panel shows.
    ready, busy, over : Out(1)
        Combinational. The cartridge's ``ready``, ``busy`` and ``over``.
    result : Out(3)
        The game's result, `OPEN` ... `O_WINS` (hdl/tactic/resolver.py).
    stones : Out(BOARD)
        The game's board.
    xs, os : Out(9)
        Combinational. A's places (green), B's (red).
    round : Out(range(1, 4))
        The round.
    bounce : Out(1)
        The last step bounced, on place ``bounce_at``.
    bounce_at : Out(4)
        The place of A's last move.
    entering, shown : In(BOARD)
        The display's board while a plan is entered, and the game's board.
    colour : Out(1)
        Combinational. The player entering a plan: 0 A, 1 B.
    clear, enter, machine, keep : Out(1)
        Combinational. The plans': a new game, a player enters a plan (``colour``),
        B's plan is the planner's, the plans become the histories.
    complete : In(1)
        The plan's third key is taken.
    plan_a, plan_b : In(4).array(3)
        A's and B's plans.
    run : Out(1)
        Combinational. The planner plans.
    done : In(1)
        The planner's plan is in.
    say : Out(1)
        Combinational. The line writer says B's plan.
    """

    key: In(9)
    start: In(1)
    position: In(BOARD)
    switches: In(SWITCHES)
    board: Out(BOARD)
    ready: Out(1)
    busy: Out(1)
    over: Out(1)
    result: Out(3)
    stones: Out(BOARD)
    xs: Out(9)
    os: Out(9)
    round: Out(range(1, 4), init=1)
    bounce: Out(1)
    bounce_at: Out(4)
    entering: In(BOARD)
    shown: In(BOARD)
    colour: Out(1)
    clear: Out(1)
    enter: Out(1)
    machine: Out(1)
    keep: Out(1)
    complete: In(1)
    plan_a: In(4).array(3)
    plan_b: In(4).array(3)
    run: Out(1)
    done: In(1)
    say: Out(1)

    def elaborate(self, platform):
        m = Module()
        stones, round, xs, os = self.stones, self.round, self.xs, self.os
        at = Signal(range(3))               # the step being shown
        m.d.comb += [xs.eq(Cat(place.green for place in stones)),
                     os.eq(Cat(place.red for place in stones))]

        def restart():
            # From any state, last so that it wins.
            with m.If(self.start):
                m.d.sync += stones.eq(self.position)
                m.next = "BEGIN"

        with m.FSM(init="BEGIN"):
            with m.State("BEGIN"):
                m.d.comb += [self.board.eq(stones), self.clear.eq(1)]
                m.d.sync += [stones.eq(0), round.eq(1), at.eq(0), self.bounce.eq(0),
                             self.result.eq(OPEN)]
                m.next = "ENTER_A"
                restart()
            with m.State("ENTER_A"):
                m.d.comb += [self.board.eq(self.entering), self.colour.eq(0),
                             self.enter.eq(1), self.ready.eq(1)]
                with m.If(self.complete):
                    with m.If(self.switches[MACHINE_SWITCH]):
                        m.next = "THINK"
                    with m.Else():
                        m.next = "ENTER_B"
                restart()
            with m.State("ENTER_B"):
                m.d.comb += [self.board.eq(self.entering), self.colour.eq(1),
                             self.enter.eq(1), self.ready.eq(1)]
                with m.If(self.complete):
                    m.next = "APPLY"
                restart()
            with m.State("THINK"):
                m.d.comb += [self.busy.eq(1), self.run.eq(1), self.board.eq(self.shown)]
                with m.If(self.done):
                    m.d.comb += [self.machine.eq(1), self.say.eq(1)]
                    m.next = "APPLY"
                restart()
            with m.State("APPLY"):
                m.d.comb += [self.busy.eq(1), self.board.eq(self.shown)]
                a = Mux(at == 0, self.plan_a[0], Mux(at == 1, self.plan_a[1], self.plan_a[2]))
                b = Mux(at == 0, self.plan_b[0], Mux(at == 1, self.plan_b[1], self.plan_b[2]))
                new_xs, new_os = step(m, xs, os, a, b)
                m.d.sync += [Cat(place.green for place in stones).eq(new_xs),
                             Cat(place.red for place in stones).eq(new_os),
                             self.bounce.eq((a == b) & ~((xs | os).bit_select(a, 1))),
                             self.bounce_at.eq(a)]
                m.next = "JUDGE"
                restart()
            with m.State("JUDGE"):
                m.d.comb += [self.busy.eq(1), self.board.eq(self.shown)]
                x_line, o_line, full = lines(xs).any(), lines(os).any(), (xs | os).all()
                with m.If(x_line | o_line | full):
                    m.d.sync += self.result.eq(Mux(x_line & o_line, TIE, Mux(
                        x_line, X_WINS, Mux(o_line, O_WINS, CATS))))
                    m.next = "OVER"
                with m.Elif((at == 2) & (round == 3)):
                    m.d.sync += self.result.eq(CATS)
                    m.next = "OVER"
                with m.Else():
                    m.next = "SHOW"
                restart()
            with m.State("SHOW"):
                m.d.comb += [self.ready.eq(1), self.board.eq(self.shown)]
                with m.If(self.key.any()):
                    with m.If(at == 2):
                        m.d.sync += [at.eq(0), self.bounce.eq(0), round.eq(round + 1)]
                        with m.If(round == 1):
                            m.d.comb += self.keep.eq(1)
                        m.next = "ENTER_A"
                    with m.Else():
                        m.d.sync += at.eq(at + 1)
                        m.next = "APPLY"
                restart()
            with m.State("OVER"):
                m.d.comb += [self.over.eq(1), self.board.eq(self.shown)]
                restart()
        return m
