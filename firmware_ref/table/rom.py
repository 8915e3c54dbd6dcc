"""The table the core is built from: every board's move by the board's ternary number,
counted among its empty places (rules: hdl/table/cartridge.py's text)."""

from ..places import EMPTY
from .choice import choose

__all__ = ["BOARDS", "board", "entry", "parameters"]

BOARDS = 3 ** 9


def board(number):
    """The places of the board numbered `number`: digit k (base 3) is place k."""
    return [number // 3 ** k % 3 for k in range(9)]


def entry(places):
    """`choose`'s move on `places` as the table holds it: how many empty places come
    before it (0 on a full board)."""
    move = choose(places)
    return 0 if move is None else sum(place == EMPTY for place in places[:move])


def parameters():
    """The core's keyword arguments: ``moves``, the entry of every board by number."""
    moves = tuple(entry(board(n)) for n in range(BOARDS))
    if max(moves) >= 8:
        raise ValueError("the move of the empty board is not among its first eight places")
    return {"moves": moves}
