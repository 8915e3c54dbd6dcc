"""The vocabulary of places and marks (firmware_ref/places.py): places in reading order
named as make play names them, what a place holds and how each is printed, and the cores'
own copies of the same board (hdl may not import it)."""

from firmware_ref.cartridge import board_bits, board_places
from firmware_ref.places import (BOTH, BY_MARK, BY_NAME, COMPUTER, EMPTY, GREEN, HUMAN,
                                 MARKS, NAMES, PLACES, RED, STONES, coordinate, grid, rows)


def test_places_are_in_reading_order_named_by_column_and_row():
    assert PLACES == len(NAMES) == 9
    assert NAMES[:4] == ("A1", "B1", "C1", "A2") and NAMES[-1] == "C3"
    assert [coordinate(k) for k in (0, 4, 5, 6)] == ["A1", "B2", "C2", "A3"]
    assert all(BY_NAME[coordinate(k)] == k for k in range(PLACES))
    assert rows(list(range(PLACES))) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_a_place_is_two_bits_the_machines_the_low_one():
    assert (EMPTY, COMPUTER, HUMAN, BOTH) == (0, 1, 2, 3) and BOTH == COMPUTER | HUMAN
    assert (RED, GREEN) == (COMPUTER, HUMAN) and STONES == (EMPTY, COMPUTER, HUMAN)
    # At the cartridge's pins place k is bits 2k (red) and 2k + 1 (green).
    assert board_bits([EMPTY, RED, GREEN, BOTH] + [EMPTY] * 5) == 0b11_10_01_00
    assert board_places(0b11_10_01_00) == [EMPTY, RED, GREEN, BOTH] + [EMPTY] * 5


def test_every_mark_is_printed_one_way_and_read_back():
    assert MARKS == {EMPTY: ".", COMPUTER: "O", HUMAN: "X", BOTH: "*"}
    assert all(BY_MARK[MARKS[held]] == held for held in MARKS)


def test_the_grid_is_make_plays_board():
    board = [HUMAN, EMPTY, COMPUTER, EMPTY, BOTH, EMPTY, EMPTY, EMPTY, 7]
    assert grid(board, ["beside 1", "beside 2"]).splitlines() == [
        "     A   B   C",
        "   +---+---+---+",
        " 1 | X |   | O |    beside 1",
        "   +---+---+---+",
        " 2 |   | * |   |    beside 2",
        "   +---+---+---+",
        " 3 |   |   | ? |",
        "   +---+---+---+"]


def test_the_cores_board_is_this_board():
    from hdl.cartridge import BOARD
    from hdl.eth.board import PLACES as CORE_PLACES
    assert CORE_PLACES == PLACES and BOARD.length == PLACES and BOARD.size == 2 * PLACES
