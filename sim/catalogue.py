"""The catalogue of games: one entry per game the console plays, and the one place that
answers "which games are there, and what is this one".

A game is two folders of one name, its core in ``hdl/<name>/`` (``cartridge.py``'s
``CARTRIDGE``, which names itself for the console: ``code``, ``title``, ``machine``) and
its golden model in ``firmware_ref/<name>/`` (``Model``, ``Inputs``, ``Probe`` and
``games()``, docs/cartridge.md), and one `Game` entry in `GAMES`. The entry says how
the console shows it (its `Face`: the host's client and the page's view) and, for the
1990 chip, the nodes inside the chip that its benches compare beside the pins.

Entries name their modules as text, as Python's entry points do, and load them when
asked: listing the games imports no core, and this module, in the layer of the
benches, can name the console's modules above it without importing them.

Adding a game: its two folders, then one line in `GAMES` (docs/cartridge.md walks
through it).
"""

import dataclasses
import importlib

from firmware_ref.cli import UserError
from sim import CLOCK_HZ

__all__ = ["Face", "NINE", "BOMB", "TACTIC", "ULTIMATE", "Game", "GAMES",
           "CHIP", "UnknownGame", "names", "game", "games", "with_golden"]


@dataclasses.dataclass(frozen=True)
class Face:
    """How the console shows a kind of game: the host's client that plays it in a
    terminal (``boards/host/<client>.py``) and the page's view (``boards/web/views/
    <view>.py``, drawn by ``boards/web/static/<view>.js``); `plays`: what a person plays
    with it, as ``ttt play -h`` says it."""
    client: str
    view: str
    plays: str


NINE = Face("terminal", "nine",
            "a person and the machine on the board of nine places, as make play-board "
            "plays it")
BOMB = Face("bomb", "bomb",
            "defuse the bomb module Tic-Tac-Toe of Keep Talking and Nobody Explodes")
TACTIC = Face("tactic", "tactic",
              "David Dickerson's Tactic-Toe against the planner or for two people")
ULTIMATE = Face("ultimate", "ultimate",
                "Ultimate Tic-Tac-Toe against the engine or for two people")


# About how long a game's first compiled (CXXRTL) build takes, said before it begins:
# Yosys, then the C++ compiler at -O2, measured on the project's 2-core machine
# (2026-11-27, load about 2) as the board in a box with that game alone: Ultimate's
# engine 27 s, the cigarette box 16 s, the 1990 chip and most games about 5 s.
BUILD_S = 5


class UnknownGame(UserError, ValueError):
    """A name that is no game of the catalogue; the one line lists the games."""


@dataclasses.dataclass(frozen=True)
class Game:
    """One game of the catalogue. `name` is its folder in ``hdl/`` and ``firmware_ref/``
    and the name every command takes (``GAME=``); `face` how the console shows it;
    `chip`: the game is the 1990 chip itself, whose benches also compare the nodes inside
    it that the paper's E.2 trace prints (sim.chip). `build_s`: about how long its first
    compiled build takes, in seconds (BUILD_S)."""
    name: str
    face: Face = NINE
    chip: bool = False
    build_s: int = BUILD_S

    @property
    def core_module(self):
        return f"hdl.{self.name}.cartridge"

    @property
    def golden_module(self):
        return f"firmware_ref.{self.name}"

    def core(self):
        """The core's cartridge class as ``hdl/<name>/cartridge.py`` writes it."""
        return importlib.import_module(self.core_module).CARTRIDGE

    def golden(self):
        """The golden model's package, if it plays at the console's pins (it offers
        ``Model`` and ``games``), else None."""
        try:
            module = importlib.import_module(self.golden_module)
        except ModuleNotFoundError as missing:
            if missing.name and self.golden_module.startswith(missing.name):
                return None
            raise
        return module if hasattr(module, "games") and hasattr(module, "Model") else None

    def checked(self):
        """The golden model's package, or a UserError that names the folder to write."""
        package = self.golden()
        if package is None:
            raise UserError(f"game {self.name!r} has no golden model at the console's "
                            f"pins: write firmware_ref/{self.name}/ (docs/cartridge.md)")
        return package

    def cartridge(self):
        """The cartridge class, built with no arguments. A core built from data its
        golden model computes takes them as keyword arguments: a table of moves, say,
        from the golden package's ``parameters()``, and the boards a blunder lamp lights
        on (``blunder_lamp``, hdl/turns.py) from its golden model's ``blunders``. The
        class returned passes them on, so that the console and every bench build it
        alike."""
        core = self.core()
        package = self.golden()
        lamp = getattr(core, "blunder_lamp", False)
        if package is None or not (lamp or hasattr(package, "parameters")):
            return core

        def __init__(built, **console):
            # Computed when a core is built, not when its class is asked for its names.
            parameters = dict(package.parameters()) if hasattr(package, "parameters") \
                else {}
            if lamp:
                parameters["blunders"] = package.Model().blunders
            core.__init__(built, **parameters, **console)
        return type(core.__name__, (core,), {"__init__": __init__,
                                             "__module__": core.__module__})

    def given(self):
        """What the console gives the core on the benches, as keyword arguments; its
        golden model's `Model` takes the same: a core that ``blinks`` gets the blink of
        the boards' clock, so that it blinks on a bench as on a board, clock for clock."""
        from hdl.cartridge import blink_clocks
        return {"blink": blink_clocks(CLOCK_HZ)} if self.core().blinks else {}

    @property
    def title(self):
        return self.core().title

    @property
    def code(self):
        return self.core().code

    @property
    def machine(self):
        return self.core().machine


# Every game, by name. The 1990 chip is the default wherever a command takes a game.
GAMES = {game.name: game for game in (
    Game("baum_g"),
    Game("baum_g_forced"),
    Game("bawer_hawkins", build_s=16),
    Game("eth", chip=True),
    Game("firstfree"),
    Game("hendrix_purcell"),
    Game("hendrix_purcell_defended"),
    Game("ktane", BOMB),
    Game("table"),
    Game("tactic", TACTIC),
    Game("turbo"),
    Game("ultimate", ULTIMATE, build_s=27),
)}
CHIP = next(game for game in GAMES.values() if game.chip)


def names():
    """The games' names, as commands take them."""
    return sorted(GAMES)


def games():
    """Every game's entry, in the order of `names`."""
    return [GAMES[name] for name in names()]


def game(name):
    """The entry of game `name` (an entry is returned as it is); UnknownGame, one line
    that lists the games, for any other name."""
    if isinstance(name, Game):
        return name
    found = GAMES.get(name)
    if found is None:
        raise UnknownGame(f"unknown game {name!r}; the games are: {', '.join(names())}")
    return found


def with_golden():
    """The games whose golden model plays at the console's pins: those make verify
    checks."""
    return [entry for entry in games() if entry.golden() is not None]
