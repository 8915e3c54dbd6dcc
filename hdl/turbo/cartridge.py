"""Turbo: a machine that searches the whole game tree with alpha-beta, one step per clock,
as a cartridge.

A game of turns (hdl/turns.py, whose text gives the game's rules) whose engine is a
depth-first negamax search with an alpha-beta window, values -1 (a loss for the side to
move), 0 (a draw) and 1 (a win). firmware_ref/turbo is the golden model written from
this text. The engine's rules, clock by clock:

- While ``think`` is low the engine copies the console's board, stands at the root (the
  machine to move) with alpha -1, and its node is fresh.
- The side to move at depth d is the machine (red) if d is even, else the person.
- The place order is centre, corners, edges: 4, 0, 2, 6, 8, 1, 3, 5, 7. "The first" of
  a set of places is the first in this order.
- Of the node's board, for the side to move: a win is an empty place that completes a
  line of its own; a threat an empty place that completes one of the other side's; a
  maker an empty place on a line with one of its own stones and two empty places.
- A node's pick of a set of places: the first maker among them, else the first of them.
- A fresh node is a leaf if it has a win (value 1, move: the pick of the wins), else two
  or more threats (value -1, the pick of the threats), else at most two empty places
  and at most one threat, or no stone at all (value 0, the pick of the threat, else of
  the empty places: the empty board's is the centre, the fixed opening). Otherwise its
  candidates are the threat (a forced block) if there is one, else every empty place.
- A node that is not fresh keeps its candidates not yet tried and its alpha; beta is 1
  at the root, else minus its parent's alpha. It is finished when alpha >= beta (a
  cut) or no candidate is left; its value is alpha.
- Each clock does one of three: a finished node (or a leaf) at the root ends thinking:
  ``done``, and the move is the leaf's move or the root's best move; a finished node
  (or leaf) below the root returns: its move is taken back, the parent's alpha becomes
  the larger of alpha and minus the value, and the parent goes on (not fresh); the
  root's best move becomes the returning child's move when that raises the root's
  alpha. Otherwise the node tries the pick of its candidates; it leaves the candidates, the stone goes on the
  board, the child is fresh with alpha minus the node's beta. The root's best move is
  the first child it tries until a child raises its alpha.

The budget: the console's think time of every reply in a game from the empty board is
at most 256 clocks (the engine's clocks plus two). So every reply takes at most two clocks per node searched; the empty board's opening
(the centre, a draw) takes one.
"""

from ..turns import Turns
from .engine import Search


__all__ = ["Turbo", "CARTRIDGE"]


class Turbo(Turns):
    code = "T"
    title = "turbo (alpha-beta, one step per clock, forced moves at once)"
    machine = "turbo"

    def engine(self):
        return Search()


CARTRIDGE = Turbo
