"""The Ultimate Tic-Tac-Toe terminal client (boards/host/ultimate.py): the session on
the golden engine (a scripted game, refusals with their reasons, two people, loading);
and through the host link, `BoardGame` on the board in a box: the engine's opening, a game
against the engine through the board in a box, every `P` line checked against the golden
position, and a board that disagrees with it caught."""

import random
import subprocess
import sys

import pytest

from firmware_ref.cli import UserError
from firmware_ref.ultimate import engine
from firmware_ref.ultimate.rules import Position, parse, show

from boards.host import protocol
from boards.host import ultimate as client
from boards.host import console
from boards.host.link import Link

# random.Random(7)'s first random game nine plies before its end, X to move: playing the first
# legal cell each time, X loses to the engine's fourth answer.
ENDGAME = ("OX..O.X.OXO.XXOXXO....OOX..OOX...X..XOO.XXOX.XOO....X.OO.OXX.O.OX.OO...O.XXX...X.",
           "38")


def scripted(typed):
    """A terminal that types `typed`, then quit; and what it was told."""
    said, lines = [], iter(typed)
    return (lambda prompt: next(lines, "quit")), said.append, said


def against_the_engine(start, pick=lambda p: p.legal()[0]):
    """The person's moves (`pick`) and the golden engine's replies from `start`, X (the
    person) to move, to the game's end."""
    position, moves, replies = start, [], []
    while position.winner() == "open":
        moves.append(pick(position))
        position = position.play(moves[-1])
        if position.winner() == "open":
            replies.append(engine.move(position))
            position = position.play(replies[-1][0])
    return moves, replies, position


def engine_lines(replies):
    return [f"The engine plays {cell} (board {cell // 9 + 1}, cell {cell % 9 + 1}); its "
            f"value {value}, {nodes} nodes searched." for cell, value, nodes in replies]


def cells(xs=(), os=()):
    """81 cells: X's on `xs`, O's on `os`."""
    return "".join("X" if i in xs else "O" if i in os else "." for i in range(81))


def test_a_scripted_game_against_the_golden_engine():
    # From 20 random plies in (the engine's first moves, with every board open, are its
    # longest searches), X playing the last legal cell each time.
    rng, start = random.Random(3), Position()
    for _ in range(20):
        start = start.play(rng.choice(start.legal()))
    moves, replies, end = against_the_engine(start, lambda p: p.legal()[-1])
    read, write, said = scripted([f"load {show(start)} {start.last}"]
                                 + [str(m) for m in moves])
    assert client.Session(client.EngineGame(), read, write).run() == 0
    assert [line for line in said if line.startswith("The engine")] == engine_lines(replies)
    assert said[-2:] == [client.board(end, {"X": "X (you)", "O": "O (the engine)"}),
                         "O wins: the engine won."]


def test_moves_and_positions_are_refused_with_their_reasons():
    decided = cells(xs=(36, 40, 44), os=(9, 10, 20))       # X won board 5; O sent to 3
    over = cells(xs=(0, 1, 2, 9, 10, 11, 18, 19, 20),       # X won boards 1-3
                 os=(27, 28, 30, 36, 37, 39, 45, 46, 48))
    # X 40, O (the engine) 36: X is sent to board 1.
    read, write, said = scripted([
        "40", "36", "9", "81", "5 0", "1 1 1", "x1", "help",
        "load " + cells(xs=(0, 1, 2)), "load " + cells(xs=(0,)) + " 5", "load XO 3",
        "people", f"load {decided} 20", "37", "5 2", f"load {over} 48", "50"])
    client.Session(client.EngineGame(), read, write).run()
    refused = [line for line in said if "won't do" in line or "neither" in line]
    assert refused == [
        "That move won't do: cell 36 is taken.",
        "That move won't do: not legal: sent to board 1.",
        "That move won't do: there is no cell 81: the cells are 0-80.",
        "That move won't do: a small board and its cell are 1-9 each, e.g. 5 5.",
        "'1 1 1' is neither a move nor a command (help lists them).",
        "'x1' is neither a move nor a command (help lists them).",
        "That position won't do: 3 Xs and 0 Os: X moves first, so no game gets there.",
        "That position won't do: the last move, cell 5, must hold the last mover's X.",
        "That position won't do: a position is 81 of X, O and . (got 2 characters).",
        "That move won't do: small board 5 is decided (won by X).",
        "That move won't do: small board 5 is decided (won by X).",
        "That move won't do: the game is over (new, people or load begins another)."]
    assert client.HELP in said and "X wins." in said


def test_two_people_play_to_a_result_and_a_load_hands_the_engine_its_turn():
    start = parse(*ENDGAME)
    moves, position = [], start
    while position.winner() == "open":          # both play their first legal cell
        moves.append(position.legal()[0])
        position = position.play(moves[-1])
    read, write, said = scripted(["people", "load " + " ".join(ENDGAME)]
                                 + [str(m) for m in moves])
    game = client.EngineGame()
    client.Session(game, read, write).run()
    assert show(game.position) == show(position) and not game.machine
    assert said[-1] == {"X": "X wins.", "O": "O wins."}.get(
        position.winner(), "A draw: no move is left and nobody has three big places in a "
        "row.")
    # Against the engine, a position with the engine to move gets its move at once; and
    # who begins is asked.
    after = start.play(start.legal()[0])
    read, write, said = scripted([f"load {show(after)} {after.last}", "new", "maybe", "n"])
    client.Session(client.EngineGame(), read, write).run()
    assert engine_lines([engine.move(after), engine.move(Position())]) == [
        line for line in said if line.startswith("The engine")]
    assert "Please answer Y or N." in said


def test_the_command_line_plays_the_golden_engine():
    done = subprocess.run([sys.executable, "-m", "boards", "play", "--game", "ultimate"],
                          input=b"40\n", capture_output=True, timeout=60)
    assert done.returncode == 0 and done.stderr == b""
    assert "The engine plays 36 (board 5, cell 1)" in done.stdout.decode()


@pytest.fixture
def box_link():
    """A Link to the board in a box playing the ultimate cartridge."""
    from boards.host.link import open_box
    from boards.box.box import Box
    with Box(("ultimate",)) as box, open_box(box) as port:
        yield Link(port)


@pytest.mark.slow       # the Ultimate desk's first compile is half a minute: make test-slow
def test_a_game_against_the_engine_through_the_board_in_a_box(box_link):
    moves, replies, end = against_the_engine(parse(*ENDGAME))
    read, write, said = scripted(["load " + " ".join(ENDGAME)] + [str(m) for m in moves])
    # The terminal hands the cartridge's letter to this client, whose BoardGame checks
    # every P line against the golden position.
    assert console.Console(box_link, read, write).run() == 0
    assert [line for line in said if line.startswith("The engine")] == engine_lines(replies)
    assert len(replies) == 4 and "O wins: the engine won." in said


@pytest.mark.slow       # the Ultimate desk's first compile is half a minute: make test-slow
def test_the_engine_opens_in_the_box_and_a_board_that_disagrees_is_caught(box_link):
    game = client.BoardGame(box_link)
    reply = game.new(True, person_begins=False)
    assert reply == engine.move(Position())
    assert game.position.xs == 1 << reply.cell and game.golden.last == reply.cell
    game.new(False)
    game.golden = game.golden.play(0).play(1)       # tampered: two moves the board lacks
    with pytest.raises(protocol.ProtocolError,
                       match=r"the board says 'P\.{40}X\.{40} 40', the rules "
                             r"'PXO\.{38}X\.{40} 40'"):
        game.play(40)


class Talkative:
    """A port that answers every frame with something other than a status line."""

    def write(self, frame):
        pass

    def readline(self):
        return b"hello\r\n"


def test_a_link_that_fails_is_one_line():
    read, write, said = scripted([])
    with pytest.raises(UserError, match="^not a status line: 'hello'$"):
        client.play_board(Link(Talkative()), read, write)


