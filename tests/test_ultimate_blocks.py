"""Ultimate Tic-Tac-Toe's cartridge's and engine's blocks (hdl/ultimate/), each on its
own, against a plain statement of what its text says or the golden side's code: the
move order, the position, the evaluation, the node, the display, the line writer, the
loader and a person's two keys. The game's states (hdl/ultimate/game.py) and the
search's (search.py) are the lockstep's (test_ultimate_cartridge.py): they are the
cartridge and the engine with their blocks taken away."""

import random

from bench import heard, pulse, simulate
from firmware_ref.cartridge import board_bits
from firmware_ref.places import BOTH, GREEN, RED
from firmware_ref.ultimate import engine, model
from firmware_ref.ultimate.rules import HAS_LINE, parse, positions, show
from hdl.ultimate import node as engine_core


def small_lines(xs, os):
    """Whether each small board holds a line of X's, and of O's: two 9-bit masks."""
    return (sum(HAS_LINE[xs >> 9 * b & 0x1FF] << b for b in range(9)),
            sum(HAS_LINE[os >> 9 * b & 0x1FF] << b for b in range(9)))


def test_pick_takes_the_lowest_cell_and_names_every_cell():
    from hdl.ultimate.pick import Pick
    dut, rng = Pick(), random.Random(4)
    sets = [0, (1 << 81) - 1] + [1 << c for c in range(81)] + \
        [rng.getrandbits(81) & rng.getrandbits(81) & rng.getrandbits(81) for _ in range(300)]

    async def bench(ctx):
        for cells in sets:
            ctx.set(dut.cells, cells)
            assert ctx.get(dut.lowest) == cells & -cells
        for cell in range(81):
            ctx.set(dut.pick, 1 << cell)
            assert (ctx.get(dut.move_b), ctx.get(dut.move_k), ctx.get(dut.k_hot)) == \
                (cell // 9, cell % 9, 1 << cell % 9)
    simulate(dut, bench)


def test_the_position_takes_its_set_up_and_the_searchs_moves():
    from hdl.ultimate.position import Position as Registers
    dut, rng = Registers(), random.Random(5)

    def one(b, k):
        return 1 << 9 * b + k if b < 9 and k < 9 else 0    # past 8: no cell

    async def bench(ctx):
        xs = os = last_b = last_k = has_last = 0
        x_turn = 1
        for _ in range(1500):
            pins = {name: rng.random() < 0.2 for name in (
                "clear", "stone", "put", "play", "walk", "make", "unmake")}
            pins["idle"] = rng.random() < 0.7
            for name in ("at_b", "at_k", "put_b", "put_k", "walk_b", "back_b", "back_k",
                         "view_b"):
                pins[name] = rng.choice([rng.randrange(9)] * 5 + [rng.randrange(16)])
            for name in ("stone_x", "put_has_last", "put_x_turn", "back_has_last"):
                pins[name] = rng.getrandbits(1)
            cell = rng.randrange(81)
            pins.update(move=1 << cell, move_b=cell // 9, move_k=cell % 9)
            for name, value in pins.items():
                ctx.set(getattr(dut, name), int(value))
            view = pins["view_b"]
            assert (ctx.get(dut.x_view), ctx.get(dut.o_view)) == (
                (xs >> 9 * view & 0x1FF, os >> 9 * view & 0x1FF) if view < 9 else (0, 0))
            # What the text says, in its order: a later command wins.
            erase, write, to_x = 0, 0, 0
            after = [last_b, last_k, has_last, x_turn]
            if pins["idle"]:
                if pins["clear"]:
                    erase, after = (1 << 81) - 1, [0, 0, 0, 1]
                if pins["stone"]:
                    write, to_x = one(pins["at_b"], pins["at_k"]), pins["stone_x"]
                if pins["put"]:
                    after = [pins["put_b"], pins["put_k"], pins["put_has_last"],
                             pins["put_x_turn"]]
                if pins["play"]:
                    write, to_x = one(pins["at_b"], pins["at_k"]), x_turn
                    after = [pins["at_b"], pins["at_k"], 1, 1 - x_turn]
            if pins["walk"]:
                after[0] = pins["walk_b"]
            if pins["make"]:
                write, to_x = 1 << cell, x_turn
                after = [cell // 9, cell % 9, 1, 1 - x_turn]
            if pins["unmake"]:
                erase = one(last_b, last_k)
                after = [pins["back_b"], pins["back_k"], pins["back_has_last"], 1 - x_turn]
            xs = xs & ~erase | (write if to_x else 0)
            os = os & ~erase | (0 if to_x else write)
            last_b, last_k, has_last, x_turn = after
            await ctx.tick()
            assert [ctx.get(getattr(dut, name)) for name in (
                "xs", "os", "last_b", "last_k", "has_last", "x_turn")] == \
                [xs, os, last_b, last_k, has_last, x_turn]
    simulate(dut, bench)


def test_the_evaluation_follows_a_move_and_agrees_with_the_golden_evaluation():
    # The search's steps on each position: start, INIT's walk of the boards, ENTER, the
    # root's value; then MAKE a legal move, ENTER, SCORE (the child's), RETURN.
    from hdl.ultimate.evaluation import Evaluation
    dut, rng = Evaluation(engine.BIG), random.Random(6)

    def setup(ctx, position):
        x_line, o_line = small_lines(position.xs, position.os)
        for name, value in (("xs", position.xs), ("os", position.os), ("x_line", x_line),
                            ("o_line", o_line), ("last_k", (position.last or 0) % 9),
                            ("x_turn", position.to_move() == "X")):
            ctx.set(getattr(dut, name), value)

    async def step(ctx, name, **pins):
        for pin, value in (("root", 1), ("board", 0), ("k_hot", 0), ("saved", 0)):
            ctx.set(getattr(dut, pin), pins.get(pin, value))
        ctx.set(getattr(dut, name), 1)
        await ctx.tick()
        ctx.set(getattr(dut, name), 0)

    async def bench(ctx):
        for position in list(positions(40, 7)):
            setup(ctx, position)
            await step(ctx, "start")
            for board in range(11):
                await step(ctx, "init", board=board)
            await step(ctx, "enter")
            assert ctx.get(dut.evaluation) == engine.evaluate(position)
            assert ctx.get(dut.negated) == -engine.evaluate(position)
            total = ctx.get(dut.total)
            cell = rng.choice(position.legal())
            await step(ctx, "take", root=0, board=cell // 9, k_hot=1 << cell % 9)
            child = position.play(cell)
            setup(ctx, child)
            await step(ctx, "enter", root=0)
            ctx.set(dut.root, 0)
            assert ctx.get(dut.evaluation) == engine.evaluate(child)
            await step(ctx, "keep", root=0)
            await step(ctx, "restore", root=0, saved=total)
            assert ctx.get(dut.total) == total
    simulate(dut, bench)


class Tree:
    """A made-up game for the node: at each node some cells (a few of 81), a big line
    or no move now and then, and at depth `depth` a value for the player to move."""

    def __init__(self, seed, depth):
        self.seed, self.depth = seed, depth

    def node(self, path):
        rng = random.Random(f"{self.seed} {path}")
        ending = rng.random()
        won, drawn = bool(path) and ending < 0.08, bool(path) and 0.08 <= ending < 0.14
        cells = sorted(rng.sample(range(81), rng.randrange(1, 5)))
        return won, drawn, cells, rng.randrange(-4, 5)     # ties: where cut-offs differ

    def negamax(self, path, alpha, beta, nodes):
        """The value, the root's first best cell; alpha-beta as docs/ultimate.md says."""
        nodes[0] += 1
        won, drawn, cells, value = self.node(path)
        if won:
            return -engine_core.INSIDE_WIN, None
        if drawn:
            return 0, None
        if len(path) == self.depth:
            return value, None
        best, move = -engine_core.INSIDE_INFINITY, None
        for cell in cells:
            child = -self.negamax(path + (cell,), -beta, -alpha, nodes)[0]
            if child > best:
                best, move = child, cell
                if child > alpha:
                    alpha = child
                    if alpha >= beta:
                        break
        return best, move

    def size(self, path=()):
        """Its nodes, none cut off."""
        won, drawn, cells, _ = self.node(path)
        if won or drawn or len(path) == self.depth:
            return 1
        return 1 + sum(self.size(path + (cell,)) for cell in cells)

def test_the_node_keeps_negamax_and_its_frames_on_made_up_trees():
    # The search's states played by the bench on the node, against a plain alpha-beta;
    # every frame popped is the one pushed at its ply.
    from hdl.ultimate.node import Node
    depth = 3
    dut = Node(depth)

    pruned = []

    async def bench(ctx):
        for seed in range(20):
            tree, rng = Tree(seed, depth), random.Random(seed)
            path, pushed, root_move, nodes, x_root = [], {}, None, 0, rng.getrandbits(1)
            ctx.set(dut.ply, 0)
            await pulse(ctx, dut, start=1)
            while True:
                # ENTER, SCORE
                won, drawn, cells, value = tree.node(tuple(path))
                x_turn = x_root ^ len(path) & 1
                mine = value if x_turn else -value          # X's side
                for name, pin in (("legal", sum(1 << c for c in cells)), ("x_big", won),
                                  ("o_big", 0), ("no_move", drawn), ("x_turn", x_turn),
                                  ("evaluation", mine), ("negated", -mine)):
                    ctx.set(getattr(dut, name), pin)
                nodes += 1
                await pulse(ctx, dut, enter=1)
                returns = ctx.get(dut.returns)
                assert returns == (won or drawn or len(path) == depth)
                await pulse(ctx, dut, score=1)
                while returns:
                    # RETURN, once the root's value is in, or the parent's next cell
                    if not path:
                        break
                    frame = ctx.get(dut.frame)
                    assert (frame.sum, frame.last_b, frame.last_k, frame.has_last) == \
                        pushed[len(path) - 1]
                    if len(path) == 1 and ctx.get(dut.better):
                        root_move = path[0]
                    again = ctx.get(dut.again)
                    await pulse(ctx, dut, ret=1)
                    path.pop()
                    ctx.set(dut.ply, len(path))
                    returns = not again
                if returns:
                    await pulse(ctx, dut, ret=1)
                    break
                # MAKE: the node's frame pushed, the lowest cell left played
                saved = (rng.randrange(-8000, 8000), rng.randrange(16), rng.randrange(16),
                         rng.getrandbits(1))
                for name, pin in zip(("sum", "last_b", "last_k", "has_last"), saved):
                    ctx.set(getattr(dut, name), pin)
                pushed[len(path)] = saved
                move = ctx.get(dut.move)
                cell = move.bit_length() - 1
                assert move == 1 << cell and \
                    (ctx.get(dut.move_b), ctx.get(dut.move_k)) == (cell // 9, cell % 9)
                await pulse(ctx, dut, make=1)
                path.append(cell)
                ctx.set(dut.ply, len(path))
            counted = [0]
            value, move = tree.negamax((), -engine_core.INSIDE_INFINITY,
                                       engine_core.INSIDE_INFINITY, counted)
            assert (ctx.get(dut.returned), root_move, nodes) == (value, move, counted[0])
            pruned.append(nodes < tree.size())
    simulate(dut, bench)
    assert sum(pruned) >= 5


def test_the_display_shows_owners_blinks_the_legal_places_and_freezes():
    # A blink of 8 clocks (lit in its last 4), positions of random games, each
    # for a few clocks; every output against the text, clock by clock.
    from hdl.ultimate.display import Display
    dut, rng = Display(8), random.Random(8)

    async def bench(ctx):
        flash, open_boards, big, cells, frozen = 0, 0, 0, 0, 0
        for position in positions(150, 9):
            x_line, o_line = small_lines(position.xs, position.os)
            decided = sum((position.owner(b) is not None) << b for b in range(9))
            legal = sum(1 << c for c in position.legal())
            for _ in range(rng.randrange(1, 6)):
                chosen = rng.choice([rng.randrange(9)] * 7 + [rng.randrange(9, 16)])
                x_view, o_view = position.small(chosen) if chosen < 9 else (0, 0)
                pins = dict(x_line=x_line, o_line=o_line, decided=decided, legal=legal,
                            x_turn=position.to_move() == "X", chosen=chosen,
                            x_view=x_view, o_view=o_view, x_red=rng.getrandbits(1),
                            picking=rng.getrandbits(1), thinking=rng.random() < 0.3)
                for name, value in pins.items():
                    ctx.set(getattr(dut, name), value)
                x, o = (RED, GREEN) if pins["x_red"] else (GREEN, RED)
                mover = x if pins["x_turn"] else o
                blink = flash >> 2 & 1
                board_legal = sum(bool(legal >> 9 * b & 0x1FF) << b for b in range(9))
                owners = [x if x_line >> b & 1 else o if o_line >> b & 1 else
                          BOTH if decided >> b & 1 else 0 for b in range(9)]
                open_cells = ~(x_view | o_view) & 0x1FF if chosen < 9 and \
                    open_boards >> chosen & 1 else 0
                assert ctx.get(dut.open_cells) == open_cells
                big = board_bits(
                    mover if pins["picking"] and blink and board_legal >> b & 1
                    else owners[b] for b in range(9))
                cells = board_bits(x if x_view >> k & 1 else o if o_view >> k & 1 else
                                   mover if blink and open_cells >> k & 1 else 0
                                   for k in range(9))
                frozen = frozen if pins["thinking"] else board_bits(owners)
                flash, open_boards = (flash + 1) % 8, board_legal
                await ctx.tick()
                assert [ctx.get(getattr(dut, name).as_value()) for name in (
                    "big", "cells", "frozen")] + [ctx.get(dut.open_boards)] == \
                    [big, cells, frozen, open_boards]
    simulate(dut, bench)


def test_the_line_writer_says_each_line_as_the_golden_model_does():
    # The engine's, the position's and the refused line, the host taking a byte now and
    # then; the look at a cell lent to the loader in between.
    from hdl.ultimate.writer import MOVE_LINE, POSITION_LINE, REFUSED_LINE, LineWriter
    dut, rng = LineWriter(), random.Random(10)

    async def bench(ctx):
        for n, position in enumerate(positions(24, 11)):
            last = position.last if rng.random() < 0.8 else None
            best = rng.randrange(81)
            value = rng.choice([rng.randrange(-6000, 6000), engine.WIN, -engine.WIN])
            nodes = rng.getrandbits(32)
            for name, pin in (("xs", position.xs), ("os", position.os),
                              ("last_b", (last or 0) // 9), ("last_k", (last or 0) % 9),
                              ("has_last", last is not None), ("best_b", best // 9),
                              ("best_k", best % 9), ("value", value), ("nodes", nodes)):
                ctx.set(getattr(dut, name), pin)
            ctx.set(dut.loading, 1)
            for cell in rng.sample(range(81), 20):
                ctx.set(dut.number, cell)
                assert (ctx.get(dut.x_at), ctx.get(dut.o_at)) == \
                    (position.xs >> cell & 1, position.os >> cell & 1)
            ctx.set(dut.loading, 0)
            said = f"P{show(position)} {'--' if last is None else f'{last:02d}'}\n"
            line = [MOVE_LINE, POSITION_LINE, REFUSED_LINE][n % 3]
            said = {MOVE_LINE: f"M{best:02d} {value & 0xFFFFFF:06X} {nodes:08X}\n",
                    REFUSED_LINE: "?\n"}.get(line, "") + said
            assert ctx.get(dut.silent) and not ctx.get(dut.tx.valid)
            ctx.set(dut.begin, 1)
            ctx.set(dut.line, line)
            await ctx.tick()
            ctx.set(dut.begin, 0)
            out = await heard(ctx, dut.tx, rng=rng, done=lambda: ctx.get(dut.silent))
            assert out == said.encode()
    simulate(dut, bench)


def loaded_verdict(text, tens, units):
    """The position the host's bytes load, by the golden rules; None where refused."""
    if tens == units == "-":
        last = "-"
    elif tens in "012345678" and units in "0123456789":
        last = str(int(tens + units))
    else:
        return None
    try:
        return parse(text, last)
    except ValueError:
        return None


def test_the_loader_puts_the_stones_and_refuses_as_the_golden_rules():
    # Positions of random games, as sent and spoilt (a character, the last move, a cell
    # swapped), the refused ones the golden model sends, and loads cut short by start.
    from hdl.ultimate.loader import Loader
    dut, rng = Loader(), random.Random(12)
    streams = [refused[1:].decode() for refused in model.REFUSED]
    for position in positions(60, 13):
        text = show(position)
        last = "--" if position.last is None else f"{position.last:02d}"
        spoil = rng.randrange(5)
        if spoil == 1:
            at = rng.randrange(81)
            text = text[:at] + rng.choice("XO.Q-9") + text[at + 1:]
        elif spoil == 2:
            last = rng.choice("0123456789-") + rng.choice("0123456789-")
        elif spoil == 3:
            last = f"{rng.randrange(81):02d}"
        streams.append(text + last)
    verdicts = []

    async def clock(ctx, **pins):
        for name, value in pins.items():
            ctx.set(getattr(dut, name), value)
        await ctx.tick()
        for name in pins:
            ctx.set(getattr(dut, name), 0)

    async def bench(ctx):
        for n, stream in enumerate(streams):
            cut = rng.randrange(84) if n % 7 == 6 else None
            await clock(ctx, valid=1, byte=ord("X"))       # no P yet: nothing taken
            assert not ctx.get(dut.taking) and not ctx.get(dut.stone)
            await clock(ctx, begin=1)
            for i, byte in enumerate(stream):
                if i == cut:
                    await clock(ctx, abort=1)
                    break
                while rng.random() < 0.3:
                    await clock(ctx)
                assert ctx.get(dut.taking) and ctx.get(dut.loading)
                ctx.set(dut.valid, 1)
                ctx.set(dut.byte, ord(byte))
                stones = (byte in "XO", byte == "X", i // 9, i % 9) if i < 81 else (0,) * 4
                assert (ctx.get(dut.stone), ctx.get(dut.stone_x), ctx.get(dut.at_b),
                        ctx.get(dut.at_k)) == stones
                await clock(ctx, valid=1)
            else:
                # CHECK: the writer's look at the last move's cell, and the small boards
                assert ctx.get(dut.loading) and not ctx.get(dut.taking)
                xs = sum((c == "X") << i for i, c in enumerate(stream[:81]))
                os = sum((c == "O") << i for i, c in enumerate(stream[:81]))
                number = ctx.get(dut.number)
                x_line, o_line = small_lines(xs, os)
                await clock(ctx, x_at=xs >> number & 1, o_at=os >> number & 1,
                            x_line=x_line, o_line=o_line)
                assert ctx.get(dut.done) and not ctx.get(dut.loading)
                want = loaded_verdict(stream[:81], stream[81], stream[82])
                assert ctx.get(dut.refused) == (want is None)
                if want:
                    assert (ctx.get(dut.put_has_last), ctx.get(dut.put_x_turn)) == \
                        (want.last is not None, want.to_move() == "X")
                    if want.last is not None:
                        assert (ctx.get(dut.put_b), ctx.get(dut.put_k)) == \
                            (want.last // 9, want.last % 9)
                verdicts.append(want is None)
                await clock(ctx)
            assert not (ctx.get(dut.taking) or ctx.get(dut.loading) or ctx.get(dut.done))
    simulate(dut, bench)
    assert 15 < sum(verdicts) < len(verdicts) - 15


def test_a_persons_move_takes_a_board_then_a_cell_and_goes_back_on_a_wrong_cell():
    # Random keys, open boards and cells, lines being said and the game away (not
    # active) now and then, against PICK, CELL and PLACE as the text gives them.
    from hdl.ultimate.choice import Choice
    dut, rng = Choice(), random.Random(14)

    async def bench(ctx):
        state, chosen, place, played = "PICK", 0, 0, 0
        for _ in range(4000):
            key = rng.choice([None, None, rng.randrange(9)])
            pins = dict(active=rng.random() < 0.85, begin=rng.random() < 0.05,
                        key=0 if key is None else 1 << key, open_boards=rng.getrandbits(9),
                        open_cells=rng.getrandbits(9), silent=rng.random() < 0.5)
            pins["active"] &= not pins["begin"]         # begin comes from NEXT
            for name, value in pins.items():
                ctx.set(getattr(dut, name), value)
            on, silent = pins["active"], pins["silent"]
            want = dict(picking=on and state == "PICK",
                        showing=on and state != "PICK",
                        ready=on and (state != "PLACE" or not silent),
                        listening=on and state != "PLACE" and key is None,
                        play=on and state == "PLACE" and silent)
            assert {name: ctx.get(getattr(dut, name)) for name in want} == \
                {name: int(value) for name, value in want.items()}
            if on and state == "PICK" and key is not None and pins["open_boards"] >> key & 1:
                state, chosen = "CELL", key
            elif on and state == "CELL" and key is not None:
                place = key
                state = "PLACE" if pins["open_cells"] >> key & 1 else "PICK"
            elif on and state == "PLACE" and silent:
                state, played = "PICK", played + 1
            if pins["begin"]:
                state = "PICK"
            await ctx.tick()
            assert (ctx.get(dut.chosen), ctx.get(dut.place)) == (chosen, place)
        assert played > 100
    simulate(dut, bench)
