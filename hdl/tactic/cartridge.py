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

The blocks: the game's states (game.py), the plans entered (plans.py), the planner
(planner.py), what the panel shows (display.py) and the line said (writer.py).
"""

from amaranth.hdl import Cat, Module
from amaranth.lib import wiring

from ..cartridge import Cartridge
from .display import Display
from .game import Game
from .planner import Planner
from .plans import Plans
from .resolver import O_WINS, TIE, X_WINS
from .writer import LineWriter


__all__ = ["Tactic", "CARTRIDGE"]



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
        m.submodules.game = game = Game()
        m.submodules.plans = plans = Plans()
        m.submodules.planner = planner = Planner()
        m.submodules.display = display = Display(self.blink)
        m.submodules.writer = writer = LineWriter()

        # The console's side.
        m.d.comb += [game.key.eq(self.key), game.start.eq(self.start),
                     game.position.eq(self.position), game.switches.eq(self.switches),
                     self.board.eq(game.board), self.ready.eq(game.ready),
                     self.busy.eq(game.busy), self.over.eq(game.over), self.rx.ready.eq(1)]
        wiring.connect(m, writer.tx, wiring.flipped(self.tx))
        m.d.comb += self.lamps.eq(Cat(
            self.ready, self.over,
            self.over & ((game.result == O_WINS) | (game.result == TIE)),
            self.over & ((game.result == X_WINS) | (game.result == TIE))))

        # The plans, and the planner's for B.
        m.d.comb += [
            plans.key.eq(self.key), plans.round.eq(game.round),
            plans.enter.eq(game.enter), plans.player.eq(game.colour),
            plans.clear.eq(game.clear), plans.machine.eq(game.machine),
            plans.keep.eq(game.keep), game.complete.eq(plans.complete),
            planner.round.eq(game.round), planner.xs.eq(game.xs), planner.os.eq(game.os),
            planner.run.eq(game.run), game.done.eq(planner.done),
            *(plans.planned[i].eq(planner.plan[i]) for i in range(3)),
            *(planner.history_a[i].eq(plans.history_a[i]) for i in range(3)),
            *(planner.history_b[i].eq(plans.history_b[i]) for i in range(3)),
            *(game.plan_a[i].eq(plans.plan_a[i]) for i in range(3)),
            *(game.plan_b[i].eq(plans.plan_b[i]) for i in range(3)),
        ]
        # What the panel shows, and the line that says B's plan.
        m.d.comb += [
            display.stones.eq(game.stones), display.bounce.eq(game.bounce),
            display.bounce_at.eq(game.bounce_at), display.taken.eq(plans.taken),
            display.refused.eq(plans.refused), display.round.eq(game.round),
            display.colour.eq(game.colour),
            game.entering.eq(display.entering), game.shown.eq(display.shown),
            writer.begin.eq(game.say),
            *(writer.plan[i].eq(plans.plan_b[i]) for i in range(3)),
        ]
        return m


CARTRIDGE = Tactic
