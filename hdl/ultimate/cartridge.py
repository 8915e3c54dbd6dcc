"""Ultimate Tic-Tac-Toe as a cartridge: a person against the engine in
hardware (hdl/ultimate/engine.py), or two people (docs/ultimate.md).

Clock by clock (firmware_ref/ultimate/model.py is the golden model written from this):

- Switch 0 on: the person begins (plays X); switch 1 on: the engine plays the other
  side, off: two people. The engine is red; with two people X is green, O red.
- BEGIN (power-up, and while ``start`` is high, the board showing ``position``): once
  ``start`` is low, no line is being said and the engine is idle, the board is emptied.
- TURN, then NEXT (a clock each): on the engine's turn it searches (THINK); else a
  rest: the position is said (after the engine's move, the engine's line first) and a
  big line or no move left ends the game (OVER), or a person moves (PICK).
- PICK: the big board, each small board in its owner's colour (both for a drawn one),
  the boards the player may move in blinking in the player's colour. A key on one of
  these shows that board (CELL); other keys do nothing.
- CELL: the chosen small board, its legal cells blinking; a key on a legal cell plays it
  (PLACE, once the last line is out), any other key goes back to PICK.
- THINK (``busy``): the engine searches; the clock after it is done, its move is played.
- OVER (``over``). Lamps: your move (``ready``), over, red won, green won.

A line goes out only between the link's answers (docs/cartridge.md), so the cartridge is
``ready`` wherever it waits for one (BEGIN and PLACE while a line is out) and in LOAD,
whose bytes come in many frames; keys that do nothing there are taken and dropped.

The host's bytes (``rx``), taken in PICK, CELL (on a clock with no key) and OVER once the
last line is out: ``M`` has the engine move now for the player to move (not in OVER);
``P``, 81 of ``X O .`` and the last move (two XX A position no game
reaches is refused (another character, a count of X's and O's no game gives, a small
board with a line of each, a last move past 80 or not on the last mover's stone): the
board is emptied and ``?`` is said before the position. The cartridge says (``tx``),
each a line:

- ``P`` + the 81 cells + a space + the last move (``--`` or two digits);
- ``M`` + the engine's move (two digits), its value (6 hex digits, two's complement,
  for the player who moved) and its nodes (8 hex digits), before the position;
- ``?``, before the emptied board's position.

The blocks: the engine (hdl/ultimate/engine.py), the game's states (game.py, with a
person's two keys in choice.py), what the panel shows (display.py), the lines said
(writer.py) and the position loaded (loader.py).
"""

from amaranth.hdl import Cat, Module, Mux
from amaranth.lib import wiring

from ..cartridge import Cartridge
from .display import Display
from .engine import Engine
from .game import MACHINE_SWITCH, PERSON_SWITCH, Game
from .loader import Loader
from .writer import SAID, LineWriter

__all__ = ["Ultimate", "CARTRIDGE", "SAID"]



class Ultimate(Cartridge):
    code = "U"
    title = "Ultimate Tic-Tac-Toe: nine boards in one, alpha-beta in hardware"
    machine = "the engine"
    lamp_names = ("your move", "over", "red won", "green won")
    switch_names = ("the person begins", "the engine plays")
    switch_init = 0b11
    blinks = True           # legal places blink, with the top bit of a blink's counter

    def elaborate(self, platform):
        m = Module()
        m.submodules.engine = engine = Engine()
        m.submodules.game = game = Game()
        m.submodules.display = display = Display(self.blink)
        m.submodules.writer = writer = LineWriter()
        m.submodules.loader = loader = Loader()
        # Colours: the engine is red; with two people X is green.
        x_red = self.switches[MACHINE_SWITCH] & ~self.switches[PERSON_SWITCH]

        # The console's side.
        wiring.connect(m, wiring.flipped(self.rx), game.rx)
        wiring.connect(m, writer.tx, wiring.flipped(self.tx))
        m.d.comb += [game.key.eq(self.key), game.start.eq(self.start),
                     game.position.eq(self.position), game.switches.eq(self.switches),
                     self.board.eq(game.board), self.ready.eq(game.ready),
                     self.busy.eq(game.busy), self.over.eq(game.over)]
        red_won = Mux(x_red, engine.x_big, engine.o_big)
        green_won = Mux(x_red, engine.o_big, engine.x_big)
        m.d.comb += self.lamps.eq(Cat(self.ready, self.over, self.over & red_won,
                                      self.over & green_won))

        # The engine: commands from the game, stones from the loader.
        m.d.comb += [
            engine.clear.eq(game.clear), engine.play.eq(game.play), engine.run.eq(game.run),
            engine.put.eq(game.put), engine.at_b.eq(game.at_b), engine.at_k.eq(game.at_k),
            engine.stone.eq(loader.stone), engine.stone_x.eq(loader.stone_x),
            engine.put_b.eq(loader.put_b), engine.put_k.eq(loader.put_k),
            engine.put_has_last.eq(loader.put_has_last),
            engine.put_x_turn.eq(loader.put_x_turn), engine.view_b.eq(game.chosen),
            *(getattr(game, name).eq(getattr(engine, name)) for name in (
                "x_turn", "x_big", "o_big", "no_move", "searching", "best_b", "best_k")),
        ]
        # The display.
        m.d.comb += [
            *(getattr(display, name).eq(getattr(engine, name)) for name in (
                "x_line", "o_line", "decided", "legal", "x_turn", "x_view", "o_view")),
            display.chosen.eq(game.chosen), display.x_red.eq(x_red),
            display.picking.eq(game.picking), display.thinking.eq(game.thinking),
            *(getattr(game, name).eq(getattr(display, name)) for name in (
                "big", "cells", "frozen", "open_boards", "open_cells")),
        ]
        # The line writer, whose look at a cell the loader borrows.
        m.d.comb += [
            *(getattr(writer, name).eq(getattr(engine, name)) for name in (
                "xs", "os", "last_b", "last_k", "has_last", "best_b", "best_k", "value",
                "nodes")),
            writer.begin.eq(game.say), writer.line.eq(game.line),
            writer.loading.eq(loader.loading), writer.number.eq(loader.number),
            game.silent.eq(writer.silent),
        ]
        # The position loader.
        m.d.comb += [
            loader.begin.eq(game.load), loader.abort.eq(self.start),
            loader.valid.eq(self.rx.valid), loader.byte.eq(self.rx.payload),
            loader.x_at.eq(writer.x_at), loader.o_at.eq(writer.o_at),
            loader.x_line.eq(engine.x_line), loader.o_line.eq(engine.o_line),
            game.taking.eq(loader.taking), game.load_done.eq(loader.done),
            game.refused.eq(loader.refused),
            game.load_b.eq(loader.at_b), game.load_k.eq(loader.at_k),
        ]
        return m


CARTRIDGE = Ultimate
