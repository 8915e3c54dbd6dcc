"""Which host client plays which game: the one table that `ttt play`, `ttt play-board`
(boards/host/console.py) and `ttt play -h` read.

A game with a client of its own has a row in `OWN`: the client's module in boards/host/
and what `ttt play -h` says it plays. Every other game is a person and a machine on one
board of nine places, which `DEFAULT` (boards/host/terminal.py) plays. Each client
module offers ``play_board(link, read, write)``, a board (or the board in a box) over
its link, and ``play_golden(read, write, *, game, seed, clock)``, the game's golden
model in the terminal (`make play`). A client imports link.py, prompt.py and
protocol.py, never this table nor another client.
"""

import importlib
from typing import NamedTuple

__all__ = ["Own", "OWN", "DEFAULT", "client", "described"]


class Own(NamedTuple):
    module: str             # in boards/host/
    plays: str              # for `ttt play -h`: what a person plays with it


OWN = {
    "ktane": Own("bomb", "defuse the bomb module Tic-Tac-Toe of Keep Talking and Nobody "
                         "Explodes"),
    "tactic": Own("tactic", "David Dickerson's Tactic-Toe against the planner or for two "
                            "people"),
    "ultimate": Own("ultimate", "Ultimate Tic-Tac-Toe against the engine or for two "
                                "people"),
}
DEFAULT = Own("terminal", "its machine on the board of nine places, as make play-board "
                          "plays it")


def client(game):
    """The module of boards/host/ that plays `game` (a folder of hdl/). Imported when
    asked for: a client loads its game's golden model, which only its game needs."""
    return importlib.import_module(f"{__package__}.{OWN.get(game, DEFAULT).module}")


def described():
    """``ktane: defuse ...; ...; any other: ...``: each client's game, for a help."""
    return "; ".join([*(f"{game}: {own.plays}" for game, own in OWN.items()),
                      f"any other: {DEFAULT.plays}"])
