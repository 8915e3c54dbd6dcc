"""When a game begins, on which cartridge, and the position entered at the panel."""

from amaranth.hdl import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .command import Command, CommandBus


__all__ = ["NewGame"]


class NewGame(wiring.Component):
    """The desk's two states: it plays (RUN), or the reset button is held (HOLD).

    - Holding the reset button holds the cartridge at a new game (``start``) from the
      empty board, and each key event meanwhile steps its place of the position;
      releasing it begins the game from that position.
    - In RUN the host begins games: ``RESET`` on the cartridge playing, ``GAME`` on the
      one it chose; from the position the places made, or with ``empty`` from the empty
      board a clock after the position is cleared (both registered, for short paths).

    Parameters
    ----------
    count : int
        The cartridges the desk holds.

    Members
    -------
    pressed, released : In(1)
        High for one clock: the reset button, debounced, went down or up.
    commands : In(CommandBus())
        The host's: ``RESET`` and ``GAME`` are this block's.
    fired : In(1)
        A key event now.
    game : Out(range(count))
        The cartridge playing, registered.
    start : Out(1)
        The cartridge is held at a new game, registered: the position is whole before
        it rises.
    hold : Out(1)
        The position is in use: ``start``, or it was high a clock ago (the cartridge
        still reads it).
    clear : Out(1)
        The position becomes the empty board, registered.
    setup : Out(1)
        HOLD: the reset button is held, keys enter a position.
    stepping : Out(1)
        A key event came while a position was entered, registered: its place steps.
    """

    def __init__(self, count):
        super().__init__({
            "pressed": In(1), "released": In(1), "commands": In(CommandBus()),
            "fired": In(1),
            "game": Out(range(count)), "start": Out(1), "hold": Out(1), "clear": Out(1),
            "setup": Out(1), "stepping": Out(1),
        })

    def elaborate(self, platform):
        m = Module()
        start, clear = self.start, self.clear
        commands = self.commands
        begin = commands.valid & ((commands.command == Command.RESET)
                                  | (commands.command == Command.GAME))
        chosen = commands.valid & (commands.command == Command.GAME)
        afresh = begin & commands.argument.empty        # from the empty board
        used = Signal()             # start was high a clock ago: position is still read
        cleared = Signal()          # the position was cleared a clock ago: start now
        m.d.sync += [used.eq(start), clear.eq(0), cleared.eq(afresh)]
        m.d.comb += self.hold.eq(start | used)
        with m.FSM():
            with m.State("RUN"):
                m.d.sync += [clear.eq(afresh),
                             start.eq(begin & ~commands.argument.empty | cleared)]
                with m.If(chosen):
                    m.d.sync += self.game.eq(commands.argument.game)
                with m.If(self.pressed):
                    m.next = "HOLD"
            with m.State("HOLD"):
                m.d.comb += self.setup.eq(1)
                m.d.sync += start.eq(~self.released)
                with m.If(self.released):
                    m.next = "RUN"
        m.d.sync += self.stepping.eq(self.fired & self.setup)
        with m.If(self.pressed):
            # From either state: a new position to enter, from the empty board.
            m.d.sync += [clear.eq(1), start.eq(1)]
        return m
