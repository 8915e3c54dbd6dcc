"""The machine's planner: for each of its legal plans, the mean over every legal plan
of the other player of a score of the round's result; the best plan, ties to the
lowest in lexicographic order.

The score, for the machine: a win +1000, a loss -1000, a tie or a cats game 0, else
Baum's G of the board after the round (Baum's thesis: F(x,y,z) = (x+y+z)^3 + xyz over the
eight lines, the machine's stones +1, the other's -1). Every mean divides by the same
count, so the sums are compared, exactly.

Up to 729 x 729 rounds are resolved for one plan, so this resolver works on two 9-bit
masks (place k is bit k - 1) and tables; rules.resolve is the plain one, and the tests
hold the two together on every pair of round-1 plans.
"""

from ..g import G
from .rules import EMPTY, LINES, ROUNDS, X, plans

__all__ = ["WIN", "score", "masks", "fast_resolve", "totals", "plan"]

WIN = 1000
FULL = 0x1FF
LINE_MASKS = [sum(1 << k - 1 for k in line) for line in LINES]
HAS_LINE = [any(m & line == line for line in LINE_MASKS) for m in range(512)]
# Results, as the planner codes them.
OPEN, CATS, TIE, X_WINS, O_WINS = range(5)
RESULTS = {OPEN: "open", CATS: "cats", TIE: "tie", X_WINS: "X", O_WINS: "O"}


def masks(board):
    """X's and O's places of `board` as two 9-bit masks."""
    xs = sum(1 << k for k, v in enumerate(board) if v == X)
    os = sum(1 << k for k, v in enumerate(board) if v not in (EMPTY, X))
    return xs, os


def fast_resolve(xs, os, round, plan_a, plan_b):
    """rules.resolve on masks: (xs, os, result code)."""
    for a, b in zip(plan_a, plan_b):
        bit_a, bit_b = 1 << a - 1, 1 << b - 1
        taken = xs | os
        if a != b:
            if not taken & bit_a:
                xs |= bit_a
            if not taken & bit_b:
                os |= bit_b
            x_line, o_line = HAS_LINE[xs], HAS_LINE[os]
            if x_line or o_line:
                return xs, os, TIE if x_line and o_line else X_WINS if x_line else O_WINS
            if xs | os == FULL:
                return xs, os, CATS
    return xs, os, CATS if round == ROUNDS else OPEN


def score(xs, os, result, side, cache):
    """The round's worth to `side` (`X` or `O`); `cache` keeps G by board."""
    if result == X_WINS:
        return WIN if side == X else -WIN
    if result == O_WINS:
        return -WIN if side == X else WIN
    if result != OPEN:
        return 0
    key = (xs, os)
    if key not in cache:
        cache[key] = G([1 if xs >> k & 1 else -1 if os >> k & 1 else 0 for k in range(9)])
    value = cache[key]
    return value if side == X else -value


def totals(board, round, side, history=None, other=None):
    """{plan: the sum of its scores over the other player's legal plans}. `history`
    is the machine's round-1 plan, `other` the other player's; in round 2 without
    `other` the other player may write any three different places."""
    mine = plans(round, history)
    theirs = plans(round, other if other else ()) if round == 2 else plans(round)
    xs, os = masks(board)
    cache, found = {}, {}
    for p in mine:
        total = 0
        for q in theirs:
            a, b = (p, q) if side == X else (q, p)
            total += score(*fast_resolve(xs, os, round, a, b), side, cache)
        found[p] = total
    return found


def plan(board, round, side, history=None, other=None):
    """The machine's plan: the largest sum, the lowest plan among equals."""
    found = totals(board, round, side, history, other)
    best = max(found.values())
    return min(p for p, total in found.items() if total == best)
