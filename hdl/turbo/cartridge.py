"""Turbo: a machine that searches the game tree with alpha-beta as fast as it can, as a
cartridge.

A game of turns (hdl/turns.py, whose text gives the game's rules) whose engine is a
depth-first negamax search with an alpha-beta window, values -1 (a loss for the side to
move), 0 (a draw) and 1 (a win); what one board says (wins, threats, forks) is seen at
once by logic, so many nodes end without a child. firmware_ref/turbo is the golden
model written from this text. The engine's rules, clock by clock:

- While ``think`` is low the engine copies the console's board, stands at the root (the
  machine to move) with alpha -1, in phase "look", with ``done`` low.
- The side to move at depth d is the machine (red) if d is even, else the person.
- The place order is centre, corners, edges: 4, 0, 2, 6, 8, 1, 3, 5, 7.
- Of a board, for the side to move: a win is an empty place that completes a line of
  its own; a threat an empty place that completes one of the other side's; a maker an
  empty place on at least one line holding one of its own stones and two empty places;
  a fork an empty place on two or more such lines. The node's candidates are its
  threat (a forced block) if it has one, else its empty places.
- The pick of a set: its first maker in the order, else its first place in the order.
- Look (one clock, from the board): the node is a leaf if the side to move has a win
  (value 1), else two or more threats (value -1), else a fork among its candidates
  (value 1), else at most three empty places or no stone at all (value 0). A leaf is
  decided, with that value. The node keeps its wins as its candidates if it has any,
  else its candidates, and its makers and forks, and goes on to phase "step".
- Step (one clock): beta is 1 at the root, else minus the parent's alpha. A decided
  root first settles, in two steps: its candidates become the forks among them if there
  are any, then its best move becomes the pick of its candidates. A node is finished if
  it is decided (a root: settled), or alpha >= beta (a cut), or no candidate is left.
  A finished root registers its best move as its answer, and ``done``, shown from the
  next clock. A finished node below the root returns. Otherwise the node tries the pick
  of its candidates: the place leaves them, the side's stone goes on it, and the child
  (one deeper) is looked at next with alpha minus the node's beta.
- A return (the value of a decided node is its leaf's, else its alpha): the child's
  stone is taken back, the parent goes on stepping, not decided, with alpha the larger
  of its alpha and minus the value; at the root, the best move becomes the returning
  child if that raises the root's alpha or the root's alpha is -1 (all before it lose).

So a node takes three clocks: tried, looked at, and returned from (or stepped on to
its next child). The budget: the console's think time of every reply in a game from
the empty board is at most 256 clocks (the engine's clocks plus two); the empty board
is a leaf whose pick is the centre (a fixed opening that draws): five clocks, as for
every decided root (a win on the board, say).
"""

from ..turns import Turns
from .engine import Search


__all__ = ["Turbo", "CARTRIDGE"]


class Turbo(Turns):
    code = "T"
    title = "turbo (alpha-beta, forced moves and forks seen at once)"
    machine = "turbo"
    blunder_lamp = True

    engine = Search


CARTRIDGE = Turbo
