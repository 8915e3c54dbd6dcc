"""The bomb module "Tic-Tac-Toe" of Keep Talking and Nobody Explodes as a
cartridge: the board is the bomb, a person defuses it with the manual page in hand.

The rules, with the gaps decided as the original module does (docs/ktane.md), clock by
clock (firmware_ref/ktane/ is the golden model written from this text):

- The board: X red, O green. Switch 1 is PASS: each change of it is one press (the
  iCEBreaker's BTN3 toggles it; the host sends ``W1``). Lamps: your move, solved,
  strike (lit from a wrong press until the next right one), Up Next is X (dark: O).
- ``start`` (and power-up) begins a module; while ``start`` is high the board shows
  ``position``. Then, one clock each: BEGIN clears the board, puts the labels in
  reading order, zeroes the strikes and the pass; it takes the host's edgework if it
  set one (hdl/ktane/host.py), else DIGIT draws it: the LFSR's low nibble ``v`` when
  below 10 is the serial number's last digit, bit 4 the parallel port, bits 5-6 the
  lit and bits 7-8 the unlit indicators (0-3), else it draws again. SHUFFLE, with
  shuffled labels, swaps the keys of labels i and v for i = 8 down to 1, each once
  ``v <= i`` (Fisher-Yates, as the original). PIECES puts piece X (bit 4 set) or O on
  place ``v`` when ``v`` is an empty place and the piece makes no line there, until
  five are on; the clock after the fifth, bit 4 is Up Next and the module waits
  (READY), its line sent to the host. The row is the starting row from the edgework.
- READY (``ready``): a key, else a change of switch 1 (PASS), is the press. WALK
  (``busy``, a clock per row) reads the chart at the row and the column (more Xs,
  as many, more Os; X or O up next) and moves down a row while that label's key is
  taken. JUDGE: the press wanted is PASS if Up Next there makes a line, else that
  key. A wrong press is a strike: the count goes up (it stops at 9), the row goes
  back to the start, the line is sent again; pieces, Up Next and the pass stay. A
  right key takes Up Next, the row moves on, the pass is forgotten (NEXT). A right
  PASS flips Up Next and the row stays, or, right after an earlier right PASS,
  RANDOM puts Up Next on place ``v`` once it is empty, and the row moves on (NEXT).
- NEXT: a full board is SOLVED (``over``: every press ignored); else bit 4 is Up
  Next and the module waits again.
"""

from amaranth.hdl import Cat, Module, Mux, Signal

from ..cartridge import BOARD, Cartridge
from ..turns import completes
from .chart import Chart
from .host import EDGE, HostPort
from .labels import Labels
from .lfsr import LFSR


__all__ = ["Ktane", "CARTRIDGE", "PIECES", "STRIKES_MAX"]

PIECES = 5                  # on the board when a module begins
STRIKES_MAX = 9             # one digit on the host's line
PASS_SWITCH = 1
PASS = 9                    # the press that is not a key
# The starting row (0-8) of rules 1-5: (lowest, average, highest) for an odd or even
# last digit, without and with a parallel port.
ROWS = {(0, 0): (0, 1, 2), (0, 1): (1, 2, 3), (1, 0): (4, 6, 8), (1, 1): (5, 6, 7)}


class Ktane(Cartridge):
    code = "K"
    title = "Tic-Tac-Toe, the bomb module of Keep Talking and Nobody Explodes"
    machine = "the bomb"
    lamp_names = ("your move", "solved", "strike", "Up Next is X")
    switch_names = ("(unused)", "PASS (each change is a press)")
    switch_init = 0

    def elaborate(self, platform):
        m = Module()
        m.submodules.lfsr = lfsr = LFSR()
        m.submodules.chart = chart = Chart()
        m.submodules.labels = labels = Labels()
        m.submodules.host = host = HostPort()
        m.d.comb += [
            host.rx.valid.eq(self.rx.valid), host.rx.payload.eq(self.rx.payload),
            self.rx.ready.eq(host.rx.ready),
            self.tx.valid.eq(host.tx.valid), self.tx.payload.eq(host.tx.payload),
            host.tx.ready.eq(self.tx.ready),
            labels.at.eq(host.at), host.label.eq(labels.label_at),
        ]

        board = Signal(BOARD)
        edge = Signal(EDGE)
        row = Signal(range(9))
        up = Signal(init=1)             # Up Next: 1 X, 0 O
        passed = Signal()               # the last right press was a PASS
        strikes = Signal(range(STRIKES_MAX + 1))
        struck = Signal()
        press = Signal(range(PASS + 1))
        pass_seen = Signal()            # switch 1 as last taken
        index = Signal(range(9))        # Fisher-Yates' i
        count = Signal(range(PIECES + 1))

        v, bit = lfsr.word[:4], lfsr.word[4]
        xs = Cat(place.red for place in board)
        os = Cat(place.green for place in board)
        empty = ~(xs | os)
        more_x = sum(xs) > sum(os)
        same = sum(xs) == sum(os)
        start_row = Signal(range(9))
        for (even, port), rows in ROWS.items():
            with m.If((~edge.digit[0] == even) & (edge.port == port)):
                with m.If(edge.unlit > edge.lit):
                    m.d.comb += start_row.eq(rows[0])
                with m.Elif(edge.lit > edge.unlit):
                    m.d.comb += start_row.eq(rows[2])
                with m.Else():
                    m.d.comb += start_row.eq(rows[1])

        # The walk's key: the chart at this row, through the labels. The column is
        # registered (a short path): the board and Up Next change only on the way to
        # READY, and a walk begins a clock after READY at the soonest.
        column = Signal(range(6))
        m.d.sync += column.eq(Mux(more_x, 0, Mux(same, 2, 4)) + ~up)
        m.d.comb += [chart.row.eq(row), chart.column.eq(column),
                     labels.label.eq(chart.label)]
        place = labels.place
        taken = ~empty.bit_select(place, 1)
        line = completes(Mux(up, xs, os), empty).bit_select(place, 1)
        wanted = Mux(line, PASS, place)
        free = (v < 9) & empty.bit_select(v, 1)       # a draw of an empty place
        passing = self.switches[PASS_SWITCH]

        m.d.comb += [
            self.board.eq(board),
            self.lamps.eq(Cat(self.ready, self.over, struck, up)),
            host.edge.eq(edge), host.strikes.eq(strikes),
            labels.i.eq(index), labels.j.eq(v),
        ]

        def put(at, x):
            m.d.sync += [board[at].red.eq(x), board[at].green.eq(~x)]

        def restart():
            # From any state, last so that it wins.
            with m.If(self.start):
                m.d.sync += board.eq(self.position)
                m.next = "BEGIN"

        with m.FSM(init="BEGIN"):
            with m.State("BEGIN"):
                m.d.comb += labels.identity.eq(1)
                m.d.sync += [board.eq(0), strikes.eq(0), struck.eq(0), passed.eq(0),
                             count.eq(0), index.eq(8), pass_seen.eq(passing)]
                with m.If(host.host_set):
                    m.d.sync += edge.eq(host.host)
                    m.next = "SHUFFLE"
                with m.Else():
                    m.next = "DIGIT"
                restart()
            with m.State("DIGIT"):
                m.d.sync += pass_seen.eq(passing)
                with m.If(v < 10):
                    m.d.sync += [edge.digit.eq(v), edge.port.eq(bit),
                                 edge.lit.eq(lfsr.word[5:7]), edge.unlit.eq(lfsr.word[7:9])]
                    m.next = "SHUFFLE"
                restart()
            with m.State("SHUFFLE"):
                m.d.sync += pass_seen.eq(passing)
                with m.If(~host.shuffle | (index == 0)):
                    m.next = "PIECES"
                with m.Elif(v <= index):
                    m.d.comb += labels.swap.eq(1)
                    m.d.sync += index.eq(index - 1)
                restart()
            with m.State("PIECES"):
                m.d.sync += [pass_seen.eq(passing), row.eq(start_row)]
                with m.If(count == PIECES):
                    m.d.sync += up.eq(bit)
                    m.d.comb += host.say.eq(1)
                    m.next = "READY"
                with m.Elif(free & ~completes(Mux(bit, xs, os), empty).bit_select(v, 1)):
                    put(v, bit)
                    m.d.sync += count.eq(count + 1)
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
                with m.If(taken):
                    m.d.sync += row.eq(Mux(row == 8, 0, row + 1))
                with m.Else():
                    m.next = "JUDGE"
                restart()
            with m.State("JUDGE"):
                m.d.comb += self.busy.eq(1)
                with m.If(press != wanted):
                    m.d.sync += [strikes.eq(Mux(strikes == STRIKES_MAX, strikes,
                                                strikes + 1)),
                                 struck.eq(1), row.eq(start_row)]
                    m.d.comb += host.say.eq(1)
                    m.next = "READY"
                with m.Elif(press != PASS):
                    put(place, up)
                    m.d.sync += [passed.eq(0), struck.eq(0),
                                 row.eq(Mux(row == 8, 0, row + 1))]
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
                    put(v, up)
                    m.d.sync += [passed.eq(0), row.eq(Mux(row == 8, 0, row + 1))]
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


CARTRIDGE = Ktane
