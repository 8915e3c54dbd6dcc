"""The engine: alpha-beta (negamax) to a fixed depth, legal moves in increasing order,
an evaluation in Baum's spirit (docs/ultimate.md). The hardware engine is to give the
same move, value and node count, so every choice here is written to be copied.

- Evaluation, from X's side: Baum's G (Baum's thesis: F(x,y,z) = (x+y+z)^3 + xyz over
  the eight lines, X +1, O -1) of each undecided small board, plus `BIG` times G of
  the big board, whose places count as stones for their owners (a drawn one empty).
- A won game is worth `WIN` to the winner, a draw 0; the search stops there.
- Nodes: every position the search enters, the root included.
- Move order: increasing cell; the root keeps the first of equal values.
"""

from ..g import G

__all__ = ["WIN", "BIG", "DEPTH", "evaluate", "search", "move", "solve"]

WIN = 1_000_000
BIG = 16
DEPTH = 4
INFINITY = 2 * WIN


def evaluate(position):
    """The evaluation from X's side (see the module's text)."""
    total, big = 0, []
    for b in range(9):
        owner = position.owner(b)
        big.append(1 if owner == "X" else -1 if owner == "O" else 0)
        if owner is None:
            x, o = position.small(b)
            total += G([(x >> k & 1) - (o >> k & 1) for k in range(9)])
    return total + BIG * G(big)


def search(position, depth, alpha, beta, nodes):
    """The value for the player to move; `nodes` (a one-element list) counts."""
    nodes[0] += 1
    result = position.winner()
    if result in ("X", "O"):
        return -WIN                         # the player who just moved has won
    if result == "draw":
        return 0
    if depth == 0:
        value = evaluate(position)
        return value if position.to_move() == "X" else -value
    best = -INFINITY
    for cell in position.legal():
        value = -search(position.play(cell), depth - 1, -beta, -alpha, nodes)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def move(position, depth=DEPTH):
    """(cell, value, nodes): the engine's move, its value for the player to move, and
    the positions searched."""
    nodes = [1]
    best, chosen, alpha = -INFINITY, None, -INFINITY
    for cell in position.legal():
        value = -search(position.play(cell), depth - 1, -INFINITY, -alpha, nodes)
        if value > best:
            best, chosen, alpha = value, cell, max(alpha, value)
    if chosen is None:
        raise ValueError("the game is over: no move")
    return chosen, best, nodes[0]


def solve(position):
    """The exact value for the player to move: WIN, 0 or -WIN, by a full search."""
    result = position.winner()
    if result in ("X", "O"):
        return -WIN
    if result == "draw":
        return 0
    best = -INFINITY
    for cell in position.legal():
        best = max(best, -solve(position.play(cell)))
        if best == WIN:
            break
    return best
