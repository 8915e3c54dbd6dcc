"""A page's board that fails (boards/web/board.py): a board in a box killed in the middle
of a move, and a real board unplugged and plugged back in (a stand-in: a board in a
box's pseudo-terminal under a port path that vanishes and comes back). The move that
meets it is answered with one line that says what happened; the next plays on."""

import os

import pytest

from boards.box.box import Box
from boards.web.board import Board
from firmware_ref.cli import UserError
from firmware_ref.places import EMPTY

KEY = {"do": "key", "place": 4}


@pytest.fixture(scope="module")
def built():
    """The compiled desk, built once before anything runs it."""
    Box().close()


class Killing:
    """The board's stream, whose box is killed once a frame has gone to it: in the
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


def test_a_box_killed_mid_move_is_said_and_the_next_move_plays_a_new_one(built):
    board = Board(("eth",))
    try:
        free = board.act(KEY)["board"].index(EMPTY)
        board.link.stream = Killing(board.link.stream, board.box)
        with pytest.raises(UserError) as error:
            board.act({"do": "key", "place": free})
        text = one_line(error)
        assert "board in a box stopped" in text and "begins anew" in text, text
        state = board.act(KEY)          # a new box, its game from an empty board
        assert state["board"][4] != EMPTY and sum(p != EMPTY for p in state["board"]) == 2
        assert any("new board in a box" in line for line in state["said"]), state["said"]
    finally:
        board.close()


def test_a_real_board_unplugged_is_said_and_plays_on_once_plugged_back(built, tmp_path):
    port = tmp_path / "ttyUSB1"         # the board's port, as udev names it
    box = Box().__enter__()
    os.symlink(box.port, port)
    board = Board(("eth",), str(port))
    try:
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
    finally:
        board.close()
        box.close()
