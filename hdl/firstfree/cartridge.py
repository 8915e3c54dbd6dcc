"""First free: a machine that always takes the first empty place, as a cartridge.

The rules, clock by clock (firmware_ref/firstfree is the golden model written from
this text):

- While ``start`` is high the board takes ``position``; the clock after it falls the
  person moves first if switch 0 is on, else the machine thinks.
- Waiting (``ready``): a key on an empty place puts the person's stone there; a key on a
  taken place is ignored.
- The clock after a stone, the game is judged: a line of that colour or a full board
  ends it (``over``); else the other side moves.
- Thinking (``busy``) looks at one place per clock from place 0 and puts the machine's
  stone on the first empty one; it also says the place to the host as a line, its digit
  and a newline (the latest move only, if the host is slow to take it).
- Lamps: your move (``ready``), over, the machine won, the person won.
"""

from amaranth.hdl import Cat, Module, Mux, Signal

from ..cartridge import BOARD, Cartridge


__all__ = ["FirstFree", "CARTRIDGE"]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))


class FirstFree(Cartridge):
    code = "F"
    title = "first free (a test cartridge: the first empty place)"
    lamp_names = ("your move", "over", "machine won", "you won")
    switch_names = ("you begin",)
    switch_init = 0b1

    def elaborate(self, platform):
        m = Module()
        board = Signal(BOARD)
        index = Signal(range(9))
        said = Signal(range(9))             # the move to say
        saying = Signal(2)                  # 2: its digit, 1: the newline, 0: nothing

        red = Cat(place.red for place in board)
        green = Cat(place.green for place in board)
        full = (red | green).all()

        def line(stones):
            return Cat(Cat(stones[k] for k in three).all() for three in LINES).any()

        m.d.comb += [
            self.board.eq(board),
            self.lamps.eq(Cat(self.ready, self.over, line(red), line(green))),
            self.rx.ready.eq(1),            # it has nothing to hear
        ]

        # The line that says the move, beside the game: the game never waits for it.
        m.d.comb += [self.tx.valid.eq(saying != 0),
                     self.tx.payload.eq(Mux(saying == 2, ord("0") + said, ord("\n")))]
        with m.If(self.tx.valid & self.tx.ready):
            m.d.sync += saying.eq(saying - 1)

        def restart():
            # From any state, last so that it wins.
            with m.If(self.start):
                m.d.sync += [board.eq(self.position), saying.eq(0)]
                m.next = "OPEN"

        with m.FSM(init="OPEN"):
            with m.State("OPEN"):
                with m.If(self.switches[0]):
                    m.next = "WAIT"
                with m.Else():
                    m.d.sync += index.eq(0)
                    m.next = "THINK"
                restart()
            with m.State("WAIT"):
                m.d.comb += self.ready.eq(1)
                for k in range(9):
                    with m.If(self.key[k] & ~board[k].red & ~board[k].green):
                        m.d.sync += board[k].green.eq(1)
                        m.next = "JUDGE_PERSON"
                restart()
            with m.State("JUDGE_PERSON"):
                m.d.comb += self.busy.eq(1)
                with m.If(line(green) | full):
                    m.next = "OVER"
                with m.Else():
                    m.d.sync += index.eq(0)
                    m.next = "THINK"
                restart()
            with m.State("THINK"):
                m.d.comb += self.busy.eq(1)
                with m.If(board[index].red | board[index].green):
                    m.d.sync += index.eq(index + 1)
                with m.Else():
                    m.d.sync += [board[index].red.eq(1), said.eq(index), saying.eq(2)]
                    m.next = "JUDGE_MACHINE"
                restart()
            with m.State("JUDGE_MACHINE"):
                m.d.comb += self.busy.eq(1)
                with m.If(line(red) | full):
                    m.next = "OVER"
                with m.Else():
                    m.next = "WAIT"
                restart()
            with m.State("OVER"):
                m.d.comb += self.over.eq(1)

                restart()
        return m


CARTRIDGE = FirstFree
