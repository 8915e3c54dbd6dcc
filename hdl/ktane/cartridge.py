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

from amaranth.hdl import Cat, Module, Mux
from amaranth.lib import wiring

from ..cartridge import Cartridge
from .defusal import STRIKES_MAX, Defusal
from .host import HostPort
from .keypad import Keypad
from .labels import Labels
from .lfsr import LFSR
from .new_module import PIECES, NewModule
from .start_row import StartRow
from .walk import Walk


__all__ = ["Ktane", "CARTRIDGE", "PIECES", "STRIKES_MAX"]

PASS_SWITCH = 1


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
        m.submodules.labels = labels = Labels()
        m.submodules.host = host = HostPort()
        m.submodules.keypad = keypad = Keypad()
        m.submodules.start_row = start_row = StartRow()
        m.submodules.walk = walk = Walk()
        # A module's two parts, each an FSM that waits while the other runs: the new
        # module's set-up (BEGIN to PIECES), then the defusal (READY to SOLVED).
        m.submodules.new_module = new = NewModule()
        m.submodules.defusal = defusal = Defusal()

        wiring.connect(m, wiring.flipped(self.rx), host.rx)
        wiring.connect(m, host.tx, wiring.flipped(self.tx))
        m.d.comb += [
            labels.at.eq(host.at), host.label.eq(labels.label_at),
            host.edge.eq(new.edge), host.strikes.eq(defusal.strikes),
            host.say.eq(new.done | defusal.say),
            start_row.edge.eq(new.edge),
        ]
        m.d.comb += [
            new.start.eq(self.start), new.word.eq(lfsr.word), new.board.eq(keypad.board),
            new.host.eq(host.host), new.host_set.eq(host.host_set),
            new.shuffle.eq(host.shuffle),
            labels.identity.eq(new.identity), labels.swap.eq(new.swap),
            labels.i.eq(new.i), labels.j.eq(new.j),
        ]
        m.d.comb += [
            defusal.start.eq(self.start), defusal.set_up.eq(new.done),
            defusal.word.eq(lfsr.word), defusal.key.eq(self.key),
            defusal.passing.eq(self.switches[PASS_SWITCH]),
            defusal.board.eq(keypad.board), defusal.start_row.eq(start_row.row),
            defusal.place.eq(labels.place), defusal.taken.eq(walk.taken),
            defusal.wanted.eq(walk.wanted),
            # The walk's label goes through the labels to its key.
            walk.board.eq(keypad.board), walk.up.eq(defusal.up), walk.row.eq(defusal.row),
            labels.label.eq(walk.label), walk.place.eq(labels.place),
        ]
        # The board: a new game's position, else the part that runs puts its pieces.
        m.d.comb += [
            keypad.load.eq(self.start), keypad.position.eq(self.position),
            keypad.clear.eq(new.clear), keypad.put.eq(new.put | defusal.put),
            keypad.at.eq(Mux(new.put, new.at, defusal.at)),
            keypad.x.eq(Mux(new.put, new.x, defusal.x)),
        ]
        m.d.comb += [
            self.board.eq(keypad.board),
            self.ready.eq(defusal.ready), self.busy.eq(defusal.busy),
            self.over.eq(defusal.over),
            self.lamps.eq(Cat(defusal.ready, defusal.over, defusal.struck, defusal.up)),
        ]
        return m


CARTRIDGE = Ktane
