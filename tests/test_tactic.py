"""Tactic-Toe's golden model (firmware_ref/tactic): the seed's example and remark, the
round rules, the resolver against a second one on every pair of round-1 plans and on
random pairs in rounds 2-3, the referee, the planner against a plain mean, the machine
against a random opponent and itself, and the command line. The cartridge's tests are
in test_tactic_cartridge.py, its blocks' in test_tactic_blocks.py, the client's in
test_tactic_client.py."""

import random
import subprocess
import sys
from itertools import product

import pytest

from firmware_ref.g import F
from firmware_ref.tactic import match, planner, rules
from firmware_ref.tactic.referee import Referee
from firmware_ref.tactic.rules import EMPTY, O, X, IllegalPlan, check, plans, resolve

EMPTY_BOARD = (EMPTY,) * 9


def test_the_seeds_example():
    # A writes 2, 3, 7 and B 2, 7, 1: 2 bounces, X on 3 and O on 7, A's 7 fails, O on 1.
    steps = []
    board, result = resolve(EMPTY_BOARD, 1, (2, 3, 7), (2, 7, 1), steps)
    assert [(s.a_was, s.b_was) for s in steps] == [("bounced", "bounced"),
                                                   ("placed", "placed"),
                                                   ("taken", "placed")]
    assert rules.show_board(board) == "O.X...O.." and result == "open"


def test_five_five_five_takes_the_centre_unless_both_write_it():
    for other in plans(3):
        board, _ = resolve(EMPTY_BOARD, 3, (5, 5, 5), other)
        assert (board[4] == X) == (other != (5, 5, 5)), other
    assert resolve(EMPTY_BOARD, 3, (5, 5, 5), (5, 5, 5)) == (EMPTY_BOARD, "cats")


def test_each_rounds_rule_and_its_reason():
    assert (len(plans(1)), len(plans(2, (1, 2, 4))), len(plans(3))) == (312, 120, 729)
    for plan, reason in [((1, 1, 2), "three different"), ((1, 5, 9), "centre"),
                         ((7, 1, 4), "three places in a row")]:
        with pytest.raises(IllegalPlan, match=reason):
            check(plan, 1)
    with pytest.raises(IllegalPlan, match=r"written in round 1 \(2\)"):
        check((5, 2, 3), 2, (1, 2, 4))
    with pytest.raises(IllegalPlan, match="three different"):
        check((5, 5, 3), 2, (1, 2, 4))
    check((5, 5, 5), 3)
    assert all(5 not in p and len(set(p)) == 3 for p in plans(1))


def plain_score(board, result, side):
    """The planner's score written again, from the issue's words."""
    if result in ("X", "O"):
        return 1000 if result == "XO"[side - 1] else -1000
    if result in ("tie", "cats"):
        return 0
    value = [0 if v == EMPTY else 1 if v == side else -1 for v in board]
    return sum(F(*(value[k - 1] for k in line)) for line in rules.LINES)


def resolved_alike(pairs):
    """Each pair of round-1 plans resolved by both resolvers, which must agree; what
    came of them: (result, Xs, Os) each."""
    outcomes = set()
    for a, b in pairs:
        board, result = resolve(EMPTY_BOARD, 1, a, b)
        xs, os, code = planner.fast_resolve(0, 0, 1, a, b)
        assert (xs, os) == planner.masks(board) and planner.RESULTS[code] == result
        outcomes.add((result, board.count(X), board.count(O)))
    # No line in round 1: no plan is a line, and stones only bounce or land.
    assert {r for r, _, _ in outcomes} == {"open"}
    assert (min(x for _, x, _ in outcomes), max(x for _, x, _ in outcomes)) == (0, 3)
    return outcomes


def test_round_1_plans_resolve_alike_in_both_resolvers_on_a_sample_of_pairs():
    # 97 344 pairs take 8 s: a draw of 5 000 here, every pair in make test-slow (below).
    pairs = list(product(plans(1), repeat=2))
    resolved_alike(random.Random(1).sample(pairs, 5000))


@pytest.mark.slow       # every pair, the sample's full sweep
def test_every_pair_of_round_1_plans_resolves_alike_in_both_resolvers():
    resolved_alike(product(plans(1), repeat=2))


def test_random_pairs_in_rounds_2_and_3_resolve_alike():
    rng = random.Random(17)
    seen = set()
    for _ in range(3000):
        referee = Referee()
        while not referee.over:
            a = rng.choice(plans(referee.round, referee.history["A"]))
            b = rng.choice(plans(referee.round, referee.history["B"]))
            if referee.round > 1:
                board, result = resolve(referee.board, referee.round, a, b)
                xs, os, code = planner.fast_resolve(*planner.masks(referee.board),
                                                    referee.round, a, b)
                assert (xs, os) == planner.masks(board)
                assert planner.RESULTS[code] == result
                seen.add(result)
            referee.play(a, b)
    assert seen == {"X", "O", "tie", "cats", "open"}


def test_the_referee_refuses_and_changes_nothing_and_stops_at_a_result():
    referee = Referee()
    with pytest.raises(IllegalPlan):
        referee.play((1, 2, 3), (4, 6, 8))
    assert referee.round == 1 and referee.board == EMPTY_BOARD
    assert referee.play((1, 2, 4), (3, 6, 8)) == "open" and referee.round == 2
    with pytest.raises(IllegalPlan, match="round 1"):
        referee.play((1, 5, 9), (5, 7, 9))
    # X: 1, 2, 4 then 5, 9 -> 1-5-9 at the second step of round 2; the game ends there.
    assert referee.play((5, 9, 7), (7, 1, 9)) == "X" and referee.round == 2
    assert [s.result for s in referee.steps] == ["open", "X"]
    with pytest.raises(ValueError, match="over"):
        referee.play((3, 6, 7), (2, 5, 9))


def test_the_planner_is_the_mean_the_issue_defines_with_ties_to_the_lowest_plan():
    board = rules.parse_board("X.....O..")
    history, other = (1, 6, 8), (7, 3, 2)
    found = planner.totals(board, 2, O, history=other, other=history)
    for p in plans(2, other):
        want = sum(plain_score(*resolve(board, 2, q, p), O) for q in plans(2, history))
        assert found[p] == want
    best = max(found.values())
    assert planner.plan(board, 2, O, other, history) == min(
        p for p in found if found[p] == best)


def test_the_machine_against_a_random_opponent_and_itself(capsys):
    results = match.against_random(15, seed=4)
    with capsys.disabled():
        for side, counts in results.items():
            print(f"\nmachine as {side} vs random, 15 games: {dict(counts)}")
    for counts in results.values():
        assert counts["win"] > counts["loss"] and sum(counts.values()) == 15
    # Against itself both sides plan alike from alike positions: every move bounces.
    referee = match.self_play()
    assert (referee.result, referee.board) == ("cats", EMPTY_BOARD)


def tactic(*arguments):
    return subprocess.run([sys.executable, "-m", "firmware_ref.tactic", *arguments],
                          capture_output=True, text=True)


def test_the_command_line():
    assert tactic("resolve", ".........", "1", "237", "271").stdout == "O.X...O.. open\n"
    assert tactic("resolve", "XX.OO....", "3", "369", "555").stdout == "XXXOO.... X\n"
    assert tactic("plan", ".........", "1", "X", "-").stdout == \
        "".join(map(str, planner.plan(EMPTY_BOARD, 1, X))) + "\n"
    for arguments, reason in [
            (("resolve", ".........", "1", "555", "123"), "player A's plan is illegal"),
            (("resolve", ".........", "2", "137", "248", "--history-a", "134"),
             "not a place written in round 1 (1)"),
            (("resolve", "........", "1", "237", "271"), "is not a board"),
            (("plan", ".........", "2", "X", "-"), "round 2: give SIDE's round-1 plan")]:
        done = tactic(*arguments)
        assert done.returncode == 2 and reason in done.stderr
        assert "Traceback" not in done.stderr
