"""A person and a machine on one board of nine places: the 1990 chip, first free and
every machine of the museum. The page draws the console's front panel (static/nine.js):
the nine keys with their two-colour LEDs, the lamps and the switches.

The words are the terminal client's (boards/host/terminal.py): places A1 to C3, the
machine's moves named once, a game of turns' move read from its line.
"""

from firmware_ref.places import BY_MARK, EMPTY, HUMAN, coordinate
from sim import catalogue

from ...gateware.rates import CLOCK_HZ
from ...host import protocol
from ...host.terminal import OVER, YOU_BEGIN, check_position, machine, \
    machine_moves, result
from ..messages import Invalid
from . import Base, field

__all__ = ["NAME", "View"]

NAME = catalogue.NINE.view


class View(Base):
    """The board of nine places over the board's `link`."""

    NAME = NAME

    def begin(self):
        self.status = self.command(protocol.STATUS, again=True, quiet=True)
        self.played = []            # the machine's moves this game: (place, clocks)

    def command(self, frame, again=False, quiet=False):
        """The status after `frame`; the cartridge's other lines are said."""
        status = self.link.command(frame, again=again)
        for line in [] if quiet else self.link.texts:
            self.said.append(f"{machine(status).capitalize()} says: {line}")
        self.link.texts.clear()
        return status

    def do_key(self, message):
        place = field(message, "place", int, range(9))
        if self.status.lamps[OVER]:
            self.said.append("The game is over: New game begins another.")
            return
        if self.status.board[place] != EMPTY:
            self.said.append(f"{coordinate(place)} is taken.")
            return
        mine = self.status.board.copy()
        mine[place] = HUMAN
        after = self.command(protocol.key(place))
        for move in machine_moves(self.link, mine, after):
            self.said.append(f"{machine(after).capitalize()} plays {move}; its move took "
                             f"{after.cycles} clock cycles.")
            self.played.append((move, after.cycles))
        self.settled(after)

    def do_new(self, message):
        board = None
        if "position" in message:
            text = "".join(c for c in field(message, "position", str).upper()
                           if c not in "|/ ")
            if len(text) != 9 or any(c not in ".OX" for c in text):
                raise Invalid("new: a position is 9 of . O X, e.g. XO.|...|...")
            try:
                board = check_position([BY_MARK[c] for c in text])
            except ValueError as error:
                raise Invalid(f"new: that position won't do: {error}") from None
        status = self.command(protocol.reset(board))
        self.played = []
        for move in machine_moves(self.link, board or [EMPTY] * 9, status):
            self.said.append(f"{machine(status).capitalize()} opens at {move}.")
            self.played.append((move, None))
        self.settled(status)

    def do_switch(self, message):
        number = field(message, "number", int, range(len(self.status.switches)))
        on = field(message, "on", bool)
        self.status = self.command(protocol.switch(number, on))

    def settled(self, status):
        if status.lamps[OVER] and not self.status.lamps[OVER]:
            self.said.append(result(status))
        self.status = status

    def state(self):
        status, cartridge = self.status, catalogue.game(self.folder).core()
        over, first = status.lamps[OVER], status.switches[YOU_BEGIN]
        return {**super().state(), "title": cartridge.title, "machine": machine(status),
                "board": status.board, "lamps": status.lamps,
                "lamp_names": list(cartridge.lamp_names),
                "switches": status.switches, "switch_names": list(cartridge.switch_names),
                "cycles": status.cycles, "over": over,
                "result": result(status) if over else None,
                "state": ("game over" if over else "your move" if status.lamps[0]
                          else "thinking"),
                "you_begin": first, "line": protocol.line(status),
                "moves": [{"move": move, "cycles": cycles} for move, cycles in self.played],
                "clock_hz": CLOCK_HZ}
