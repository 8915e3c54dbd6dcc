"""The bomb module of Keep Talking and Nobody Explodes (docs/ktane.md), as the terminal
client shows it (boards/host/bomb.py, whose board side and judgement this uses): the
edgework, the keypad with its labels, Up Next, the strikes and PASS. The page draws it
in static/bomb.js.
"""

from firmware_ref.ktane.model import Edgework
from sim import catalogue

from ...host import bomb
from ..messages import Invalid
from . import Base, field

__all__ = ["NAME", "View"]

NAME = catalogue.BOMB.view


class View(Base):
    NAME = NAME

    def begin(self):
        self.bomb = bomb.BoardBomb(self.link)
        # The terminal session's judgement of a press, its lines said to the page.
        self.judge = bomb.Session(self.bomb, None, self.said.append)
        self.shuffled = True
        self.view = self.bomb.new()

    def do_press(self, message):
        label = field(message, "label", int, range(1, 10))
        if self.view.solved:
            self.said.append("The module is solved: nothing more to press.")
            return
        self.view = self.judge.judged(self.view, self.bomb.press(label), label)
        self._solved()

    def do_pass(self, message):
        if self.view.solved:
            self.said.append("The module is solved: nothing more to press.")
            return
        self.view = self.judge.judged(self.view, self.bomb.pass_(), None)
        self._solved()

    def do_new(self, message):
        edge = None
        if "edgework" in message:
            given = field(message, "edgework", dict)
            values = [given.get(name) for name in ("digit", "port", "lit", "unlit")]
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in values) \
                    or not (0 <= values[0] <= 9 and values[1] in (0, 1)
                            and 0 <= values[2] <= 9 and 0 <= values[3] <= 9):
                raise Invalid("new: the edgework is digit 0-9, port 0 or 1, lit and unlit "
                              "0-9")
            edge = Edgework(*values)
        if "shuffled" in message:
            self.shuffled = field(message, "shuffled", bool)
        self.view = self.bomb.new(edge, self.shuffled)

    def _solved(self):
        if self.view.solved:
            strikes = self.view.strikes
            self.said.append(f"The module is solved, with {strikes} strike"
                             f"{'s' * (strikes != 1)}.")

    def state(self):
        view, edge = self.view, self.view.edge
        return {**super().state(), "keypad": view.board, "labels": view.labels,
                "up": view.up, "strikes": view.strikes, "struck": view.struck,
                "solved": view.solved, "shuffled": self.shuffled,
                "edgework": {"digit": edge.digit, "port": edge.port, "lit": edge.lit,
                             "unlit": edge.unlit}}
