"""Tactic-Toe's golden model (firmware_ref/tactic): the seed's example and remark, the
round rules, the resolver against a second one on every pair of round-1 plans and on
random pairs in rounds 2-3, the referee, the planner against a plain mean, and the
machine against a random opponent and itself; the cartridge in lockstep with the golden
model, and its blocks each on its own."""

import random
import subprocess
import sys
from itertools import product

import pytest
from user import make

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


def test_every_pair_of_round_1_plans_resolves_alike_in_both_resolvers():
    outcomes = set()
    for a, b in product(plans(1), repeat=2):
        board, result = resolve(EMPTY_BOARD, 1, a, b)
        xs, os, code = planner.fast_resolve(0, 0, 1, a, b)
        assert (xs, os) == planner.masks(board) and planner.RESULTS[code] == result
        outcomes.add((result, board.count(X), board.count(O)))
    # No line in round 1: no plan is a line, and stones only bounce or land.
    assert {r for r, _, _ in outcomes} == {"open"}
    assert (min(x for _, x, _ in outcomes), max(x for _, x, _ in outcomes)) == (0, 3)


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


# -- the cartridge: core and golden model ---------------------------------------------

from firmware_ref.tactic import model  # noqa: E402  (the cartridge's tests below)
from sim.cartridges import bench as cartridges  # noqa: E402

PEOPLE = list(model.two_person_games())


def test_the_golden_games_cover_refused_keys_bounces_and_every_result():
    refused, bounced, results = 0, 0, set()
    for game in PEOPLE:
        m = model.Model()
        for pins in game:
            m.set(pins)
            before = m.refused
            m.tick()
            refused += m.refused and not before
            bounced += m.state == "JUDGE" and m.bounce
        results.add(m.result)
    assert refused > 20 and bounced > 5 and results == {"X", "O", "tie", "cats"}


def test_the_core_agrees_with_its_golden_model_in_two_person_games():
    assert cartridges.lockstep("tactic", PEOPLE) == (len(PEOPLE), sum(map(len, PEOPLE)))


@pytest.mark.slow       # the planner's compiled build and half a million clocks: make test-slow
def test_the_core_plans_as_the_golden_model_in_a_game_against_the_machine():
    # The seed's A plan 2, 3, 7 in round 1; the planner's choice and its clocks.
    game = next(model.machine_games(1))
    assert cartridges.lockstep("tactic", [game], backend="compiled") == (1, len(game))
    m = model.Model()
    thinks = []
    for pins in game:
        m.set(pins)
        m.tick()
        if m.state == "THINK" and m.thought == 1:
            thinks.append((m.round, m.needed))
    assert thinks[0] == (1, 227_865) and all(n in (227_865, 88_089, 531_441)
                                            for _, n in thinks)


def test_a_core_that_lets_the_centre_into_round_1_is_caught(monkeypatch):
    import hdl.tactic.rules as core_rules
    monkeypatch.setattr(core_rules, "CENTRE", 9)        # no place is the centre
    with pytest.raises(cartridges.Mismatch):
        cartridges.lockstep("tactic", PEOPLE)


def test_the_planner_clocks_per_round():
    assert [model.think_clocks(1, ()), model.think_clocks(2, (1, 2, 4)),
            model.think_clocks(3, ())] == [312 * 729 + 417, 120 * 729 + 609, 729 * 729]


def test_a_game_against_the_machine_through_the_board_in_a_box():
    from boards.host import tactic as client
    from boards.host.link import Link, open_box
    from boards.box.box import Box
    said = []
    typed = iter(["555", "237", "146", "999", "quit", "quit"])
    with Box(("tactic",)) as box, open_box(box) as port:
        session = client.Session(client.BoardGame(Link(port)),
                                 lambda prompt: next(typed), said.append)
        assert session.run() == 0
    text = "\n".join(said)
    assert "That plan won't do: round 1: not the centre, 5." in text
    assert "The machine planned 1 9 3." in text        # the golden planner's, above
    assert "Round 1, move 1: X 2 placed, O 1 placed." in text


def test_the_terminal_referees_two_people_on_the_golden_model():
    from boards.host import tactic as client
    said, secret = [], []
    typed = iter(["people"])
    # The seed's tie game: both plans typed unseen, each round.
    plans_typed = iter(["389", "748", "651", "129"])

    def hidden(prompt):
        secret.append(prompt)
        return next(plans_typed)
    answers = iter(["again", "quit"])
    session = client.Session(client.RefereeGame(),
                             lambda prompt: next(typed, None) or next(answers),
                             said.append, hidden)
    assert session.run() == 0
    text = "\n".join(said)
    assert "A tie game: both lines." in text and "'again': new, people or quit." in text
    assert secret == ["A (X) plan for round 1: ", "B (O) plan for round 1: ",
                      "A (X) plan for round 2: ", "B (O) plan for round 2: "]


@pytest.fixture(scope="module")
def lost_to_the_machine():
    """`make play GAME=tactic` with plans that lose to the machine in round 3."""
    done = make("play", "GAME=tactic", input="192\n473\n254\nquit\n")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_against_the_machine_the_result_names_you_and_the_machine(lost_to_the_machine):
    # The player is asked for "your (X) plan" and never told of players A and B.
    assert "The machine wins." in lost_to_the_machine.splitlines()
    assert "(A)" not in lost_to_the_machine and "(B)" not in lost_to_the_machine


def test_the_board_is_drawn_once_between_rounds(lost_to_the_machine):
    # The board after a round is drawn once, under the next round's number.
    lines = lost_to_the_machine.splitlines()
    for n in (2, 3):
        assert lines[lines.index(f"Round {n}.") - 1].startswith(f"Round {n - 1}, move 3:")
    assert lost_to_the_machine.count("     1   2   3") == 4     # rounds 1-3, and the end


# -- the cartridge's blocks, each on its own --------------------------------------------
# Each against the golden rules or its text; the game's states (hdl/tactic/game.py) are
# the lockstep's: they are the cartridge with its blocks taken away.


from amaranth.hdl import Value  # noqa: E402
from amaranth.sim import Simulator  # noqa: E402


def simulate(dut, bench):
    sim = Simulator(dut)
    sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()


def test_the_plans_take_the_keys_the_golden_rules_allow():
    # Random keys for A and B, plan after plan, each round's rule against the golden
    # refusal; the machine's plan, round 1's kept as histories and new games between.
    from hdl.tactic.plans import Plans
    dut, rng = Plans(), random.Random(21)

    async def bench(ctx):
        plans, history = [[0] * 3, [0] * 3], [[0] * 3, [0] * 3]
        taken = refused = 0
        player, round, completed, refusals = 0, 1, 0, set()
        for _ in range(3000):
            command = rng.choices(["enter", "machine", "keep", "clear", "idle"],
                                  [20, 1, 1, 1, 2])[0]
            if command in ("machine", "keep") and taken:
                command = "idle"        # as the game: between plans
            key = rng.choice([None, rng.randrange(9), rng.randrange(9)])
            planned = [rng.randrange(9) for _ in range(3)]
            pins = dict(enter=command == "enter", player=player, round=round,
                        key=0 if key is None else 1 << key, machine=command == "machine",
                        keep=command == "keep", clear=command == "clear")
            for name, value in pins.items():
                ctx.set(getattr(dut, name), value)
            for i in range(3):
                ctx.set(dut.planned[i], planned[i])
            ok = key is not None and rules.refusal(
                round, tuple(p + 1 for p in history[player]),
                tuple(p + 1 for p in plans[player][:taken]), key + 1) is None
            complete = command == "enter" and ok and taken == 2
            assert ctx.get(dut.complete) == complete
            if command == "enter" and key is not None:
                if ok:
                    plans[player][taken] = key
                    taken, refused = (taken + 1) % 3, 0
                else:
                    refused = 1
                    refusals.add(round)
            elif command == "machine":
                plans[1] = planned
            elif command == "keep":
                history = [list(plans[0]), list(plans[1])]
            elif command == "clear":
                taken = refused = 0
            await ctx.tick()
            got = [[ctx.get(plan[i]) for i in range(3)] for plan in (
                dut.plan_a, dut.plan_b, dut.history_a, dut.history_b)]
            assert got == plans + history
            assert (ctx.get(dut.taken), ctx.get(dut.refused)) == (taken, refused)
            if complete or command == "clear":
                completed += complete
                player, round = rng.getrandbits(1), rng.randrange(1, 4)
        assert completed > 100 and refusals == {1, 2}
    simulate(dut, bench)


def test_the_display_shows_the_entry_and_flashes_a_bounce():
    # A blink of 8 clocks (lit in its last 4); random boards, entries and bounces.
    from hdl.tactic.display import Display
    dut, rng = Display(8), random.Random(22)
    red, green, both = 0b01, 0b10, 0b11

    def places(values):
        return sum(v << 2 * k for k, v in enumerate(values))

    async def bench(ctx):
        for flash in list(range(8)) * 60:
            stones = [rng.choice([0, red, green]) for _ in range(9)]
            pins = dict(stones=places(stones), bounce=rng.getrandbits(1),
                        bounce_at=rng.randrange(9), taken=rng.randrange(3),
                        refused=rng.getrandbits(1), round=rng.randrange(1, 4),
                        colour=rng.getrandbits(1))
            for name, value in pins.items():
                ctx.set(Value.cast(getattr(dut, name)), value)
            mine = red if pins["colour"] else green
            entering = [mine if pins["taken"] > i else 0 for i in range(3)] + \
                [red if pins["refused"] else 0] * 3 + \
                [both if pins["round"] > i else 0 for i in range(3)]
            if pins["bounce"] and flash >= 4:
                stones[pins["bounce_at"]] = both
            assert (ctx.get(dut.entering.as_value()), ctx.get(dut.shown.as_value())) == \
                (places(entering), places(stones))
            await ctx.tick()
    simulate(dut, bench)


def test_the_line_writer_says_bs_plan_as_a_line():
    from hdl.tactic.writer import LineWriter
    dut, rng = LineWriter(), random.Random(23)

    async def bench(ctx):
        for _ in range(40):
            plan = [rng.randrange(9) for _ in range(3)]
            for i in range(3):
                ctx.set(dut.plan[i], plan[i])
            assert not ctx.get(dut.tx.valid)
            ctx.set(dut.begin, 1)
            await ctx.tick()
            ctx.set(dut.begin, 0)
            said = b""
            while ctx.get(dut.tx.valid):
                ready = rng.random() < 0.6
                ctx.set(dut.tx.ready, ready)
                if ready:
                    said += bytes([ctx.get(dut.tx.payload)])
                await ctx.tick()
            assert said == "".join(str(p + 1) for p in plan).encode() + b"\n"
    simulate(dut, bench)
