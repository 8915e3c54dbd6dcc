"""Tactic-Toe's cartridge's blocks (hdl/tactic/), each on its own, against the golden
rules or its text: the plans entered, the display, the line writer. The game's states
(hdl/tactic/game.py) are the lockstep's (test_tactic_cartridge.py): they are the
cartridge with its blocks taken away."""

import random

from amaranth.hdl import Value

from bench import heard, simulate
from firmware_ref.cartridge import board_bits
from firmware_ref.places import BOTH, GREEN, RED
from firmware_ref.tactic import rules


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

    async def bench(ctx):
        for flash in list(range(8)) * 60:
            stones = [rng.choice([0, RED, GREEN]) for _ in range(9)]
            pins = dict(stones=board_bits(stones), bounce=rng.getrandbits(1),
                        bounce_at=rng.randrange(9), taken=rng.randrange(3),
                        refused=rng.getrandbits(1), round=rng.randrange(1, 4),
                        colour=rng.getrandbits(1))
            for name, value in pins.items():
                ctx.set(Value.cast(getattr(dut, name)), value)
            mine = RED if pins["colour"] else GREEN
            entering = [mine if pins["taken"] > i else 0 for i in range(3)] + \
                [RED if pins["refused"] else 0] * 3 + \
                [BOTH if pins["round"] > i else 0 for i in range(3)]
            if pins["bounce"] and flash >= 4:
                stones[pins["bounce_at"]] = BOTH
            assert (ctx.get(dut.entering.as_value()), ctx.get(dut.shown.as_value())) == \
                (board_bits(entering), board_bits(stones))
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
            said = await heard(ctx, dut.tx, rng=rng, done=lambda: not ctx.get(dut.tx.valid))
            assert said == "".join(str(p + 1) for p in plan).encode() + b"\n"
    simulate(dut, bench)
