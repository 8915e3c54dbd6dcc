"""The terminal client's board of nine places (boards/host/terminal.py): a position no
game reaches is refused with its reason."""

import pytest

from boards.host.terminal import check_position
from firmware_ref.places import COMPUTER, EMPTY, HUMAN


def test_positions_no_game_reaches_are_refused_by_the_terminal():
    with pytest.raises(ValueError, match="already won"):
        check_position([HUMAN] * 3 + [COMPUTER] * 2 + [EMPTY] * 4)
    with pytest.raises(ValueError, match="no game gets there"):
        check_position([HUMAN] * 2 + [EMPTY] * 7)
    assert check_position([HUMAN, COMPUTER] + [EMPTY] * 7)
