"""The bomb module of Keep Talking and Nobody Explodes (hdl/ktane, firmware_ref/ktane,
boards/host/bomb.py): the expert against the manual page and against the module in every
reachable state, thousands of modules defused, every wrong press a strike, the core in
lockstep with its golden model, the terminal client on the golden model and the board in
a box, and a defuser with the expert's command line through the commands a user types."""

import contextlib
import copy
import io
import os
import random
import re
import select
import subprocess
import sys
from dataclasses import dataclass

import pytest
from desks import GAMES as SEVERAL
from user import ROOT, make, started, typed

from boards.host import bomb, protocol
from boards.host.console import play
from boards.host.link import Link, open_box
from boards.box.box import Box
from firmware_ref import cli
from firmware_ref.ktane import __main__ as expert_line, lfsr, manual, model, module, states
from firmware_ref.ktane.manual import Defuser, expect, start_row
from firmware_ref.ktane.model import Edgework, Model, Player
from sim import Mismatch
from sim.cartridges.lockstep import lockstep


# -- the expert: the manual page ----------------------------------------------------

@pytest.mark.parametrize("digit, port, lit, unlit, row", [
    (7, False, 1, 2, 1), (7, False, 2, 1, 3), (7, False, 1, 1, 2),   # odd, no port
    (3, True, 0, 3, 2), (3, True, 3, 0, 4), (3, True, 0, 0, 3),      # odd, a port
    (4, False, 1, 2, 5), (4, False, 2, 1, 9), (4, False, 2, 2, 7),   # even, no port
    (0, True, 0, 1, 6), (0, True, 1, 0, 8), (0, True, 1, 1, 7),      # even, a port
])
def test_the_starting_row_follows_rules_1_to_5(digit, port, lit, unlit, row):
    assert start_row(digit, port, lit, unlit) == row


def test_every_column_of_the_chart_names_each_key_once():
    from hdl.ktane.chart import TABLE       # the core's own copy of the page's table
    assert TABLE == manual.CHART
    for column in range(6):
        assert sorted(row[column] for row in manual.CHART) == list(range(1, 10))


def ktane(*arguments):
    return subprocess.run([sys.executable, "-m", "firmware_ref.ktane", *arguments],
                          capture_output=True, text=True)


def test_the_expert_command_line():
    done = ktane("start-row", "--digit", "4", "--parallel-port", "yes", "--lit", "2",
                 "--unlit", "2")
    assert (done.returncode, done.stdout) == (0, "7\n")
    # X O . / X . . / O . . : as many Xs as Os, O up next, row 4: key 8, then row 5.
    assert ktane("expect", "XO.X..O..", "O", "4").stdout == "PRESS 8 5\n"
    # X X . / O O . / . . . : X on key 3 would make a line.
    assert ktane("expect", "XX./OO./...", "x", "1").stdout == "PASS 1\n"
    # From row 9 the walk goes on at row 1.
    assert ktane("expect", "XXOOOX.XO", "X", "9").stdout == "PRESS 7 5\n"


@pytest.mark.parametrize("arguments", [
    ("expect", "XO.X..O", "O", "4"), ("expect", "XO.X..O.Q", "O", "4"),
    ("expect", "XOXOXOOXO", "X", "1"), ("expect", "XO.X..O..", "Y", "4"),
    ("expect", "XO.X..O..", "X", "10"),
    ("start-row", "--digit", "12", "--parallel-port", "no", "--lit", "0", "--unlit", "0"),
    ("start-row", "--digit", "1", "--parallel-port", "maybe", "--lit", "0", "--unlit", "0"),
])
def test_bad_input_to_the_expert_is_one_line(arguments):
    done = ktane(*arguments)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].count("error") == 1


@pytest.fixture(scope="module")
def sampled_states():
    """4,000 of the 40,914 states the modules reach (board, Up Next, pass flag), drawn
    once: each is checked at nine rows. Finding them all takes 2 s, checking all 5 s."""
    return random.Random(1).sample(sorted(states.reachable()), 4000)


@pytest.mark.slow       # every state: the sample below stays in make test
def test_the_expert_agrees_with_the_module_in_every_reachable_state():
    counts = states.check()
    # Every board, Up Next and pass flag the modules reach, at each of the nine rows.
    assert (counts.states, len(counts.boards)) == (368_226, 12_718)
    assert counts.states == counts.presses + counts.passes + counts.double_passes
    assert min(counts.presses, counts.passes, counts.double_passes) > 30_000


def test_the_expert_agrees_with_the_module_in_a_sample_of_reachable_states(sampled_states):
    counts = states.check(sampled_states)
    assert counts.states == 9 * len(sampled_states)
    assert counts.states == counts.presses + counts.passes + counts.double_passes
    assert min(counts.presses, counts.passes, counts.double_passes) > 3_000


def test_a_wrong_expert_is_caught(monkeypatch, sampled_states):
    # An expert who, after PASS, moves on a row as after a key.
    right = manual.expect

    def hasty(keypad, up, row):
        answer = right(keypad, up, row)
        return ("PASS", answer[1] % 9 + 1) if answer[0] == "PASS" else answer
    monkeypatch.setattr(manual, "expect", hasty)
    with pytest.raises(AssertionError, match="the expert presses PASS"):
        states.check(sampled_states)


def test_the_start_boards_are_every_five_pieces_without_a_line():
    boards = set(states.starts())
    assert len(boards) == 3116
    assert all(board.count(module.EMPTY) == 4 for board in boards)


# -- the module, clock by clock ------------------------------------------------------

def test_the_lfsr_visits_every_state_but_zero():
    state, seen = lfsr.SEED, 0
    while True:
        state, seen = lfsr.step(state), seen + 1
        if state == lfsr.SEED:
            break
    assert seen == 2 ** 16 - 1


# 2,000 modules take 5 s: 400 in make test, every one of them in make test-slow.
@pytest.mark.parametrize("modules", [400, pytest.param(2000, marks=pytest.mark.slow)])
def test_random_modules_are_defused_by_the_expert_with_no_strike(modules):
    rng = random.Random(16)
    solved = 0
    for n in range(modules):
        edge = Edgework(rng.randrange(10), rng.randrange(2), rng.randrange(4),
                        rng.randrange(4)) if n % 2 else None
        player, _ = model.play(rng, edge=edge, shuffle=n % 4 < 2)
        m = player.model
        assert m.probe.over and module.EMPTY not in m.board and m.strikes == 0
        solved += 1
    assert solved == modules


def test_modules_begin_with_five_pieces_and_no_line():
    rng = random.Random(5)
    for _ in range(300):
        player = Player(Model())
        player.idle(rng.randrange(500))
        player.clock(start=1)
        player.clock(start=0)
        player.settle()
        board = player.model.board
        assert board.count(module.EMPTY) == 4 and not states._line(board)


def ready_states(count, seed):
    """Copies of models waiting for a press, from modules the expert defuses, and
    the expert's right press there."""
    rng = random.Random(seed)
    for n in range(count):
        player = Player(Model())
        player.send("L1")
        player.clock(start=1)
        player.clock(start=0)
        player.settle()
        e = player.model.edge
        defuser = Defuser(e.digit, e.port, e.lit, e.unlit)
        while not player.model.probe.over:
            m = player.model
            seen, up = model.keypad(m), "X" if m.up == module.X else "O"
            before = copy.deepcopy(defuser)
            press = defuser.press(seen, up)
            yield m.copy(), press, before
            if press == "PASS":
                player.pass_()
            else:
                player.key(m.place_of[press - 1])
            player.idle(rng.randrange(8))


def test_every_wrong_press_is_one_strike_and_resets_the_row():
    tried = 0
    for m, right, defuser in ready_states(60, 3):
        for press in ["PASS", *range(1, 10)]:
            if press == right:
                continue
            wrong = Player(m.copy())
            board, up, passed = list(m.board), m.up, m.passed
            if press == "PASS":
                wrong.pass_()
            else:
                wrong.key(m.place_of[press - 1])
            after = wrong.model
            assert (after.strikes, after.row) == (m.strikes + 1, m.edge.start)
            assert (after.board, after.up, after.passed) == (board, up, passed)
            assert after.probe.lamps >> 2 & 1      # the strike lamp
            tried += 1
    assert tried >= 2700


def test_the_host_sets_the_edgework_and_the_labels():
    player = Player(Model())
    player.send("E7121")
    player.send("L1")
    player.clock(start=1)
    player.clock(start=0)
    player.settle()
    m = player.model
    assert m.edge == Edgework(7, 1, 2, 1) and m.row == 3    # odd, a port, more lit: 4
    assert m.place_of != list(range(9)) and sorted(m.place_of) == list(range(9))
    assert m.line().startswith("E7121 L") and bomb.parse_line(m.line())[0] == m.edge
    # An E with anything but four digits leaves the edgework to be drawn.
    for text in ("E?", "E71x"):
        player.send(text)
        player.send("L0")
        player.clock(start=1)
        player.clock(start=0)
        player.settle()
        assert not player.model.host_set and player.model.place_of == list(range(9))


def test_a_solved_module_ignores_every_press():
    player, _ = model.play(random.Random(1))
    m = player.model
    board = list(m.board)
    player.clock(key=1)
    player.clock(key=0, switches=m.inputs.switches ^ 2)
    player.idle(4)
    assert m.probe.over and m.board == board and m.strikes == 0


# -- the core against the golden model ----------------------------------------------

GAMES = list(model.games())


def test_the_golden_games_cover_strikes_passes_and_double_passes():
    kinds = set()
    for game in GAMES:
        m = Model()
        for pins in game:
            m.set(pins)
            state = m.state
            m.tick()
            if state == "JUDGE":
                kinds.add("strike" if m.struck else m.state)
    assert kinds == {"strike", "NEXT", "READY", "RANDOM"}


def test_the_core_agrees_with_its_golden_model():
    # On Amaranth's simulator; `make verify GAME=ktane` plays the same games compiled
    # (CXXRTL), `--backend verilator` on cocotb: their builds take minutes from cold.
    assert lockstep("ktane", GAMES) == (len(GAMES), sum(map(len, GAMES)))


@pytest.mark.parametrize("block, name, value", [
    ("new_module", "PIECES", 4),
    ("start_row", "ROWS", {**__import__("hdl.ktane.start_row", fromlist=["ROWS"]).ROWS,
                           (1, 1): (5, 7, 7)}),
])
def test_a_wrong_core_is_caught(monkeypatch, block, name, value):
    import importlib
    monkeypatch.setattr(importlib.import_module(f"hdl.ktane.{block}"), name, value)
    with pytest.raises(Mismatch):
        lockstep("ktane", GAMES)


def test_a_wrong_chart_in_the_core_is_caught(monkeypatch):
    import hdl.ktane.chart as chart
    table = [list(row) for row in chart.TABLE]
    table[0][2], table[1][2] = table[1][2], table[0][2]
    monkeypatch.setattr(chart, "TABLE", tuple(map(tuple, table)))
    with pytest.raises(Mismatch):
        lockstep("ktane", GAMES)


# -- the terminal ----------------------------------------------------------------------

def test_the_terminal_defuses_the_golden_module():
    said, state = [], {}
    golden = bomb.GoldenBomb(seed=4)
    typed = iter(["7", "pass", "new 12 no 1 1", "new 7 maybe 1 1", "boom", "labels up",
                  "quit"])

    def read(prompt):
        """The expert's presses on the bomb as it shows itself; then `typed`."""
        view = golden.view()
        if view.solved:
            return next(typed)
        if state.get("module") != view.edge:
            e = view.edge
            state["module"], state["defuser"] = e, Defuser(e.digit, e.port, e.lit, e.unlit)
        return str(state["defuser"].press(view.keypad(), view.up))
    assert bomb.Session(golden, read, said.append).run() == 0
    text = "\n".join(said)
    assert "The module is solved, with 0 strikes." in text
    assert "nothing more to press" in text
    assert "'12' is not a digit 0-9" in text and "a parallel port is yes or no" in text
    assert "'boom' is neither a key 1-9, PASS nor a command." in text
    assert "Labels are reading (the front panel's order) or shuffled" in text
    assert "serial number ..." in text and "Up Next:" in text and "[ PASS ]" in text


def test_a_module_is_defused_through_the_board_in_a_box():
    # On the desk of several games (tests/desks.py), the bomb chosen as `game N` does.
    with Box(SEVERAL) as box, open_box(box) as port:
        link = Link(port)
        link.command(protocol.game(SEVERAL.index("ktane")), again=True)
        board = bomb.BoardBomb(link)
        for edge in (None, Edgework(8, 0, 1, 1)):
            view = board.new(edge)
            assert edge is None or view.edge == edge
            assert sum(v is not None for v in view.board) == 5 and view.strikes == 0
            e = view.edge
            defuser = Defuser(e.digit, e.port, e.lit, e.unlit)
            while not view.solved:
                press = defuser.press(view.keypad(), view.up)
                view = board.pass_() if press == "PASS" else board.press(press)
            assert view.strikes == 0 and None not in view.board
        # A wrong press: one strike, seen on the lamp and in the module's line.
        view = board.new()
        e = view.edge
        answer = expect(view.keypad(), view.up, start_row(e.digit, e.port, e.lit, e.unlit))
        wrong = next(k for k in range(1, 10) if answer != ("PRESS", k) and
                     answer[:2] != ("PRESS", k))
        view = board.press(wrong)
        assert view.struck and view.strikes == 1


def test_play_board_hands_the_bomb_to_its_own_client():
    said, typed = [], iter([f"game {SEVERAL.index('ktane')}", "pass", "quit"])
    with Box(SEVERAL) as box, open_box(box) as port:
        assert play(port, read=lambda prompt: next(typed),
                    write=said.append) == 0
    text = "\n".join(said)
    assert "Press a key by its label" in text and "strikes: " in text


# -- a defuser and an expert, as two people use the commands -------------------------

EDGE_SHOWN = re.compile(r"serial number \.\.\.(\d)   parallel port: (yes|no)   "
                        r"indicators: (\d) lit, (\d) unlit")
KEYS_SHOWN = re.compile(r"^   \| (\S) \| (\S) \| (\S) \|    (.*)$", re.M)
# Every kind of starting row: an odd or even last digit, a parallel port or none, and
# more unlit (rule 3), more lit (rule 4) or as many (rule 5); they reach rows 1-9.
EDGEWORK = [(digit, port, lit, unlit) for digit in ("7", "4") for port in ("no", "yes")
            for lit, unlit in (("1", "2"), ("2", "1"), ("1", "1"))]


@dataclass
class Screen:
    """The last bomb a client drew: what the defuser reads out to the expert."""
    edge: tuple             # digit, "yes"/"no", lit, unlit, as shown
    keys: list              # per key in reading order: "X", "O" or its label
    up: str                 # "X", "O" or "" once solved
    strikes: int

    @classmethod
    def last(cls, text):
        drawn = text[text.rindex("serial number ..."):]
        rows = KEYS_SHOWN.findall(drawn)[:3]
        aside = [row[3].strip() for row in rows]
        return cls(EDGE_SHOWN.match(drawn).groups(), [k for row in rows for k in row[:3]],
                   aside[0].removeprefix("Up Next: ") if aside[0] != "SOLVED" else "",
                   int(aside[1].removeprefix("strikes: ")))

    @property
    def board(self):
        return "/".join("".join(self.keys[3 * r:3 * r + 3]) for r in range(3))


class Client:
    """A bomb's terminal client as a child process, typed to as a defuser types."""

    def __init__(self, argv):
        self.child = started(argv)
        self.said = self.read()

    def read(self):
        """Everything up to the next prompt."""
        seen = b""
        while not seen.endswith(b"> "):
            assert select.select([self.child.stdout], [], [], 300)[0], f"stuck: {seen!r}"
            chunk = os.read(self.child.stdout.fileno(), 65536)
            assert chunk, f"the client ended: {seen!r} {self.child.stderr.read()!r}"
            seen += chunk
        return seen.decode()

    def type(self, line):
        self.child.stdin.write(f"{line}\n".encode())
        self.child.stdin.flush()
        self.said = self.read()
        return self.said

    @property
    def screen(self):
        return Screen.last(self.said)

    def quit(self):
        out, err = self.child.communicate(b"quit\n", timeout=60)
        assert (self.child.returncode, err) == (0, b"")


def expert(*arguments):
    """The expert's command line, as docs/ktane.md shows it; its answer's words."""
    done = typed(["python", "-m", "firmware_ref.ktane", *arguments])
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def asked(*arguments):
    """The expert's command line run in this process (its parser, its printed words):
    a module takes some seven questions and a process each cost 0.1 s, most of the
    defusals' time. `expert` and the docs' lines above run it as a process."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert cli.run(expert_line.main, list(arguments)) == 0
    return printed.getvalue().split()


def defuse(client, wrong=False):
    """Defuse the module the client shows, as the defuser and the expert do: the expert
    hears the keypad as drawn, Up Next and the row, and the defuser presses what it
    answers. The row: the expert's next row after a key; after a PASS the row it names,
    or the row after it when the module placed a piece itself (two passes); the
    starting row after a strike. `wrong`: the first press is a wrong one. The screen
    at the end."""
    screen = client.screen
    digit, port, lit, unlit = screen.edge
    start = row = int(asked("start-row", "--digit", digit, "--parallel-port", port,
                            "--lit", lit, "--unlit", unlit)[0])
    while screen.up:
        answer = asked("expect", screen.board, screen.up, str(row))
        press = answer[1] if answer[0] == "PRESS" else "pass"
        if wrong:
            press = "pass" if press != "pass" else next(k for k in screen.keys
                                                        if k.isdigit())
        said = client.type(press)
        row = int(answer[-1])
        if "Two passes: the module placed" in said:
            row = row % 9 + 1
        if client.screen.strikes > screen.strikes:
            assert wrong and "STRIKE!" in said
            row, wrong = start, False
        screen = client.screen
    assert f"The module is solved, with {screen.strikes} strike" in client.said
    return screen, start


def test_the_expert_reads_the_keypad_as_the_defuser_sees_it():
    # The board of the game: the key labelled 8, not the sixth key, is right.
    assert expert("expect", "X83/XO9/OX2", "X", "5") == ["PRESS", "8", "7"]
    assert expert("expect", "X 8 3 | X O 9 | O X 2", "X", "5") == ["PRESS", "8", "7"]
    # Dots on every free key: the front panel, labelled in reading order.
    assert expert("expect", "X../XO./OX.", "X", "5") == expert("expect", "X23/XO6/OX9",
                                                                   "X", "5")
    for board, error in (("X8./XO9/OX2", "mixes labels and dots"),
                         ("X88/XO9/OX2", "shows label 8 on two keys")):
        done = typed(["python", "-m", "firmware_ref.ktane", "expect", board, "X", "5"])
        assert (done.returncode, done.stdout) == (2, "")
        assert done.stderr == f"error: {board!r} {error}: " + done.stderr.split(": ", 2)[2]


def test_the_expert_command_lines_in_the_docs_print_what_they_show():
    shown = []
    for page in ("README.md", "docs/ktane.md"):
        text = " ".join((ROOT / page).read_text().split("\n"))   # README wraps lines
        shown += re.findall(r"`(python -m firmware_ref\.ktane [^`]*?)` prints `([^`]*)`", text)
    for line in (ROOT / "docs/ktane.md").read_text().splitlines():
        if line.startswith("python -m firmware_ref.ktane"):
            command, _, comment = line.partition("#")
            shown.append((command, comment.split(":")[0]))
    assert len(shown) == 4
    for command, output in shown:
        done = typed(command.split())
        assert (done.returncode, done.stderr) == (0, ""), command
        assert output.strip() in ("", done.stdout.strip()), command
    # The first module a user meets is the one the page walks through.
    page = (ROOT / "docs/ktane.md").read_text()
    drawn = page[page.index(" serial number ...4"):]
    drawn = drawn[:drawn.index("```")]
    assert drawn in make("play", "GAME=ktane", input="quit\n").stdout


@pytest.mark.parametrize("order", ["shuffled", "reading"])
def test_the_expert_defuses_every_starting_row_in_the_terminal(order):
    # The golden model's client: a module costs about a second, most of it the expert's
    # seven or so runs, so the many starting rows are played here and two modules in
    # the board in a box (below). The first module's edgework is drawn from the LFSR at
    # power-up, before any pause, so it is the same for every --seed (the seed draws
    # the pauses, which later draws see); the others are set with `new D P L U`.
    client = Client(["ttt", "play", "--game", "ktane", "--seed", "1"])
    screen, _ = defuse(client, wrong=True)
    assert screen.strikes == 1
    assert "python -m firmware_ref.ktane expect" in client.type("help")
    assert "labelled " in client.type(f"labels {order}")
    starts, shuffled = set(), False
    for edge in EDGEWORK:
        client.type("new " + " ".join(edge))
        screen = client.screen
        assert screen.edge == edge and screen.strikes == 0
        free = [(k, label) for k, label in enumerate(screen.keys) if label.isdigit()]
        shuffled |= any(label != str(k + 1) for k, label in free)
        screen, start = defuse(client)
        assert screen.strikes == 0
        starts.add(start)
    assert shuffled == (order == "shuffled") and starts == set(range(1, 10))
    client.quit()


def test_the_expert_defuses_a_module_in_the_board_in_a_box():
    # The same defuser through the board in a box, the desk that is flashed (of several
    # games, tests/desks.py, the bomb chosen): one module with shuffled labels and one in
    # reading order (every starting row is played on the golden model above, which the
    # core follows in lockstep).
    client = Client(["ttt", "play-board", "--game", ",".join(SEVERAL)])
    assert "no PORT given: playing the board in a box" in client.said
    client.type(f"game {SEVERAL.index('ktane')}")
    screen, _ = defuse(client, wrong=True)
    assert screen.strikes == 1
    client.type("labels reading")
    client.type("new 3 yes 0 0")
    screen = client.screen
    assert screen.edge == ("3", "yes", "0", "0")
    assert all(label == str(k + 1) for k, label in enumerate(screen.keys)
               if label.isdigit())
    screen, start = defuse(client)
    assert (screen.strikes, start) == (0, 3)
    client.quit()
