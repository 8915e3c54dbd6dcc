"""The boards the console is built for, a module each, as amaranth-boards has a module
a platform, and `BOARDS`, the one table by which everything finds a board.

A board's module (``icebreaker.py``) says all of its board in ``BOARD``, a `Target`:
its amaranth-boards platform with the resources the console adds, its clock, how the
desk is wired to its panel, buttons and LEDs, openFPGALoader's name for it, a summary
and its FPGA's capacity. Adding a board: its module here and its name in `BOARDS`
(docs/boards.md, "Adding a board").
"""

import importlib

from .board import Pins, Target


__all__ = ["BOARDS", "DEFAULT_BOARD", "UnknownBoard", "Target", "Pins", "load", "target"]


def load(name):
    """The `Target` of this folder's module `name`: how `BOARDS` finds each board."""
    return importlib.import_module(f"{__name__}.{name}").BOARD


# Every board, by the name --board and make's BOARD take.
BOARDS = {name: load(name) for name in (
    "icebreaker", "icestick", "hx8k_breakout", "upduino_v3",      # iCE40
    "ulx3s", "orangecrab",                                        # ECP5
    "tang_nano_9k", "tang_primer_20k")}                           # Gowin
DEFAULT_BOARD = "icebreaker"


class UnknownBoard(ValueError):
    def __init__(self, name):
        super().__init__(f"unknown board {name!r}; the known boards are: "
                         + ", ".join(BOARDS))


def target(name):
    try:
        return BOARDS[name]
    except KeyError:
        raise UnknownBoard(name) from None
