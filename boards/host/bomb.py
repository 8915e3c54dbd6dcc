"""Defuse the bomb module (hdl/ktane) from a terminal, as the bomb shows it: the
edgework, the keypad with its labels, Up Next, the strikes and PASS.

Two bombs behave alike behind one `Session`: `GoldenBomb`, the cartridge's golden
model (`make play GAME=ktane`), and `BoardBomb`, a board or the board in a box over the
host link (`make play-board GAME=ktane`). The terminal shows labels shuffled, as the
original module does, unless the defuser asks for the front panel's reading order
(``labels reading``, docs/ktane.md).
"""

import random
import re
from dataclasses import dataclass

from firmware_ref.ktane import model as golden
from firmware_ref.ktane.module import O, X
from firmware_ref.places import PLACES, RULE, rows

from . import protocol
from .link import link_errors

__all__ = ["View", "parse_line", "GoldenBomb", "BoardBomb", "Session", "show", "HELP"]

LINE = re.compile(r"E(\d)([01])(\d)(\d) L([1-9]{9}) S(\d)$")
YOUR_MOVE, SOLVED, STRIKE, UP_X = range(4)     # the cartridge's lamps
PASS_SWITCH = golden.PASS_SWITCH
PIECES = {X: "X", O: "O"}                       # the module's: X red, O green


@dataclass(frozen=True)
class View:
    """What the defuser sees."""
    board: list             # per place: "X", "O" or None
    labels: list            # per place: its label 1-9
    up: str                 # "X" or "O"
    strikes: int
    struck: bool            # the last press was a strike
    solved: bool
    edge: golden.Edgework

    def keypad(self):
        return [self.board[k] or self.labels[k] for k in range(PLACES)]


def parse_line(text):
    """The module's line (``E7021 L123456789 S0``): edgework, labels, strikes."""
    found = LINE.match(text.strip())
    if not found:
        raise protocol.ProtocolError(f"the module sent {text!r}, not its line")
    digit, port, lit, unlit, labels, strikes = found.groups()
    return (golden.Edgework(int(digit), int(port), int(lit), int(unlit)),
            [int(c) for c in labels], int(strikes))


def edgework(edge):
    """The module's command that sets `edge` for the next module; None: drawn."""
    return "E?" if edge is None else f"E{edge.digit}{edge.port}{edge.lit}{edge.unlit}"


class GoldenBomb:
    """The cartridge's golden model, clock by clock; a person's pause between presses
    is some hundreds of clocks, drawn from `seed`, so the module's draws vary."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)
        self.player = golden.Player(golden.Model(), limit=None)

    def new(self, edge=None, shuffled=True):
        player = self.player
        player.send(edgework(edge))
        player.send(f"L{int(shuffled)}")
        player.clock(start=1)
        player.clock(start=0)
        player.settle()
        return self.view()

    def press(self, label):
        self._pause()
        self.player.key(self.view().labels.index(label))
        return self.view()

    def pass_(self):
        self._pause()
        self.player.pass_()
        return self.view()

    def _pause(self):
        self.player.idle(self.rng.randrange(64, 1024))

    def view(self):
        m = self.player.model
        edge, labels, strikes = parse_line(m.line())
        probe = m.probe
        return View(board=[PIECES.get(v) for v in m.board], labels=labels,
                    up="X" if probe.lamps >> UP_X & 1 else "O", strikes=strikes,
                    struck=bool(probe.lamps >> STRIKE & 1), solved=bool(probe.over),
                    edge=edge)


class BoardBomb:
    """The module on a board (or the board in a box) over the host link: `link` is a
    boards.host.link.Link. The module's line follows the answer to a new module
    and to a strike; the client reads it before it sends more."""

    def __init__(self, link):
        self.link = link
        self.line = None
        self.status = None
        self.switch = False
        self.heard = False          # the module's line came since the last press
        self._command(protocol.STATUS, again=True)     # a box just started: its line

    def _command(self, frame, again=False):
        """The status after `frame` (`again`: protocol.Exchange's, for a frame that may
        meet the module's line); the module's line, if it came, is read."""
        self.status = self.link.command(frame, again=again)
        if self.link.texts:
            self.line = parse_line(self.link.texts[-1])
            self.link.texts.clear()
            self.heard = True
        return self.status

    def _await_line(self):
        """The module's line that follows an answer, unless it came before one."""
        if self.heard:
            return
        raw = self.link.stream.readline()
        if not raw.startswith(protocol.TEXT_MARK) or not raw.endswith(b"\n"):
            raise protocol.ProtocolError(f"the module's line did not come (got {raw!r})")
        self.line = parse_line(raw[1:].decode("ascii", "replace"))

    def new(self, edge=None, shuffled=True):
        self._command(protocol.text(edgework(edge).encode()))
        self._command(protocol.text(f"L{int(shuffled)}".encode()))
        self.switch = self._command(protocol.STATUS).switches[PASS_SWITCH]
        self.heard = False
        self._command(protocol.reset())
        self._await_line()
        return self.view()

    def press(self, label):
        self.heard = False
        self._command(protocol.key(self.line[1].index(label)))
        if self.status.lamps[STRIKE]:
            self._await_line()
        return self.view()

    def pass_(self):
        self.switch, self.heard = not self.switch, False
        self._command(protocol.switch(PASS_SWITCH, self.switch))
        # The answer to W may come before the PASS is judged, and a strike's line
        # after it; the status is asked for once the PASS has been judged.
        status = self._command(protocol.STATUS, again=True)
        if status.lamps[STRIKE]:
            self._await_line()
        return self.view()

    def view(self):
        edge, labels, strikes = self.line
        status = self.status
        return View(board=[PIECES.get(v) for v in status.board], labels=labels,
                    up="X" if status.lamps[UP_X] else "O", strikes=strikes,
                    struck=status.lamps[STRIKE], solved=status.lamps[SOLVED], edge=edge)


def show(view):
    e = view.edge
    lines = [f" serial number ...{e.digit}   parallel port: {'yes' if e.port else 'no'}   "
             f"indicators: {e.lit} lit, {e.unlit} unlit", RULE]
    aside = [f"Up Next: {view.up}" if not view.solved else "SOLVED",
             f"strikes: {view.strikes}", "[ PASS ]"]
    for row, beside in zip(rows(view.keypad()), aside):
        cells = " | ".join(str(label) for label in row)
        lines += [f"   | {cells} |    {beside}", RULE]
    return "\n".join(lines)


HELP = """Press a key by its label, 1-9 (a key under a piece keeps its label), or PASS.
new: a new module, its edgework drawn;  new D P L U: the serial number's last digit,
a parallel port (yes/no), lit and unlit indicators, e.g. new 7 no 1 2;
labels reading: from the next module on, the keys labelled in reading order, as on
the front panel;  labels shuffled: shuffled, as in the game (the default);  help;  quit.
The manual: the page of the module Tic-Tac-Toe in Keep Talking and Nobody Explodes.
The expert's page as code takes the keypad as shown here, Up Next and the row:
python -m firmware_ref.ktane expect X83/XO9/OX2 X 5"""
LABEL_ORDERS = {"SHUFFLED": True, "READING": False}
QUIT = ("QUIT", "Q")
YES_NO = {"YES": 1, "Y": 1, "NO": 0, "N": 0}


class Session:
    """One defuser at one bomb; `read(prompt)` (EOFError at the end) and `write(text)`
    are the terminal."""

    def __init__(self, bomb, read, write):
        self.bomb, self.read, self.write = bomb, read, write
        self.shuffled = True        # the labels of the next module

    def run(self):
        self.write(HELP)
        view = self.bomb.new()
        while True:
            self.write(show(view))
            if view.solved:
                self.write(f"The module is solved, with {view.strikes} strike"
                           f"{'s' if view.strikes != 1 else ''}. Type new for another.")
            try:
                line = self.read("> ")
            except EOFError:
                self.write("")
                return 0
            words = line.split()
            if not words:
                continue
            if words[0].upper() in QUIT:
                return 0
            view = self.act(words, view)

    def act(self, words, view):
        word = words[0].upper()
        if word == "NEW":
            try:
                edge = self.edgework(words[1:]) if len(words) > 1 else None
            except ValueError as error:
                self.write(f"That edgework won't do: {error}.")
                return view
            return self.bomb.new(edge, self.shuffled)
        if word == "LABELS":
            if len(words) != 2 or words[1].upper() not in LABEL_ORDERS:
                self.write("Labels are reading (the front panel's order) or shuffled, "
                           "e.g. labels reading.")
                return view
            self.shuffled = LABEL_ORDERS[words[1].upper()]
            order = "shuffled" if self.shuffled else "in reading order"
            self.write(f"From the next module on the keys are labelled {order}: type "
                       "new for one.")
            return view
        if view.solved and (word == "PASS" or word.isdigit()):
            self.write("The module is solved: nothing more to press.")
            return view
        if word == "PASS":
            return self.judged(view, self.bomb.pass_(), None)
        if word in [str(label) for label in range(1, PLACES + 1)]:
            return self.judged(view, self.bomb.press(int(word)), int(word))
        if word != "HELP":
            self.write(f"{words[0]!r} is neither a key 1-9, PASS nor a command.")
        self.write(HELP)
        return view

    def judged(self, before, after, label):
        if after.strikes > before.strikes or (after.struck and not before.struck):
            self.write("STRIKE!")
        placed = [k for k in range(PLACES) if after.board[k] and not before.board[k]]
        pressed = None if label is None else before.labels.index(label)
        for k in placed:
            if k != pressed:
                self.write(f"Two passes: the module placed {after.board[k]} on key "
                           f"{after.labels[k]}.")
        return after

    @staticmethod
    def edgework(words):
        if len(words) != 4:
            raise ValueError("give four: digit, parallel port, lit, unlit, e.g. 7 no 1 2")
        digit, port, lit, unlit = words
        if len(digit) != 1 or not digit.isdigit():
            raise ValueError(f"{digit!r} is not a digit 0-9")
        if port.upper() not in YES_NO:
            raise ValueError(f"{port!r}: a parallel port is yes or no")
        for count in (lit, unlit):
            if len(count) != 1 or not count.isdigit():
                raise ValueError(f"{count!r} is not a count of indicators 0-9")
        return golden.Edgework(int(digit), YES_NO[port.upper()], int(lit), int(unlit))


def play_golden(read, write, *, seed=None, **_):
    """`make play GAME=ktane`: the golden model in the terminal, its pauses drawn from
    `seed` (`ttt play`'s other options are not the bomb's)."""
    return Session(GoldenBomb(seed), read, write).run()


def play_board(link, read, write):
    """The module on a board over `link` (boards.host.link.Link)."""
    with link_errors():
        return Session(BoardBomb(link), read, write).run()
