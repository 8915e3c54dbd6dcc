"""A person's move on Ultimate Tic-Tac-Toe's panel: two keys, the small board and then
its cell (docs/ultimate.md: nine keys, 81 cells)."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .pick import binary

__all__ = ["Choice"]


class Choice(wiring.Component):
    """The states PICK, CELL and PLACE, taken while ``active`` (the game waits for a
    person's move); ``begin`` starts at PICK.

    - PICK: the big board, the boards the player may move in blinking (``picking``). A
      key on one of them chooses that board (CELL); other keys do nothing.
    - CELL: the chosen small board (``showing``). A key on a legal cell plays it
      (PLACE), any other key goes back to PICK: a way back without a tenth key.
    - PLACE: once the last line is out (``silent``), the move is ``play``-ed.

    In PICK and CELL, on a clock with no key, the host's commands are taken
    (``listening``).

    Members
    -------
    begin : In(1)
        A person is to move: PICK.
    active : In(1)
        The game waits for the move: the states go on, their outputs are high.
    key : In(9)
        A key press, one-hot.
    open_boards : In(9)
        The small boards the player may move in.
    open_cells : In(9)
        The chosen small board's legal cells.
    silent : In(1)
        No line is being said.
    chosen : Out(4)
        The small board chosen in PICK.
    place : Out(4)
        The cell keyed in CELL.
    picking : Out(1)
        Combinational. In PICK.
    showing : Out(1)
        Combinational. In CELL or PLACE: the chosen small board is shown.
    ready : Out(1)
        Combinational. A key is taken: in PICK and CELL, and in PLACE while a line is
        out.
    listening : Out(1)
        Combinational. The host's commands are taken.
    play : Out(1)
        Combinational. Play cell ``place`` of small board ``chosen``.
    """

    begin: In(1)
    active: In(1)
    key: In(9)
    open_boards: In(9)
    open_cells: In(9)
    silent: In(1)
    chosen: Out(4)
    place: Out(4)
    picking: Out(1)
    showing: Out(1)
    ready: Out(1)
    listening: Out(1)
    play: Out(1)

    def elaborate(self, platform):
        m = Module()
        key = binary(self.key)
        with m.FSM(init="PICK"):
            with m.State("PICK"):
                with m.If(self.active):
                    m.d.comb += [self.picking.eq(1), self.ready.eq(1)]
                    with m.If(self.key.any()):
                        with m.If(self.open_boards.bit_select(key, 1)):
                            m.d.sync += self.chosen.eq(key)
                            m.next = "CELL"
                    with m.Else():
                        m.d.comb += self.listening.eq(1)
            with m.State("CELL"):
                with m.If(self.active):
                    m.d.comb += [self.showing.eq(1), self.ready.eq(1)]
                    with m.If(self.key.any()):
                        m.d.sync += self.place.eq(key)
                        with m.If(self.open_cells.bit_select(key, 1)):
                            m.next = "PLACE"
                        with m.Else():
                            m.next = "PICK"
                    with m.Else():
                        m.d.comb += self.listening.eq(1)
                with m.If(self.begin):
                    m.next = "PICK"
            with m.State("PLACE"):
                with m.If(self.active):
                    m.d.comb += [self.showing.eq(1), self.ready.eq(~self.silent)]
                    with m.If(self.silent):
                        m.d.comb += self.play.eq(1)
                        m.next = "PICK"
                with m.If(self.begin):
                    m.next = "PICK"
        return m
