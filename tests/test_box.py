"""The board in a box (boards/box/box.py): the desk compiled at the board's timings, its
link at the box's own rate, behind a pseudo-terminal, played by the real terminal client
over the real serial protocol, and checked against the golden model; and a page's board
in a box, a desk for each game (boards/web/board.py)."""

import errno
import os
import re
import signal
import select
import subprocess
import sys
import threading
import time

import pytest

from boards.host import link as serial_link, protocol
from boards.box import box
from boards.box.box import Box
from boards.commands.play_board import play_box
from boards.host.console import play
from boards.host.link import Link, open_port
from firmware_ref import cli
from firmware_ref.cartridge import board_bits, board_places
from firmware_ref.eth.alg import wins
from firmware_ref.eth.cycle import CycleModel, State
from firmware_ref.eth.pins import press, start
from firmware_ref.places import COMPUTER, EMPTY, HUMAN, coordinate
from sim import catalogue
from desks import GAMES as SEVERAL
from user import (EXIT_S, READY_S, ROOT, SETTLE_S, as_from_a_shell, said, typed as user_typed,
                  watched)

# The user's preference: the first free place in this order.
ORDER = [4, 0, 8, 2, 6, 1, 3, 5, 7]


@pytest.fixture(scope="module")
def built():
    """The compiled desk, built once before anything runs it (a child process too)."""
    Box().close()


def first_free(board):
    return next(k for k in ORDER if board[k] == EMPTY)


def test_games_through_the_box_agree_with_the_golden_model(built, monkeypatch):
    # Runs shorter than a byte and than the chip's thought: the box must keep the clock
    # going while an answer is owed, whatever falls between two runs.
    monkeypatch.setattr(box, "CHUNK", 500)
    position = [EMPTY, EMPTY, HUMAN, EMPTY, COMPUTER, EMPTY, EMPTY, EMPTY, EMPTY]
    with Box() as board, open_port(board.port, board.TIMEOUT) as port:
        link = Link(port)
        assert link.command(protocol.switch(0, True)).switches[0]
        for entered in (None, position):
            model = CycleModel()
            start(model, userbegins=True, position=entered)
            status = link.command(protocol.reset(entered))
            assert status.board == board_places(model.board) and status.lamps[0]
            moves = 0
            while model.state is not State.FINISHED:
                place = first_free(board_places(model.board))
                thought = press(model, place)
                status = link.command(protocol.key(place))
                moves += 1
                assert status.board == board_places(model.board), f"after key {place}"
                assert status.cycles == len(thought), f"think time after key {place}"
                finished = model.state is State.FINISHED
                assert status.lamps[:2] == (not finished, finished)
                assert status.lamps[2] == (finished and wins(board_places(model.board), COMPUTER))
            assert moves >= 3
        assert board.desk.broken == 0


def test_the_client_plays_the_box_and_offers_a_new_game(built):
    # A player who tries the places in ORDER, and something that is not a command.
    said, answers = [], iter(["y", "n"])
    typed = iter([coordinate(ORDER[0]), "xyzzy", *(coordinate(k) for k in ORDER[1:])])

    def read(prompt):
        if prompt.startswith("Do you want"):
            said.append(prompt)
            return next(answers)
        return "quit" if "Do you want to play first? (Y/N) " in said else next(typed)

    # The same player against the golden model: where each key lands, and the end.
    model = CycleModel()
    start(model, userbegins=True)
    replies = []
    while model.state is not State.FINISHED:
        before = board_places(model.board)
        place = first_free(before)
        cycles = len(press(model, place))
        reply = [k for k in range(9) if board_places(model.board)[k] != before[k] and k != place]
        replies += [f"The chip plays {coordinate(k)}; its move took {cycles} clock cycles."
                    for k in reply]

    assert play_box(read=read, write=said.append) == 0
    text = "\n".join(said)
    assert said[0].startswith("no PORT given: playing the board in a box (simulated desk "
                              "+ the chip, /dev/")
    assert "X  yours (green on the front panel)" in text and "O  the chip's (red)" in text
    assert [s for s in said if s.startswith("The chip plays")] == replies
    assert "'xyzzy' is neither a place nor a command." in said
    assert any(s.endswith("is taken.") for s in said)   # ORDER meets the chip's stones
    final = board_places(model.board)
    assert ("The chip won." if wins(final, COMPUTER) else "A draw.") in said
    assert said.count("Do you want to play again? (Y/N) ") == 1
    assert said.count("Do you want to play first? (Y/N) ") == 1
    assert sum("opens at" in s for s in said) == 1      # the chip began the new game
    assert box.THREAD not in [t.name for t in threading.enumerate()]   # gone


def test_the_terminal_says_whose_stone_is_which_and_when_a_place_is_taken():
    class Board:                        # a board of one game, the user's stone on B2
        def write(self, data):
            self.frames = getattr(self, "frames", []) + [data]

        def readline(self):
            if self.frames[-1] == protocol.game(1):
                return b"error\r\n"
            return b"...|.X.|... gE l1000 s1000 c0000\r\n"
    board, said, typed = Board(), [], iter(["B2", "quit"])
    assert play(board, read=lambda prompt: next(typed), write=said.append) == 0
    assert board.frames[-1] == protocol.STATUS          # nothing sent for a taken place
    assert "B2 is taken." in said
    assert " 2 |   | X |   |    O  the chip's (red)" in said[1].splitlines()


def _child(*arguments, **options):
    """`ttt play-board` as the script runs it."""
    return subprocess.Popen([sys.executable, "-u", "-m", "boards", "play-board", *arguments],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=as_from_a_shell, **options)


def test_eof_quit_and_ctrl_c_end_the_box_cleanly(built):
    model = CycleModel()
    start(model, userbegins=True)
    cycles = len(press(model, 4))
    reply = coordinate(next(k for k in range(9) if board_places(model.board)[k] == COMPUTER))

    for typed in (b"b2\nquit\n", b"b2\n"):              # quit, and the end of the input
        out, err = _child().communicate(typed, timeout=EXIT_S)
        assert err == b""
        assert f"The chip plays {reply}; its move took {cycles} clock cycles.".encode() in out

    child = _child()
    seen = b""
    while not seen.endswith(b"> "):                     # the client waits for a move
        assert select.select([child.stdout], [], [], READY_S)[0], f"no prompt: {seen!r}"
        chunk = os.read(child.stdout.fileno(), 4096)
        assert chunk, f"the client ended: {seen!r}"
        seen += chunk
    time.sleep(SETTLE_S)                                # as a person's Ctrl-C would come
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=EXIT_S)
    assert (child.returncode, err) == (cli.INTERRUPTED, b"\ninterrupted\n")


def test_a_bad_port_is_one_line(capsys, monkeypatch):
    from boards.ttt import main
    assert main(["play-board", "--port", "/dev/ttyTTT9"]) == cli.USAGE
    err = capsys.readouterr().err
    assert err.startswith("error: cannot open the serial port /dev/ttyTTT9: No such file")
    assert err.count("\n") == 1

    # A port with something that is not the board on it: silent, or talking nonsense.
    monkeypatch.setattr(serial_link, "TIMEOUT", 0.2)
    for answer, error in ((None, "error: no answer to b'S\\r' (got b''): is the board "
                                 "programmed, and is this its serial port?\n"),
                          (b"AT OK\r\n", "error: not a status line: 'AT OK'\n")):
        master, slave = os.openpty()
        try:
            # It answers, if at all, once the client has asked.
            other = threading.Thread(target=lambda: os.read(master, 64) and answer
                                     and os.write(master, answer))
            other.start()
            assert main(["play-board", "--port", os.ttyname(slave)]) == cli.USAGE
            other.join()
            assert capsys.readouterr().err == error
        finally:
            os.close(master)
            os.close(slave)


def test_a_missing_compiler_is_one_line(capsys, monkeypatch):
    from boards.ttt import main
    monkeypatch.setenv("CXX", "no-such-c++")
    assert main(["play-board"]) == cli.USAGE
    assert capsys.readouterr().err == ("error: the board in a box cannot be compiled: no C++ "
                                       "compiler: 'no-such-c++' is not on the PATH (install "
                                       "g++ or clang++, or set $CXX)\n")


def test_a_box_that_stops_says_why(built, capsys, monkeypatch):
    from boards.ttt import main

    def broken(self, cycles):
        raise OSError(errno.EBADF, "the desk went away")
    monkeypatch.setattr(box.Box, "TIMEOUT", 0.2)
    monkeypatch.setattr(box.CompiledDesk, "run", broken)
    assert main(["play-board"]) == cli.USAGE
    assert capsys.readouterr().err == ("error: the board in a box stopped: [Errno 9] the desk "
                                       "went away\n")


def test_a_second_cartridge_plays_in_the_box_with_no_change_to_the_console():
    # First free (hdl/firstfree): the desk, link and client are the ETH chip's; the game
    # is checked against its own golden model, and its text line comes through.
    from firmware_ref.firstfree import Model
    said, typed = [], iter(["a1", "b1", "a2", "a3", "quit"])
    with Box(("firstfree",)) as board, open_port(board.port, board.TIMEOUT) as port:
        assert play(port, read=lambda prompt: next(typed),
                    write=said.append) == 0
    # The golden model, played the same way: the person on A1, A2, A3 (places 0, 3, 6).
    model = Model()
    for pins in ({"start": 1}, {"start": 0}):
        model.set(**pins)
        model.tick()
    replies = []
    for place in (0, 3, 6):
        model.set(key=1 << place)
        model.tick()
        model.set(key=0)
        while model.state not in ("WAIT", "OVER"):
            model.tick()
        if model.state == "WAIT":
            replies.append(model.said)
    assert model.state == "OVER" and replies == [1, 2]
    text = "\n".join(said)
    for k in replies:
        assert f"The machine plays {coordinate(k)};" in text
    assert "says" not in text       # its own line named the move it played: shown once
    assert "B1 is taken." in text and "You won." in text


def after_each(lines, moves):
    """The line printed after each of `moves` was typed (echoed behind the prompt)."""
    return [lines[lines.index(f"> {move}") + 1] for move in moves]


def test_a_game_of_turns_says_its_move_once_and_in_its_coordinates():
    # The machine's line names its move as the person names places, and the client shows
    # it with the answer that shows the stone, once: not a move late, not as a number.
    # First free takes the first empty place, looking at one a clock, and the console
    # counts two clocks of judging besides (docs/cartridge.md).
    moves = ["b2", "a2", "c3"]
    done = user_typed(["python", "-m", "boards", "play-board", "--game", "firstfree"],
                      input="\n".join(moves) + "\nquit\n", timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert after_each(lines, moves) == [
        "The machine plays A1; its move took 3 clock cycles.",
        "The machine plays B1; its move took 4 clock cycles.",
        "The machine plays C1; its move took 5 clock cycles."]
    assert not [line for line in lines if re.search(r"says: \d", line)]
    assert "The machine won." in lines


@pytest.fixture(scope="module")
def several_games():
    """The desk of several games (tests/desks.py), compiled once for this module."""
    Box(SEVERAL).close()


def test_a_board_of_several_games_lists_them_and_plays_the_one_chosen(several_games):
    # python -m boards play-board --game eth,firstfree,ktane: the client asks the board
    # for its games, lists them, plays the second with its moves said, and refuses a
    # fourth.
    eth, firstfree, bomb = (catalogue.game(name).title for name in SEVERAL)
    done = user_typed(["python", "-m", "boards", "play-board", "--game", ",".join(SEVERAL)],
                      input="game\ngame 1\nb2\ngame 3\nhelp\nquit\n", timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    listed = lines.index("> game") + 1
    assert lines[listed:listed + 4] == ["This board's games (game N plays one):",
                                        f"  0  {eth}  <- playing", f"  1  {firstfree}",
                                        f"  2  {bomb}"]
    assert after_each(lines, ["game 1", "b2", "game 3", "help"]) == [
        f"Now game 1: {firstfree}.",
        "The machine plays A1; its move took 3 clock cycles.",
        "There is no game 3 on this board: its games are 0 to 2 (game lists them).",
        f"game: this board's games;  game N: play game N (now game 1: {firstfree})"]
    assert lines[lines.index("> game 3") + 2] == "> help"     # one line, and on it goes
    assert f"game 1: {firstfree}; your move; next game: you begin" in lines


def test_the_box_games_agree_with_the_golden_model_at_the_cartridge_pins():
    # The games of test_games_through_the_box_agree_with_the_golden_model, played at the
    # ETH cartridge's pins in lockstep with its golden model (firmware_ref/eth/cartridge.py);
    # the busy clocks after each key, which the console counts, are the chip's think time.
    from firmware_ref.eth import cartridge
    from sim.cartridges.lockstep import lockstep
    position = [EMPTY, EMPTY, HUMAN, EMPTY, COMPUTER, EMPTY, EMPTY, EMPTY, EMPTY]

    def keys(board):
        return [first_free(board_places(board))]

    games = [game for entered in (None, position) for game in
             cartridge.played(board=board_bits(entered or [EMPTY] * 9), keys=keys)]
    assert lockstep("eth", games, backend="compiled") == \
        (2, sum(map(len, games)))
    for entered, game in zip((None, position), games):
        model = CycleModel()
        start(model, userbegins=True, position=entered)
        thoughts = []
        while model.state is not State.FINISHED:
            thoughts.append(len(press(model, first_free(board_places(model.board)))))
        golden, busy = cartridge.Model(), []
        for pins in game:
            golden.set(pins)
            golden.tick()
            if pins.key:
                busy.append(0)
            elif busy:
                busy[-1] += golden.probe.busy
        assert busy == thoughts and len(busy) >= 3


def test_make_play_board_says_about_how_long_its_first_build_takes_before_it():
    # The Ultimate box, the slowest to build: its line arrives while the C++ compiler
    # runs (then Ctrl-C), with the figure measured for it.
    with watched(["make", "play-board", "GAME=ultimate"]) as running:
        first = next(said(running))
        if first.startswith("no PORT given"):
            pytest.skip("build/compiled/ holds the Ultimate box already: nothing to wait for")
        assert running.poll() is None               # still compiling
    assert first.startswith("compiling the desk with ultimate with CXXRTL into build/compiled/")
    assert first.endswith(f" (once, about {catalogue.game('ultimate').build_s} s)")


def test_the_box_links_at_its_own_rate_and_the_boards_keep_115200_baud():
    # The same desk gateware; only its divisor differs: 4 clocks a bit in the box, the
    # UART's shortest, where a board's 115,200 baud take 104.
    from boards.gateware.rates import BAUD, BOX_BAUD, CLOCK_HZ
    from boards.gateware.top import desk_for
    assert box.BoxTop((catalogue.CHIP.name,)).desk.bit_cycles == 4
    assert round(CLOCK_HZ / BOX_BAUD) == 4 and BAUD == 115_200
    assert desk_for([catalogue.CHIP.cartridge()], CLOCK_HZ).bit_cycles == 104


def test_a_run_of_the_box_ends_with_the_line_it_brought(built):
    # Two frames owe two lines: a run stops at the first line's end rather than clock
    # on to its last cycle, so that a reader has its answer as soon as it is whole.
    from boards.box.stream import DeskStream
    stream = DeskStream(box.CompiledDesk())    # the power-up lines read and dropped
    try:
        stream.write(protocol.STATUS + protocol.STATUS)
        first = stream.desk.run(box.CLOCK_HZ)
        assert first.endswith(b"\n") and first.count(b"\n") == 1, first
        second = stream.desk.run(box.CLOCK_HZ)
        assert second.endswith(b"\n") and second.count(b"\n") == 1, second
    finally:
        stream.close()
    with pytest.raises(OSError, match="closed"):    # said as a port's, never a crash
        stream.desk.run(1)


def test_a_pages_board_in_a_box_is_a_desk_for_each_game():
    # boards/web/board.py's default: the desk of the game chosen, holding it alone, so
    # that no other cartridge is clocked while it plays.
    from boards.web.board import Board
    board = Board(("eth", "firstfree"))
    try:
        assert board.stream.desk.games == ("eth",)
        assert board.play(1)["name"] == "firstfree"
        assert board.stream.desk.games == ("firstfree",)
        state = board.act({"kind": "act", "do": "key", "place": 4})
        assert state["board"][0], state            # first free answers A1
    finally:
        board.close()
