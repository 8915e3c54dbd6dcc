"""Which host client plays which game: each game's face in the catalogue
(sim.catalogue) names its client, a module of boards/host/, which `ttt play`, `ttt
play-board` (boards/host/console.py) and `ttt play -h` reach through here.

Each client module offers ``play_board(link, read, write)``, a board (or the board in
a box) over its link, and ``play_golden(read, write, *, game, seed, clock)``, the
game's golden model in the terminal (`make play`). A client imports link.py, prompt.py
and protocol.py, never this module nor another client.
"""

import importlib

from sim import catalogue

__all__ = ["client", "described"]


def client(game):
    """The module of boards/host/ that plays `game` (a name or a catalogue entry).
    Imported when asked for: a client loads its game's golden model, which only its
    game needs."""
    return importlib.import_module(f"{__package__}.{catalogue.game(game).face.client}")


def described():
    """``ktane: defuse ...; ...; any other: ...``: each face's games, for a help."""
    own = [f"{entry.name}: {entry.face.plays}" for entry in catalogue.games()
           if entry.face is not catalogue.NINE]
    return "; ".join([*own, f"any other: {catalogue.NINE.plays}"])
