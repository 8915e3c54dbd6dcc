"""docs/cartridge.md, "Adding a game", done by a test: a game written here, a core and
its golden model and one entry in the catalogue (sim/catalogue.py) and nothing else, is
listed where the games are listed, plays every game in lockstep with its golden model
on every simulator that runs a cartridge here, each of which catches a core of another
game, and is played by the default client. A name without an entry, or an entry without
a golden model, is refused in one line.

The game is written into this test's own temporary directory, whose hdl/ and
firmware_ref/ are added to those packages' search paths for the test alone, and its
entry is added to the catalogue for the test alone: nothing is written into the
checkout, so tests running beside this one (pytest-xdist's workers, another checkout)
never see the game, and nothing is left behind if the test dies.
"""

import importlib
import itertools
import re
import sys
import textwrap

import pytest

import firmware_ref
import hdl
from boards.host import clients, terminal
from boards.ttt import main as ttt
from firmware_ref.cli import UserError
from hdl.firstfree.cartridge import FirstFree
from sim import Mismatch, backends, catalogue
from sim.backends.core import pins
from sim.cartridges.lockstep import lockstep

NAME = "lastfree_throwaway"

# The machine takes the last empty place: first free's scan (hdl/firstfree and its
# golden model) from place 8 down, so that a core or a model of the wrong game disagrees
# with it at once. The core and the model import first free's own halves, as a game may.
CORE = '''
    """Last free: a game of turns whose engine takes the last empty place."""

    from hdl.firstfree.cartridge import Scan
    from hdl.turns import Turns


    class Down(Scan):
        first, step = 8, -1


    class LastFree(Turns):
        code = "Z"
        title = "last free (a throwaway game of the tests)"

        engine = Down


    CARTRIDGE = LastFree
'''
GOLDEN = '''
    """Last free's golden model, written from its rules, importing no core."""

    from firmware_ref import turns
    from firmware_ref.firstfree.model import Scan
    from firmware_ref.turns import Inputs, Probe


    class Down(Scan):
        first, step = 8, -1


    class Model(turns.Model):
        engine_class = Down


    def games(limit=64):
        return turns.games(Model(), limit)
'''


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """hdl/ and firmware_ref/ folders of this test's own, searched after the checkout's;
    what was imported from them is forgotten afterwards."""
    for package in (hdl, firmware_ref):
        monkeypatch.setattr(package, "__path__",
                            [*package.__path__, str(tmp_path / package.__name__)])
    terminal._codes.cache_clear()     # the games by their letters, once asked
    yield tmp_path
    for module in [m for m in sys.modules if NAME in m]:
        del sys.modules[module]
    terminal._codes.cache_clear()
    importlib.invalidate_caches()


def entry(monkeypatch):
    """The game's one entry in the catalogue, for this test alone."""
    monkeypatch.setitem(catalogue.GAMES, NAME, catalogue.Game(NAME))
    return catalogue.game(NAME)


@pytest.fixture
def game(folders, monkeypatch):
    """The whole game: its core in hdl/, its golden model in firmware_ref/, its entry."""
    write(folders / "hdl" / NAME / "__init__.py", '"""Last free."""\n')
    write(folders / "hdl" / NAME / "cartridge.py", CORE)
    write(folders / "firmware_ref" / NAME / "__init__.py", GOLDEN)
    importlib.invalidate_caches()
    return entry(monkeypatch)


def test_two_folders_and_an_entry_are_a_game(game, capsys):
    # Listed by the catalogue, which builds the core and finds the model.
    assert NAME in catalogue.names()
    assert game.code == "Z" and game.cartridge().code == "Z"
    assert game.golden().__name__ == f"firmware_ref.{NAME}"

    # Every game a person can play, in lockstep at the pins, as make verify plays it:
    # compiled, the build the test below plays too (Amaranth's simulator took 5 s).
    assert ttt(["verify", "--game", NAME, "--backend", "compiled"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("all ")

    # Listed where the games are listed, and named by GAME as any other.
    with pytest.raises(SystemExit):
        ttt(["play", "-h"])
    assert NAME in capsys.readouterr().out.replace("\n", " ")

    # Its face is the default: the board of nine places plays it, on its golden model
    # as make play does, and hears the machine say each move.
    assert game.face is catalogue.NINE and clients.client(NAME) is terminal
    said, typed = [], iter(["b2", "quit"])
    assert clients.client(NAME).play_golden(lambda prompt: next(typed), said.append,
                                            game=NAME) is None
    assert any(re.fullmatch(r"The machine plays C3; its move took \d+ clock cycles\.", line)
                for line in said)


# Every simulator of the table that runs a cartridge (the bit-parallel chips are the
# chip's own gates); a Verilator or Icarus build is make test-slow's, as for every game.
CARTRIDGE_SIMULATORS = [
    pytest.param(name, marks=[pytest.mark.slow] if name in ("verilator-cxx", "verilator",
                                                             "icarus") else [])
    for name in backends.SIMULATORS if name != "bitlanes"]


@pytest.mark.parametrize("backend", CARTRIDGE_SIMULATORS)
def test_the_game_plays_on_every_simulator_and_a_core_of_another_game_is_caught(game,
                                                                                backend):
    try:
        simulator = backends.make(backend, game, pins=pins(game, cartridge=True))
    except backends.BackendMissing as missing:
        pytest.skip(str(missing))           # the tool is not installed here
    games = list(itertools.islice(game.golden().games(), 6))
    assert lockstep(NAME, games, backend=simulator) == (6, sum(map(len, games)))
    # A core that plays another game (the first empty place, not the last) is caught.
    with pytest.raises(Mismatch, match=r"^game \d+, clock \d+: \w+ is "):
        lockstep(NAME, games, backend=backend, core=FirstFree)


def test_a_name_without_an_entry_or_an_entry_without_a_golden_model_is_refused(
        folders, monkeypatch):
    # Both folders, but no entry: no game, refused by name in one line.
    write(folders / "hdl" / NAME / "__init__.py", '"""Not yet a game."""\n')
    write(folders / "hdl" / NAME / "cartridge.py", CORE)
    importlib.invalidate_caches()
    assert NAME not in catalogue.names()
    with pytest.raises(UserError, match=f"unknown game '{NAME}'"):
        catalogue.game(NAME)

    # An entry and a core without a golden model: listed, but nothing checks it, and
    # make verify refuses it in one line that names the folder to write.
    game = entry(monkeypatch)
    assert NAME in catalogue.names() and game.golden() is None
    with pytest.raises(UserError, match="has no golden model"):
        lockstep(NAME)
    from sim.verification import verify
    with pytest.raises(UserError, match=f"firmware_ref/{NAME}/"):
        verify.cartridge(NAME, "amaranth")


def test_the_game_is_gone_with_its_folders_and_its_entry():
    # After the tests above (in any order, in any worker), the checkout holds no such
    # game: it was never written there.
    assert NAME not in catalogue.names()
