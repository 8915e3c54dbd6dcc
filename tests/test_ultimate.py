"""Ultimate Tic-Tac-Toe (firmware_ref/ultimate, hdl/ultimate): the bitboard rules
against a plain 81-cell implementation over 2,000 random games, the seed's rules one by
one, the command line, the engine against minimax and exact endgames, the cartridge in
lockstep with its golden model (hundreds of positions, panel games, refusals), and each
block of the engine and the cartridge on its own."""

import random
import subprocess
import sys

import pytest

from firmware_ref.cartridge import LINES
from firmware_ref.ultimate.rules import parse, show


class Plain:
    """The rules again, on a list of 81 cells and nothing cleverer."""

    def __init__(self):
        self.cells, self.last = ["."] * 81, None

    def owner(self, b):
        small = self.cells[9 * b:9 * b + 9]
        for side in "XO":
            if any(all(small[k] == side for k in line) for line in LINES):
                return side
        return "-" if "." not in small else None

    def winner(self, owners=None):
        owners = owners or [self.owner(b) for b in range(9)]
        for side in "XO":
            if any(all(owners[b] == side for b in line) for line in LINES):
                return side
        return "open" if None in owners else "draw"

    def legal(self, owners=None):
        owners = owners or [self.owner(b) for b in range(9)]
        if self.winner(owners) != "open":
            return []
        sent = None if self.last is None else self.last % 9
        if sent is not None and owners[sent] is None:
            boards = [sent]
        else:
            boards = [b for b in range(9) if owners[b] is None]
        return sorted(9 * b + k for b in boards for k in range(9)
                      if self.cells[9 * b + k] == ".")

    def play(self, cell):
        self.cells[cell] = "X" if self.cells.count("X") == self.cells.count("O") else "O"
        self.last = cell


@pytest.mark.parametrize("count", [300, pytest.param(2000, marks=pytest.mark.slow)])
def test_the_bitboards_agree_with_the_plain_rules_over_random_games(count):
    rng = random.Random(18)
    ends, moves = {}, 0
    for _ in range(count):
        plain, position = Plain(), parse("." * 81)
        while True:
            owners = [plain.owner(b) for b in range(9)]
            legal = plain.legal(owners)
            assert position.legal() == legal
            assert position.winner() == plain.winner(owners)
            assert show(position) == "".join(plain.cells)
            if not legal:
                break
            cell = rng.choice(legal)
            plain.play(cell)
            position = position.play(cell)
            moves += 1
        ends[plain.winner()] = ends.get(plain.winner(), 0) + 1
    assert set(ends) == {"X", "O", "draw"} and moves > 40 * count


def board(cells):
    """81 characters with `cells` ({index: mark}) set."""
    text = ["."] * 81
    for i, mark in cells.items():
        text[i] = mark
    return "".join(text)


def test_x_begins_anywhere_and_a_move_sends_the_other_player():
    assert parse("." * 81).legal() == list(range(81))
    # X on cell 5 of small board 0 (index 5): O must play in small board 5.
    assert parse(board({5: "X"}), "5").legal() == list(range(45, 54))


def test_sent_to_a_won_board_the_player_may_play_in_any_undecided_board():
    # X owns small board 0 (its top row); O's last move, cell 0 of board 3, sends X to
    # board 0, which is decided: X may play any empty cell outside it.
    cells = {0: "X", 1: "X", 2: "X", 27: "O", 28: "O", 30: "O"}
    position = parse(board(cells), "27")
    assert position.owner(0) == "X" and position.to_move() == "X"
    assert position.legal() == [i for i in range(9, 81) if i not in (27, 28, 30)]


def test_a_full_small_board_without_a_line_is_nobodys_and_closed():
    # Small board 4 full, no line: X O X / X O O / O X X.
    draw = "XOXXOOOXX"
    cells = {36 + k: c for k, c in enumerate(draw)}
    cells[0] = "O"                  # five Xs and five Os; O moved last, on cell 40
    position = parse(board(cells), "40")
    assert position.owner(4) == "-"
    # The last move (cell 4 of board 4) sends X to board 4, which is closed.
    assert all(i // 9 != 4 for i in position.legal()) and position.legal()


def test_three_big_places_win_and_a_board_with_no_move_is_a_draw():
    line = {}
    for b in (0, 4, 8):             # X owns boards 0, 4 and 8: the diagonal
        line.update({9 * b + k: "X" for k in (0, 1, 2)})
    line.update({i: "O" for i in (9, 10, 12, 13, 18, 19, 21, 22)})
    position = parse(board(line), "-")
    assert position.winner() == "X" and position.legal() == []
    # Every small board decided, no big line: a draw, whoever is to move.
    owners = "XOXXOOOXX"            # no line of big places
    drawn = {}
    for b, side in enumerate(owners):
        other = "O" if side == "X" else "X"
        drawn.update({9 * b + k: side for k in (0, 1, 2)})
        drawn.update({9 * b + k: other for k in (3, 4, 6)})
    position = parse(board(drawn), "-")
    assert position.winner() == "draw" and position.legal() == []


def ultimate(*arguments):
    return subprocess.run([sys.executable, "-m", "firmware_ref.ultimate", *arguments],
                          capture_output=True, text=True)


def test_the_command_line():
    assert ultimate("legal", board({5: "X"}), "5").stdout.split() == \
        [str(i) for i in range(45, 54)]
    assert ultimate("winner", "." * 81).stdout == "open\n"
    for arguments, reason in [(("legal", "." * 80, "-"), "81 of X, O and ."),
                              (("legal", board({5: "X"}), "6"), "must hold"),
                              (("legal", board({5: "O"}), "5"), "no game gets there"),
                              (("legal", "." * 81, "81"), "is not a move")]:
        done = ultimate(*arguments)
        assert done.returncode == 2 and reason in done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("text", ["X" * 81, "XXXOOO" + "." * 75])
def test_positions_no_game_reaches_are_refused(text):
    with pytest.raises(ValueError):
        parse(text, "-")


# -- the engine -------------------------------------------------------------------------

from firmware_ref.ultimate import engine  # noqa: E402  (the engine's tests below)


def endgames(count, most, seed):
    """Positions of random games with at most `most` empty cells in undecided boards,
    the game still open."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = parse("." * 81)
        while position.legal():
            free = sum(9 - bin(position.small(b)[0] | position.small(b)[1]).count("1")
                       for b in range(9) if position.owner(b) is None)
            if free <= most:
                found.append(position)
                break
            position = position.play(rng.choice(position.legal()))
    return found


def test_the_engine_searching_to_the_end_plays_the_exact_value_of_endgames():
    # 36 endgames with at most 9 empty cells, and 4 with at most 12 (seconds each).
    checked = 0
    for position in endgames(36, 9, seed=12) + endgames(4, 12, seed=13):
        exact = engine.solve(position)
        cell, value, nodes = engine.move(position, depth=12)
        assert value == exact and nodes >= 2
        assert -engine.solve(position.play(cell)) == exact
        checked += 1
    assert checked == 40


def minimax(position, depth, nodes):
    """The same value without pruning, written plainly."""
    nodes[0] += 1
    result = position.winner()
    if result in ("X", "O"):
        return -engine.WIN
    if result == "draw":
        return 0
    if depth == 0:
        value = engine.evaluate(position)
        return value if position.to_move() == "X" else -value
    return max(-minimax(position.play(cell), depth - 1, nodes) for cell in position.legal())


def test_alpha_beta_finds_the_minimax_move_and_value_in_fewer_nodes():
    rng = random.Random(3)
    saved = []
    for n in range(12):
        position = parse("." * 81)
        for _ in range(rng.randrange(5, 40)):
            if not position.legal():
                break
            position = position.play(rng.choice(position.legal()))
        if not position.legal():
            continue
        depth = 1 + n % 3
        values, nodes = [], [1]
        for cell in position.legal():
            values.append(-minimax(position.play(cell), depth - 1, nodes))
        best = max(values)
        cell, value, searched = engine.move(position, depth)
        assert (cell, value) == (position.legal()[values.index(best)], best)
        assert searched <= nodes[0]
        saved.append(nodes[0] - searched)
    assert len(saved) >= 10 and max(saved) > 0       # pruning cut something


def test_the_engine_takes_a_small_board_when_it_can():
    cells = {0: "X", 1: "X", 36: "O", 37: "O", 9: "X", 45: "O"}
    text = ["."] * 81
    for i, mark in cells.items():
        text[i] = mark
    position = parse("".join(text), "45")           # O sent X to small board 0
    assert engine.move(position, depth=1)[:2] == (2, engine.evaluate(position.play(2)))


def test_the_strength_matches_play_whole_legal_games():
    from firmware_ref.ultimate import match
    rng = random.Random(5)
    player = match.mcts_player(rng, 30)
    position = parse("." * 81)
    for _ in range(6):
        assert player(position) in position.legal()
        position = position.play(player(position))
    counts = match.match(match.random_player(rng), 2, depth=1)
    assert sum(counts.values()) == 2 and set(counts) <= {"win", "loss", "draw"}


from firmware_ref.ultimate import model  # noqa: E402  (the cartridge's tests below)
from sim.cartridges import bench as cartridges  # noqa: E402

REFUSED = list(model.refused_games())
PLAYED = list(model.played_games(count=3, plies=44))


def test_the_golden_games_cover_refusals_keys_and_every_ending():
    said, endings, refused_keys = b"", set(), 0
    for game in REFUSED + PLAYED:
        m = model.Model()
        for pins in game:
            m.set(pins)
            state = m.state
            m.tick()
            if m.probe.tx_valid and pins.tx_ready:
                said += bytes([m.probe.tx_payload])
            refused_keys += state in ("PICK", "CELL") and pins.key and m.state == "PICK"
        endings.add(m.probe.lamps >> 2 if m.state == "OVER" else None)
    assert said.count(b"?\n") == len(model.REFUSED) and said.count(b"\nM") >= 5
    assert refused_keys > 10 and endings - {None} == {0, 1, 2}    # drawn, red, green won


def test_the_core_agrees_with_its_golden_model_on_refusals_and_restarts():
    assert cartridges.lockstep("ultimate", REFUSED) == (len(REFUSED), sum(map(len, REFUSED)))


@pytest.mark.slow       # the engine's compiled build and a million clocks: make test-slow
def test_the_core_searches_200_positions_and_plays_games_as_the_golden_model():
    # Move, value and nodes are in the line the cartridge says, and the clocks it
    # thinks are 4 a node: both compared at every clock. One compiled core for both.
    games = list(model.position_games(count=200)) + PLAYED
    assert cartridges.lockstep("ultimate", games, backend="compiled") == \
        (len(games), sum(map(len, games)))


def test_a_core_with_another_evaluation_is_caught(monkeypatch):
    import hdl.ultimate.engine as core_engine
    monkeypatch.setattr(core_engine, "BIG", 8)
    with pytest.raises(cartridges.Mismatch):
        cartridges.lockstep("ultimate", list(model.position_games(count=2, per_game=2)))


def test_a_short_blink_blinks_alike_in_the_core_and_the_golden_model(monkeypatch):
    # The boards' blink is longer than any game the benches play; a short one blinks
    # within each, and every bench gives the core and the golden model the same.
    games = list(model.position_games(count=2, per_game=2))
    assert cartridges.Golden(model, blink=64).play(games[0]) != \
        cartridges.Golden(model).play(games[0])
    monkeypatch.setattr(cartridges, "BLINK", 64)
    assert cartridges.lockstep("ultimate", games) == (len(games), sum(map(len, games)))

    class Slower(cartridges.cartridge("ultimate")):
        def __init__(self, *, blink):
            super().__init__(blink=2 * blink)
    with pytest.raises(cartridges.Mismatch, match=r"clock \d+: board is"):
        cartridges.lockstep("ultimate", games, core=Slower)


def test_the_search_clocks():
    assert [model.search_clocks(n) for n in (1, 605)] == [14, 2430]


# -- the cartridge's and the engine's blocks, each on its own ---------------------------
# Each against a plain statement of what its text says, or the golden side's code. The
# game's states (hdl/ultimate/game.py) and the search's (search.py) are the lockstep's:
# they are the cartridge and the engine with their blocks taken away.

from amaranth.sim import Simulator  # noqa: E402

from firmware_ref.ultimate.rules import HAS_LINE, positions  # noqa: E402


def simulate(dut, bench, clock=True):
    sim = Simulator(dut)
    if clock:
        sim.add_clock(1e-6)
    sim.add_testbench(bench)
    sim.run()


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
    simulate(dut, bench, clock=False)


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


from hdl.ultimate import node as engine_core  # noqa: E402


def test_the_node_keeps_negamax_and_its_frames_on_made_up_trees():
    # The search's states played by the bench on the node, against a plain alpha-beta;
    # every frame popped is the one pushed at its ply.
    from hdl.ultimate.node import Node
    depth = 3
    dut = Node(depth)

    async def step(ctx, name):
        ctx.set(getattr(dut, name), 1)
        await ctx.tick()
        ctx.set(getattr(dut, name), 0)

    pruned = []

    async def bench(ctx):
        for seed in range(20):
            tree, rng = Tree(seed, depth), random.Random(seed)
            path, pushed, root_move, nodes, x_root = [], {}, None, 0, rng.getrandbits(1)
            ctx.set(dut.ply, 0)
            await step(ctx, "start")
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
                await step(ctx, "enter")
                returns = ctx.get(dut.returns)
                assert returns == (won or drawn or len(path) == depth)
                await step(ctx, "score")
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
                    await step(ctx, "ret")
                    path.pop()
                    ctx.set(dut.ply, len(path))
                    returns = not again
                if returns:
                    await step(ctx, "ret")
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
                await step(ctx, "make")
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
    red, green = 0b01, 0b10

    def places(values):
        return sum(v << 2 * k for k, v in enumerate(values))

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
                x, o = (red, green) if pins["x_red"] else (green, red)
                mover = x if pins["x_turn"] else o
                blink = flash >> 2 & 1
                board_legal = sum(bool(legal >> 9 * b & 0x1FF) << b for b in range(9))
                owners = [x if x_line >> b & 1 else o if o_line >> b & 1 else
                          red | green if decided >> b & 1 else 0 for b in range(9)]
                open_cells = ~(x_view | o_view) & 0x1FF if chosen < 9 and \
                    open_boards >> chosen & 1 else 0
                assert ctx.get(dut.open_cells) == open_cells
                big = places(mover if pins["picking"] and blink and board_legal >> b & 1
                             else owners[b] for b in range(9))
                cells = places(x if x_view >> k & 1 else o if o_view >> k & 1 else
                               mover if blink and open_cells >> k & 1 else 0
                               for k in range(9))
                frozen = frozen if pins["thinking"] else places(owners)
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
            out = b""
            while not ctx.get(dut.silent):
                ready = rng.random() < 0.6
                ctx.set(dut.tx.ready, ready)
                if ready and ctx.get(dut.tx.valid):
                    out += bytes([ctx.get(dut.tx.payload)])
                await ctx.tick()
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
