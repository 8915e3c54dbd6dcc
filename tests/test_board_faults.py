"""A page's board that fails (boards/web/board.py): a board in a box killed in the middle
of a move, and a real board unplugged and plugged back in (a stand-in: a board in a
box's pseudo-terminal under a port path that vanishes and comes back). The move that
meets it is answered with one line that says what happened; the next plays on. Once
each in make test; ten of each in make test-slow, which then finds every thread and
file of theirs gone."""

import os
import threading
import time

import pytest

from boards.box.box import Box
from boards.web.board import Board
from firmware_ref.cli import UserError
from firmware_ref.places import EMPTY

KEY = {"do": "key", "place": 4}
FAILURES = 10               # of each kind, in make test-slow
GONE_S = 10                 # a bound on the threads' ending, not a timing


@pytest.fixture(scope="module")
def built():
    """The compiled desk, built once before anything runs it."""
    Box().close()


class Killing:
    """The board's stream, whose desk is killed once a frame has gone to it: in the
    middle of the move it asks."""

    def __init__(self, stream, box):
        self.stream, self.box = stream, box

    def write(self, data):
        self.stream.write(data)
        self.box.close()

    def __getattr__(self, name):
        return getattr(self.stream, name)


def one_line(error):
    text = str(error.value)
    assert "\n" not in text and "Traceback" not in text
    return text


def killed_mid_move(board):
    """Kill `board`'s box in the middle of a move: one line says so, the next move plays
    on a new box."""
    free = board.act(KEY)["board"].index(EMPTY)
    board.link.stream = Killing(board.link.stream, board.stream)
    with pytest.raises(UserError) as error:
        board.act({"do": "key", "place": free})
    text = one_line(error)
    assert "board in a box stopped" in text and "begins anew" in text, text
    state = board.act(KEY)          # a new box, its game from an empty board
    assert state["board"][4] != EMPTY and sum(p != EMPTY for p in state["board"]) == 2
    assert any("new board in a box" in line for line in state["said"]), state["said"]


def unplugged_and_back(board, box, port):
    """Unplug the real board at `port` (`box` behind it) in the middle of a game: one
    line says so, and once it is plugged back the game plays on. The box plugged in."""
    free = board.act(KEY)["board"].index(EMPTY)
    box.close()                     # unplugged: the port goes, and its board
    os.remove(port)
    with pytest.raises(UserError) as error:
        board.act({"do": "key", "place": free})
    text = one_line(error)
    assert str(port) in text and "plug it back" in text, text
    with pytest.raises(UserError) as error:     # not back yet
        board.act(KEY)
    text = one_line(error)
    assert "not back" in text, text
    box = Box().__enter__()         # plugged back in
    os.symlink(box.port, port)
    state = board.act(KEY)
    assert state["board"][4] != EMPTY and sum(p != EMPTY for p in state["board"]) == 2
    assert any("back" in line for line in state["said"]), state["said"]
    return box


def test_a_box_killed_mid_move_is_said_and_the_next_move_plays_a_new_one(built):
    board = Board(("eth",))
    try:
        killed_mid_move(board)
    finally:
        board.close()


def test_a_real_board_unplugged_is_said_and_plays_on_once_plugged_back(built, tmp_path):
    port = tmp_path / "ttyUSB1"         # the board's port, as udev names it
    box = Box().__enter__()
    os.symlink(box.port, port)
    board = Board(("eth",), str(port))
    try:
        box = unplugged_and_back(board, box, port)
    finally:
        board.close()
        box.close()


def held():
    """This process's threads and open files."""
    return threading.active_count(), len(os.listdir("/proc/self/fd"))


@pytest.mark.slow
def test_boards_that_fail_again_and_again_play_on_and_leave_nothing_behind(built, tmp_path):
    # Ten boxes killed and ten unplugs, one board each: each said in one line and
    # played on; then every thread and file of theirs is gone.
    before = held()
    board = Board(("eth",))
    try:
        for _ in range(FAILURES):
            killed_mid_move(board)
    finally:
        board.close()
    port = tmp_path / "ttyUSB1"
    box = Box().__enter__()
    os.symlink(box.port, port)
    board = Board(("eth",), str(port))
    try:
        for _ in range(FAILURES):
            box = unplugged_and_back(board, box, port)
    finally:
        board.close()
        box.close()
    began = time.monotonic()
    while held() != before and time.monotonic() - began < GONE_S:
        time.sleep(0.1)
    assert held() == before
