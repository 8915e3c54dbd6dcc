"""The controller (the report's §3.5, appendix C): the chip's eight-state machine."""

from amaranth.hdl import Module
from amaranth.lib import enum
from amaranth.lib.wiring import In, Out

from .scan import Scanned


__all__ = ["State", "Choose", "Controller"]


class State(enum.Enum, shape=3):
    """State register codes, as the E.2 trace prints them."""
    waiting = 0
    returned = 1
    rating = 2
    justreset = 3
    finished = 4
    userjustmoved = 5
    doingbestmove = 6
    setboardi = 7


class Choose(enum.Enum, shape=2):
    """The choose mux select (appendix C: ``define choosetype random=0 i=01 m=10 key=11``)."""
    random = 0
    i = 1
    m = 2
    key = 3


class Controller(Scanned):
    """The finite state machine that runs the minimax search.

    A Mealy machine: its outputs depend on the state and on the inputs of the cycle spent
    in it, and the blocks act on them at the next edge. Outputs not driven in a state keep
    their defaults (appendix C's ``outputs`` line): all low, except ``toggleN`` high, and
    ``choose`` random.

    Members
    -------
    keypressed : In(1)
        Exactly one key is held (registered).
    validkey : In(1)
        The keyed place is empty.
    userbegins : In(1)
        The user makes the first move.
    full : In(1)
        The board is full.
    wins : In(1)
        Player ``p`` has three in a row.
    ground : In(1)
        ``sp == 0``: the bottom of the recursion.
    lasti : In(1)
        No empty place after ``i``: the move loop is at its end.
    rgea : In(1)
        ``r >= a``.
    rgbestr : In(1)
        ``r > bestr``.
    reset : In(1)
        Synchronous reset: the next state is ``justreset``.
    state : Out(State)
        The state register.
    init, retbest, remember, negr, sno, clearr : Out(1)
        Value controls: ``bestr=-1``, ``r=-bestr``, ``bestr=0``, ``r=-r``, ``r=-1``, ``r=0``.
    toggleN : Out(1)
        Active low: toggle the board bit chosen by ``choose`` (and ``p`` or ``piN``).
    assignmove : Out(1)
        ``m = i``.
    call : Out(1)
        Push ``i``, ``a``, ``bestr``; ``p`` inverted; ``a = -bestr``; ``bestr = -1``.
    pop : Out(1)
        Pop ``i``, ``a``, ``bestr``; ``p`` inverted.
    copyboard : Out(1)
        The board shows a real position (§4).
    choose : Out(Choose)
        The place the board toggles: random, ``i``, ``m`` or the key.
    nexti : Out(1)
        ``i = nextfree``.
    usei : Out(1)
        ``findfree`` starts after ``i`` rather than before place 0.
    fin : Out(1)
        The game is finished.
    win : Out(1)
        The game is finished and the chip has won.
    prompt : Out(1)
        The chip waits for the user's move.
    """

    scan_block = "controller"

    keypressed: In(1)
    validkey: In(1)
    userbegins: In(1)
    full: In(1)
    wins: In(1)
    ground: In(1)
    lasti: In(1)
    rgea: In(1)
    rgbestr: In(1)
    reset: In(1)

    # Power-up equals reset (docs/decisions.md): the register starts in justreset.
    state: Out(State, init=State.justreset)

    init: Out(1)
    retbest: Out(1)
    remember: Out(1)
    negr: Out(1)
    sno: Out(1)
    clearr: Out(1)
    toggleN: Out(1, init=1)
    assignmove: Out(1)
    call: Out(1)
    pop: Out(1)
    copyboard: Out(1)
    choose: Out(Choose)
    nexti: Out(1)
    usei: Out(1)
    fin: Out(1)
    win: Out(1)
    prompt: Out(1)

    def elaborate(self, platform):
        # Kept whole: this is appendix C's eight-state listing, each state's outputs beside
        # its next state as the paper gives them (Mealy: both hang on the same conditions).
        m = Module()

        # Appendix C: "let userhasmoved = keypressed & validkey".
        userhasmoved = self.keypressed & self.validkey

        def toggle(choose):
            m.d.comb += [
                self.choose.eq(choose),
                self.toggleN.eq(0),
            ]

        def goto(state):
            m.d.sync += self.state.eq(state)

        with m.Switch(self.state):
            with m.Case(State.justreset):
                # §3.5: a key already pressed means the chip is being set up (a stone
                # per key, §4); else userbegins chooses who opens.
                with m.If(userhasmoved):
                    toggle(Choose.key)
                with m.Elif(self.userbegins):
                    goto(State.waiting)
                with m.Else():
                    # §3.2: the chip opens at the random counter's place.
                    toggle(Choose.random)
                    goto(State.waiting)

            with m.Case(State.waiting):
                m.d.comb += self.prompt.eq(1)
                with m.If(userhasmoved):
                    # The user's stone goes on; the board is not a position to show
                    # until the chip has answered.
                    toggle(Choose.key)
                    goto(State.userjustmoved)
                with m.Else():
                    m.d.comb += self.copyboard.eq(1)

            with m.Case(State.userjustmoved):
                m.d.comb += self.copyboard.eq(1)
                # §3.5: a full board is a draw; the user cannot have won, so wins is not
                # looked at.
                with m.If(self.full):
                    goto(State.finished)
                with m.Else():
                    # Figure 1 "bestr := -1", and the loop starts at the first free place.
                    m.d.comb += [
                        self.init.eq(1),
                        self.nexti.eq(1),
                    ]
                    goto(State.setboardi)

            with m.Case(State.setboardi):
                # §3.5: place a stone for player p at i.
                toggle(Choose.i)
                goto(State.rating)

            with m.Case(State.rating):
                # wins and full are for player p, after the stone at i.
                with m.If((self.wins | self.full) & self.ground):
                    # The game is over; the chip's stone stays on the board.
                    goto(State.finished)
                with m.Elif(self.wins):
                    # Figure 1: "three stones in one row THEN value := +1", i.e. r = -1
                    # as the caller sees it; undo the stone and return.
                    toggle(Choose.i)
                    m.d.comb += [
                        self.sno.eq(1),
                        self.pop.eq(1),
                    ]
                    goto(State.returned)
                with m.Elif(self.full):
                    # Figure 1: "board full THEN value := 0".
                    toggle(Choose.i)
                    m.d.comb += [
                        self.clearr.eq(1),
                        self.pop.eq(1),
                    ]
                    goto(State.returned)
                with m.Else():
                    # The recursive call: the opponent tries its moves from place 0.
                    m.d.comb += [
                        self.call.eq(1),
                        self.nexti.eq(1),
                    ]
                    goto(State.setboardi)

            with m.Case(State.returned):
                # §3.5: nine cases; every one of them undoes the stone at i, and lasti and
                # nextfree look after i.
                m.d.comb += self.usei.eq(1)
                toggle(Choose.i)
                with m.If(self.rgea):
                    # Figure 1 "r = +1 THEN RETURN": alpha-beta cut-off.
                    with m.If(self.ground):
                        # Case 1.
                        m.d.comb += self.assignmove.eq(1)
                        goto(State.doingbestmove)
                    with m.Else():
                        # Case 2.
                        m.d.comb += [
                            self.negr.eq(1),
                            self.pop.eq(1),
                        ]
                        goto(State.returned)
                with m.Elif(self.rgbestr):
                    # Figure 1 "r > bestr THEN m := i; bestr := r"; r < a and r > bestr
                    # force r = 0, hence remember sets bestr = 0 (appendix C.2).
                    m.d.comb += self.remember.eq(1)
                    with m.If(self.lasti & self.ground):
                        # Case 3.
                        m.d.comb += self.assignmove.eq(1)
                        goto(State.doingbestmove)
                    with m.Elif(self.lasti):
                        # Case 4: return bestr (= r = 0), negated for the caller.
                        m.d.comb += [
                            self.negr.eq(1),
                            self.pop.eq(1),
                        ]
                        goto(State.returned)
                    with m.Elif(self.ground):
                        # Case 5: only the bottom level keeps a move in m.
                        m.d.comb += [
                            self.assignmove.eq(1),
                            self.nexti.eq(1),
                        ]
                        goto(State.setboardi)
                    with m.Else():
                        # Case 6.
                        m.d.comb += self.nexti.eq(1)
                        goto(State.setboardi)
                with m.Else():
                    with m.If(self.lasti & self.ground):
                        # Case 7: play the m found earlier.
                        goto(State.doingbestmove)
                    with m.Elif(self.lasti):
                        # Case 8: return bestr, negated for the caller.
                        m.d.comb += [
                            self.retbest.eq(1),
                            self.pop.eq(1),
                        ]
                        goto(State.returned)
                    with m.Else():
                        # Case 9: try the next move.
                        m.d.comb += self.nexti.eq(1)
                        goto(State.setboardi)

            with m.Case(State.doingbestmove):
                # §3.5: make the move stored in m (p is the chip's at ground).
                toggle(Choose.m)
                goto(State.waiting)

            with m.Case(State.finished):
                # §3.5: "waits forever"; appendix C: "state finished copyboard fin win".
                m.d.comb += [
                    self.copyboard.eq(1),
                    self.fin.eq(1),
                    self.win.eq(self.wins),
                ]

        # Appendix C: "reset !resetN --> JustReset", synchronous (docs/decisions.md).
        with m.If(self.reset):
            goto(State.justreset)

        self.add_scan(m)

        return m
