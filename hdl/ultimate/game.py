"""Ultimate Tic-Tac-Toe's cartridge, state by state: BEGIN, TURN, NEXT, a person's
move, THINK, loading a position and OVER (hdl/ultimate/cartridge.py's text gives them
clock by clock)."""

from amaranth.hdl import Module, Mux, Signal, unsigned
from amaranth.lib import stream, wiring
from amaranth.lib.wiring import In, Out

from ..cartridge import BOARD, SWITCHES
from .choice import Choice
from .writer import MOVE_LINE, POSITION_LINE, REFUSED_LINE, SILENT

__all__ = ["PERSON_SWITCH", "MACHINE_SWITCH", "Game"]

PERSON_SWITCH, MACHINE_SWITCH = 0, 1


class Game(wiring.Component):
    """The states of a game and what each asks of the engine, the display, the line
    writer and the position loader: BEGIN, TURN, NEXT, MOVE (a person's move: PICK,
    CELL and PLACE, hdl/ultimate/choice.py), THINK, LOAD (the loader's LOAD, CHECK and
    TAKE, hdl/ultimate/loader.py) and OVER. The engine (hdl/ultimate/engine.py) owns
    the position; the game holds the line to say at the next rest (``line``) and
    whether the game is over, looked at a clock ahead of NEXT.

    The host's ``P`` and ``M`` are taken once the last line is out (they change the
    position it tells of); ``start`` goes to BEGIN from every state.

    Members
    -------
    key : In(9)
        A key press, one-hot.
    start : In(1)
        Begin a new game.
    position : In(BOARD)
        Shown while in BEGIN.
    switches : In(SWITCHES)
        `PERSON_SWITCH`: the person begins; `MACHINE_SWITCH`: the engine plays.
    rx : In(stream.Signature(unsigned(8)))
        The host's bytes; every byte is taken.
    board : Out(BOARD)
        Combinational. What the panel shows.
    ready, busy, over : Out(1)
        Combinational. The cartridge's ``ready``, ``busy`` and ``over``.
    x_turn : In(1)
        X is to move.
    x_big, o_big, no_move : In(1)
        X, O owns a big line; no move is left.
    searching : In(1)
        The engine searches.
    best_b, best_k : In(4)
        The engine's move.
    clear, play, run, put : Out(1)
        Combinational. The engine's commands: empty the board, play the move on
        ``at_b``, ``at_k``, search, take the loader's last move and turn.
    at_b, at_k : Out(4)
        Combinational. The cell the engine plays, or the loader's.
    chosen : Out(4)
        The small board chosen in PICK.
    picking : Out(1)
        Combinational. In PICK: the boards the player may move in blink.
    thinking : Out(1)
        Combinational. In THINK: the display holds the owners.
    big, cells, frozen : In(BOARD)
        The display's big board, chosen small board and owners before THINK.
    open_boards, open_cells : In(9)
        The small boards the player may move in; the chosen board's legal cells.
    silent : In(1)
        No line is being said.
    say : Out(1)
        Combinational. The line writer begins ``line``.
    line : Out(range(SILENT + 1))
        The line said at the next rest: `POSITION_LINE`, or after the engine's move
        `MOVE_LINE`, after a refused position `REFUSED_LINE`.
    load : Out(1)
        Combinational. A ``P`` came: the loader begins.
    taking : In(1)
        The loader takes bytes.
    load_done, refused : In(1)
        The loader's verdict is in; the position loaded is refused.
    load_b, load_k : In(4)
        The cell the loader puts a stone on.
    """

    key: In(9)
    start: In(1)
    position: In(BOARD)
    switches: In(SWITCHES)
    rx: In(stream.Signature(unsigned(8)))
    board: Out(BOARD)
    ready: Out(1)
    busy: Out(1)
    over: Out(1)
    x_turn: In(1)
    x_big: In(1)
    o_big: In(1)
    no_move: In(1)
    searching: In(1)
    best_b: In(4)
    best_k: In(4)
    clear: Out(1)
    play: Out(1)
    run: Out(1)
    put: Out(1)
    at_b: Out(4)
    at_k: Out(4)
    chosen: Out(4)
    picking: Out(1)
    thinking: Out(1)
    big: In(BOARD)
    cells: In(BOARD)
    frozen: In(BOARD)
    open_boards: In(9)
    open_cells: In(9)
    silent: In(1)
    say: Out(1)
    line: Out(range(SILENT + 1), init=POSITION_LINE)
    load: Out(1)
    taking: In(1)
    load_done: In(1)
    refused: In(1)
    load_b: In(4)
    load_k: In(4)

    def elaborate(self, platform):
        m = Module()
        m.submodules.choice = choice = Choice()
        byte, silent = self.rx.payload, self.silent
        m.d.comb += [choice.key.eq(self.key), choice.open_boards.eq(self.open_boards),
                     choice.open_cells.eq(self.open_cells), choice.silent.eq(silent),
                     self.chosen.eq(choice.chosen), self.picking.eq(choice.picking),
                     self.rx.ready.eq(1)]
        ended = Signal()                    # NEXT: a big line, or no move left
        engines_turn = self.switches[MACHINE_SWITCH] & (
            self.x_turn ^ self.switches[PERSON_SWITCH])

        def restart():
            with m.If(self.start):
                m.next = "BEGIN"

        def listen(moves):
            # The host's commands, once the last line is out (they change the position
            # it tells of); `moves`: the game is open, so M is taken.
            with m.If(self.rx.valid & silent & (byte == ord("P"))):
                m.d.comb += [self.clear.eq(1), self.load.eq(1)]
                m.next = "LOAD"
            with m.Elif(self.rx.valid & silent & (byte == ord("M")) & moves):
                m.d.comb += self.run.eq(1)
                m.next = "THINK"

        with m.FSM(init="BEGIN"):
            with m.State("BEGIN"):
                m.d.comb += [self.board.eq(self.position), self.ready.eq(~silent)]
                with m.If(~self.start & silent & ~self.searching):
                    m.d.comb += self.clear.eq(1)
                    m.next = "TURN"
            with m.State("TURN"):
                # Whether the game is over, looked at a clock ahead of NEXT.
                m.d.comb += self.board.eq(self.big)
                m.d.sync += ended.eq(self.x_big | self.o_big | self.no_move)
                m.next = "NEXT"
                restart()
            with m.State("NEXT"):
                m.d.comb += self.board.eq(self.big)
                with m.If(~ended & engines_turn):
                    m.d.comb += self.run.eq(1)
                    m.next = "THINK"
                with m.Else():
                    # A rest: the position (after the engine's move, if it moved) is said.
                    m.d.comb += [self.say.eq(1), choice.begin.eq(1)]
                    m.d.sync += self.line.eq(POSITION_LINE)
                    m.next = "MOVE"
                    with m.If(ended):
                        m.next = "OVER"
                restart()
            with m.State("MOVE"):
                m.d.comb += [choice.active.eq(1), self.ready.eq(choice.ready),
                             self.board.eq(Mux(choice.showing, self.cells, self.big))]
                with m.If(choice.play):
                    m.d.comb += [self.play.eq(1), self.at_b.eq(choice.chosen),
                                 self.at_k.eq(choice.place)]
                    m.next = "TURN"
                with m.If(choice.listening):
                    listen(1)
                restart()
            with m.State("THINK"):
                m.d.comb += [self.board.eq(self.frozen), self.busy.eq(1), self.thinking.eq(1)]
                with m.If(~self.searching):
                    m.d.comb += [self.play.eq(1), self.at_b.eq(self.best_b),
                                 self.at_k.eq(self.best_k)]
                    m.d.sync += self.line.eq(MOVE_LINE)
                    m.next = "TURN"
                restart()
            with m.State("LOAD"):
                m.d.comb += [self.board.eq(self.big), self.ready.eq(self.taking),
                             self.at_b.eq(self.load_b), self.at_k.eq(self.load_k)]
                with m.If(self.load_done):
                    with m.If(self.refused):
                        m.d.comb += self.clear.eq(1)
                        m.d.sync += self.line.eq(REFUSED_LINE)
                    with m.Else():
                        m.d.comb += self.put.eq(1)
                    m.next = "TURN"
                restart()
            with m.State("OVER"):
                m.d.comb += [self.board.eq(self.big), self.over.eq(1)]
                listen(0)
                restart()
        return m
