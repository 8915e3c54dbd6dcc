"""Which terminal client plays which game: the one table `ttt play` and `ttt play-board`
both read.

The bomb module, Tactic-Toe and Ultimate Tic-Tac-Toe have clients of their own; every
other game is a person and a machine on one board of nine places, which
boards/host/terminal.py plays. Each client module offers ``play_board(link, read,
write)``, a board (or the board in a box) over its link, and ``play_golden(read, write,
*, game, seed, clock)``, the game's golden model in the terminal (`make play`).
"""

import importlib

__all__ = ["OWN", "client"]

OWN = {"ktane": "bomb", "tactic": "tactic", "ultimate": "ultimate"}   # game: its module


def client(game):
    """The module of boards/host/ that plays `game` (a folder of hdl/)."""
    return importlib.import_module(f"{__package__}.{OWN.get(game, 'terminal')}")
