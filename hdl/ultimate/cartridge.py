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
"""

from amaranth.hdl import Array, Cat, Const, Module, Mux, Signal, signed

from ..cartridge import BOARD, Cartridge
from .engine import Engine, binary
from .rules import small

__all__ = ["Ultimate", "CARTRIDGE", "SAID"]

PERSON_SWITCH, MACHINE_SWITCH = 0, 1
# What the cartridge says, one byte a step: the engine's line, the position's, "?".
MOVE_LINE, POSITION_LINE, REFUSED_LINE, SILENT = 0, 20, 106, 108
SAID = 105                  # the position line's newline: then silent
CELLS_AT = POSITION_LINE + 1


def decimal(value):
    """Two ASCII digits of `value` (0-80), as two byte signals (tens, units)."""
    table = Array(Const(v // 10 << 4 | v % 10, 8) for v in range(128))[value]
    return ord("0") + table[4:], ord("0") + table[:4]


def hex_digit(nibble):
    return Mux(nibble < 10, ord("0") + nibble, ord("A") - 10 + nibble)


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
        flash = Signal(range(self.blink))
        m.d.sync += flash.eq(flash + 1)
        blink = flash[-1]
        chosen = Signal(4)                  # the small board CELL shows
        say = Signal(range(SILENT + 1), init=SILENT)
        opening = Signal(range(SILENT + 1), init=POSITION_LINE)   # the line said at a rest
        silent = say == SILENT
        loaded = Signal(range(84))          # LOAD: bytes taken after the P
        bad = Signal()                      # LOAD: a character no position has
        surplus = Signal(signed(8))         # LOAD: X's less O's
        tens, units = Signal(8), Signal(8)  # LOAD: the last move's characters
        place = Signal(4)                   # CELL: the cell PLACE plays
        load_b, load_k = Signal(4), Signal(4)   # LOAD: the cell the next byte is for

        key = binary(self.key)
        board_legal = Cat(small(engine.legal, b).any() for b in range(9))
        # The keys look at it a clock late: the position holds still from TURN on, so
        # PICK and CELL see it up to date.
        open_boards = Signal(9)
        m.d.sync += open_boards.eq(board_legal)
        over = engine.x_big | engine.o_big | engine.no_move
        engines_turn = self.switches[MACHINE_SWITCH] & (
            engine.x_turn ^ self.switches[PERSON_SWITCH])
        byte = self.rx.payload
        m.d.comb += self.rx.ready.eq(1)

        # Colours: the engine is red; with two people X is green.
        x_red = self.switches[MACHINE_SWITCH] & ~self.switches[PERSON_SWITCH]
        x_colour, o_colour, mover = Signal(2), Signal(2), Signal(2)
        m.d.comb += [x_colour.eq(Mux(x_red, 0b01, 0b10)), o_colour.eq(Mux(x_red, 0b10, 0b01)),
                     mover.eq(Mux(engine.x_turn, x_colour, o_colour))]
        # The big board and the chosen small board are shown a clock late: the legal
        # cells are a long way from the registers that hold the position.
        owners, big_now, cells_now = Signal(BOARD), Signal(BOARD), Signal(BOARD)
        big, cells = Signal(BOARD), Signal(BOARD)
        m.d.sync += [big.eq(big_now), cells.eq(cells_now)]
        picking = Signal()                  # PICK: legal boards blink
        for b in range(9):
            m.d.comb += [
                owners[b].as_value().eq(Mux(engine.x_line[b], x_colour, Mux(
                    engine.o_line[b], o_colour, Mux(engine.decided[b], 0b11, 0)))),
                big_now[b].as_value().eq(owners[b].as_value() | Mux(
                    picking & board_legal[b] & blink, mover, 0))]
        m.d.comb += engine.view_b.eq(chosen)
        x_chosen, o_chosen = engine.x_view, engine.o_view
        legal_chosen = ~(x_chosen | o_chosen) & open_boards.bit_select(chosen, 1).replicate(9)
        for k in range(9):
            m.d.comb += cells_now[k].as_value().eq(
                Mux(x_chosen[k], x_colour, Mux(o_chosen[k], o_colour,
                    Mux(legal_chosen[k] & blink, mover, 0))))

        # The engine searches on the position itself: THINK shows the owners as they
        # were before it began.
        frozen = Signal(BOARD)

        # What the cartridge says. One decimal converter, one hex digit and one look at
        # a cell serve every line; LOAD uses the look at a cell for its last move.
        loading = Signal()
        number = Signal(7)                  # CHECK: the last move's number
        stone = Signal()                    # TAKE: the last mover's stone is on it
        each = Signal()                     # TAKE: a small board holds a line of each
        ended = Signal()                    # NEXT: a big line, or no move left
        at = Signal(7)
        m.d.comb += at.eq(Mux(loading, number, say - CELLS_AT))
        x_at, o_at = engine.xs.bit_select(at, 1), engine.os.bit_select(at, 1)
        moving = say < POSITION_LINE
        told = Signal(7)                    # the engine's move, or the last move
        m.d.comb += told.eq(Mux(moving, engine.best_b, engine.last_b) * 9
                            + Mux(moving, engine.best_k, engine.last_k))
        tens_digit, units_digit = decimal(told)
        hexes = Cat(engine.nodes, engine.value, engine.value[-1].replicate(2))
        nibble = hexes.word_select(Mux(say < 10, 17 - say, 18 - say)[:4], 4)
        payload = Signal(8)
        with m.If((say >= CELLS_AT) & (say < CELLS_AT + 81)):
            m.d.comb += payload.eq(Mux(x_at, ord("X"), Mux(o_at, ord("O"), ord("."))))
        with m.Elif((say >= 4) & (say < 10) | (say >= 11) & (say < 19)):
            m.d.comb += payload.eq(hex_digit(nibble))
        with m.Else():
            with m.Switch(say):
                with m.Case(MOVE_LINE):
                    m.d.comb += payload.eq(ord("M"))
                with m.Case(POSITION_LINE):
                    m.d.comb += payload.eq(ord("P"))
                with m.Case(REFUSED_LINE):
                    m.d.comb += payload.eq(ord("?"))
                with m.Case(MOVE_LINE + 3, MOVE_LINE + 10, CELLS_AT + 81):
                    m.d.comb += payload.eq(ord(" "))
                with m.Case(MOVE_LINE + 1, CELLS_AT + 82):
                    m.d.comb += payload.eq(Mux(moving | engine.has_last, tens_digit,
                                               ord("-")))
                with m.Case(MOVE_LINE + 2, CELLS_AT + 83):
                    m.d.comb += payload.eq(Mux(moving | engine.has_last, units_digit,
                                               ord("-")))
                with m.Default():
                    m.d.comb += payload.eq(ord("\n"))
        # The byte goes out from a register, valid the clock after `say` settles: the
        # look at a cell is deep.
        said, after = Signal(8, init=ord("\n")), Signal.like(say)
        m.d.sync += [said.eq(payload), after.eq(say)]
        m.d.comb += [self.tx.valid.eq(~silent & (say == after)), self.tx.payload.eq(said)]
        with m.If(self.tx.valid & self.tx.ready):
            m.d.sync += say.eq(Mux(say == SAID, SILENT,
                                   Mux(say == REFUSED_LINE + 1, POSITION_LINE, say + 1)))

        def restart():
            with m.If(self.start):
                m.next = "BEGIN"

        def listen(moves):
            """The host's commands, once the last line is out (they change the position
            it tells of); `moves`: the game is open, so M is taken."""
            with m.If(self.rx.valid & silent & (byte == ord("P"))):
                m.d.comb += engine.clear.eq(1)
                m.d.sync += [loaded.eq(0), bad.eq(0), surplus.eq(0), load_b.eq(0),
                             load_k.eq(0)]
                m.next = "LOAD"
            with m.Elif(self.rx.valid & silent & (byte == ord("M")) & moves):
                m.d.comb += engine.run.eq(1)
                m.next = "THINK"

        with m.FSM(init="BEGIN") as fsm:
            with m.State("BEGIN"):
                m.d.comb += [self.board.eq(self.position), self.ready.eq(~silent)]
                with m.If(~self.start & silent & ~engine.searching):
                    m.d.comb += engine.clear.eq(1)
                    m.next = "TURN"
            with m.State("TURN"):
                # Whether the game is over, looked at a clock ahead of NEXT.
                m.d.comb += self.board.eq(big)
                m.d.sync += ended.eq(over)
                m.next = "NEXT"
                restart()
            with m.State("NEXT"):
                m.d.comb += self.board.eq(big)
                with m.If(~ended & engines_turn):
                    m.d.comb += engine.run.eq(1)
                    m.next = "THINK"
                with m.Else():
                    # A rest: the position (after the engine's move, if it moved) is said.
                    m.d.sync += [say.eq(opening), opening.eq(POSITION_LINE)]
                    m.next = "PICK"
                    with m.If(ended):
                        m.next = "OVER"
                restart()
            with m.State("PICK"):
                m.d.comb += [self.board.eq(big), picking.eq(1), self.ready.eq(1)]
                with m.If(self.key.any()):
                    with m.If(open_boards.bit_select(key, 1)):
                        m.d.sync += chosen.eq(key)
                        m.next = "CELL"
                with m.Else():
                    listen(1)
                restart()
            with m.State("CELL"):
                m.d.comb += [self.board.eq(cells), self.ready.eq(1)]
                with m.If(self.key.any()):
                    m.d.sync += place.eq(key)
                    with m.If(legal_chosen.bit_select(key, 1)):
                        m.next = "PLACE"
                    with m.Else():
                        m.next = "PICK"
                with m.Else():
                    listen(1)
                restart()
            with m.State("PLACE"):
                m.d.comb += [self.board.eq(cells), self.ready.eq(~silent)]
                with m.If(silent):
                    m.d.comb += [engine.play.eq(1), engine.at_b.eq(chosen),
                                 engine.at_k.eq(place)]
                    m.next = "TURN"
                restart()
            with m.State("THINK"):
                m.d.comb += [self.board.eq(frozen), self.busy.eq(1)]
                with m.If(~engine.searching):
                    m.d.comb += [engine.play.eq(1), engine.at_b.eq(engine.best_b),
                                 engine.at_k.eq(engine.best_k)]
                    m.d.sync += opening.eq(MOVE_LINE)
                    m.next = "TURN"
                restart()
            with m.State("LOAD"):
                m.d.comb += [self.board.eq(big), loading.eq(1), self.ready.eq(1)]
                with m.If(self.rx.valid):
                    is_x, is_o = byte == ord("X"), byte == ord("O")
                    m.d.sync += loaded.eq(loaded + 1)
                    with m.If(loaded < 81):
                        m.d.comb += [engine.stone.eq(is_x | is_o), engine.stone_x.eq(is_x),
                                     engine.at_b.eq(load_b), engine.at_k.eq(load_k)]
                        m.d.sync += [surplus.eq(surplus + is_x - is_o),
                                     bad.eq(bad | ~(is_x | is_o | (byte == ord(".")))),
                                     load_k.eq(Mux(load_k == 8, 0, load_k + 1)),
                                     load_b.eq(load_b + (load_k == 8))]
                    with m.Elif(loaded == 81):
                        m.d.sync += tens.eq(byte)
                    with m.Else():
                        m.d.sync += [units.eq(byte),
                                     number.eq((tens - ord("0"))[:4] * 10
                                               + (byte - ord("0"))[:4])]
                        m.next = "CHECK"
                restart()
            with m.State("CHECK"):
                # The last move's cell and the small boards, looked at a clock ahead of
                # TAKE: the look at a cell is deep.
                m.d.comb += [self.board.eq(big), loading.eq(1)]
                m.d.sync += [stone.eq(Mux(surplus == 0, o_at, x_at)),
                             each.eq((engine.x_line & engine.o_line).any())]
                m.next = "TAKE"
                restart()
            with m.State("TAKE"):
                m.d.comb += self.board.eq(big)
                none = (tens == ord("-")) & (units == ord("-"))
                digits = ((tens >= ord("0")) & (tens <= ord("8"))
                          & (units >= ord("0")) & (units <= ord("9")))
                x_moves = surplus == 0      # so O moved last
                with m.If(bad | ~(none | digits & (number <= 80) & stone)
                          | ~(x_moves | (surplus == 1)) | each):
                    m.d.comb += engine.clear.eq(1)
                    m.d.sync += opening.eq(REFUSED_LINE)
                with m.Else():
                    ninths = Array(Const(v // 9, 4) for v in range(128))[number]
                    m.d.comb += [engine.put.eq(1), engine.put_b.eq(ninths),
                                 engine.put_k.eq(number - ninths * 9),
                                 engine.put_has_last.eq(digits),
                                 engine.put_x_turn.eq(x_moves)]
                m.next = "TURN"
                restart()
            with m.State("OVER"):
                m.d.comb += [self.board.eq(big), self.over.eq(1)]
                listen(0)
                restart()

        with m.If(~fsm.ongoing("THINK")):
            m.d.sync += frozen.eq(owners)
        red_won = Mux(x_red, engine.x_big, engine.o_big)
        green_won = Mux(x_red, engine.o_big, engine.x_big)
        m.d.comb += self.lamps.eq(Cat(self.ready, self.over, self.over & red_won,
                                      self.over & green_won))
        return m


CARTRIDGE = Ultimate
