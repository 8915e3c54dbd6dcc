"""Ultimate Tic-Tac-Toe (docs/ultimate.md), as the terminal client plays it
(boards/host/ultimate.py, whose board side, rules and words this uses): 81 cells in
nine small boards, the big board of their owners, the boards the player to move may
move in, and the engine's move with its value and the nodes it searched. The page draws
it in static/ultimate.js.
"""

from firmware_ref.ultimate.rules import CELLS
from sim import catalogue

from ...host import ultimate
from ..messages import Invalid
from . import Base, field

__all__ = ["NAME", "View"]

NAME = catalogue.ULTIMATE.view


class View(Base):
    NAME = NAME

    def begin(self):
        self.game = ultimate.BoardGame(self.link)
        self.words = ultimate.Session(self.game, None, self.said.append)
        self.reply = self.game.new(True, True)

    def do_move(self, message):
        cell = field(message, "cell", int, range(CELLS))
        reason = ultimate.refusal(self.game.position, cell)
        if reason:
            raise Invalid(f"That move won't do: {reason}.")
        self.reply = self.game.play(cell)
        self._said()

    def do_new(self, message):
        machine = field(message, "machine", bool) if "machine" in message else True
        begins = field(message, "person_begins", bool) if "person_begins" in message \
            else True
        self.reply = self.game.new(machine, begins)
        self._said()

    def _said(self):
        self.words.replied(self.reply)
        if self.game.position.winner() != "open":
            self.said.append(self.words.result(self.game.position))

    def state(self):
        position, reply = self.game.position, self.reply
        winner = position.winner()
        cells = ["X" if position.xs >> i & 1 else "O" if position.os >> i & 1 else ""
                 for i in range(CELLS)]
        legal = position.legal() if winner == "open" else []
        names = self.words.names()
        return {**super().state(), "cells": cells, "legal": sorted(legal),
                "boards": [position.owner(b) or "" for b in range(9)],
                "open": sorted({cell // 9 for cell in legal}),
                "to_move": position.to_move(), "last": position.last,
                "winner": winner, "names": names, "machine": self.game.machine,
                "person_begins": self.game.person_begins,
                "result": self.words.result(position) if winner != "open" else None,
                "reply": None if reply is None else
                {"cell": reply.cell, "value": reply.value, "nodes": reply.nodes}}
