"""A game's golden model behind the host link, as the console answers it: what `make
play` plays with the board's own client (boards/host/terminal.py).

`GoldenLink` takes the frames a client sends a board (docs/boards.md, "The host link")
and answers each with the status a board would send: it gives the golden model
(firmware_ref/<game>/, at the cartridge's pins) the key, the switch or the new game,
clocks it until it waits for a key or the game is over, and counts the busy clocks
after a key as the desk does. The cartridge's lines said while a frame is answered come
after the answer, as on a board.
"""

from firmware_ref.cartridge import board_bits, board_places
from firmware_ref.places import BY_MARK, EMPTY, PLACES
from hdl.cartridge import LAMPS, SETTLE, SWITCHES
from sim import catalogue

from . import protocol
from ..gateware.desk import CYCLES_MAX


__all__ = ["GoldenLink"]

PATIENCE = 1 << 16          # clocks: the slowest machine answers within 15 007
KEYS = [str(place) for place in range(PLACES)]     # a K frame's places


class GoldenLink(protocol.Exchange):
    """Game `game`'s golden model as a board with that one game, with the methods and
    the ``texts`` of boards.host.link.Link."""

    def __init__(self, game):
        self.games = (game,)
        entry = catalogue.game(game)
        self.code = entry.code
        self.model = entry.checked().Model(**entry.given())
        self.model.set(switches=entry.core().switch_init)
        self.texts = []         # the cartridge's lines, not yet shown (as Link's)
        self.after = []         # lines said while answering: a board sends them after it
        self.said = b""         # the line being said
        self.cycles = 0
        self.settle()

    def answer(self, frame):
        """The status after `frame` (bytes, as a board takes them), or Rejected."""
        self.texts += self.after
        self.after = []
        text = frame.decode("ascii", "replace").strip().upper()
        letter, rest = text[:1], text[1:]
        if text == "S":
            pass
        elif letter == "K" and rest in KEYS:
            self.key(int(rest))
        elif letter == "W" and len(rest) == 2 and rest.isdigit() \
                and int(rest[0]) < SWITCHES and rest[1] in "01":
            switches = self.model.inputs.switches & ~(1 << int(rest[0]))
            self.model.set(switches=switches | int(rest[1]) << int(rest[0]))
        elif text in ("R", "G0"):
            self.start([EMPTY] * PLACES)
        elif letter == "R" and len(rest) == PLACES and all(c in protocol.POSITION_MARKS
                                                           for c in rest):
            self.start([BY_MARK[c] for c in rest])
        else:
            return protocol.parse("error")      # raises Rejected, as a board's answer
        return self.status()

    def line(self):
        """The cartridge's next line (boards.host.link.Link's `line`)."""
        for _ in range(PATIENCE):
            for lines in (self.texts, self.after):
                if lines:
                    return lines.pop(0)
            self.tick()
        raise protocol.ProtocolError(f"the golden model said no line in {PATIENCE} clocks")

    def status(self):
        probe, switches = self.model.probe, self.model.inputs.switches
        return protocol.Status(
            board=board_places(probe.board), game=self.code,
            lamps=tuple(bool(probe.lamps >> n & 1) for n in range(LAMPS)),
            switches=tuple(bool(switches >> n & 1) for n in range(SWITCHES)),
            cycles=self.cycles)

    def tick(self):
        probe = self.model.probe
        if probe.tx_valid and self.model.inputs.tx_ready:
            self.said += bytes([probe.tx_payload])
            if self.said.endswith(b"\n"):
                self.after.append(self.said[:-1].decode("ascii", "replace"))
                self.said = b""
        self.model.tick()

    def key(self, place):
        if self.model.probe.over:
            return              # the desk drops a key when the game is over
        self.model.set(key=1 << place)
        self.tick()
        self.model.set(key=0)
        busy = self.settle()
        if busy:                # a key not taken keeps the last move's figure
            self.cycles = min(busy, CYCLES_MAX)

    def start(self, board):
        self.model.set(start=1, position=board_bits(board))
        self.tick()
        self.model.set(start=0)
        self.said = b""         # a new game ends the line being said
        self.settle()

    def settle(self):
        """Clock until the cartridge waits for a key or the game is over, SETTLE clocks
        at least; the busy clocks of the first stretch of them, as the desk counts."""
        busy, counted = 0, False
        for clock in range(PATIENCE):
            probe = self.model.probe
            if not probe.busy:
                counted = busy > 0
                if clock >= SETTLE and (probe.ready or probe.over):
                    return busy
            elif not counted:
                busy += 1
            self.tick()
        raise protocol.ProtocolError(f"the golden model did not answer in {PATIENCE} "
                                     "clocks")
