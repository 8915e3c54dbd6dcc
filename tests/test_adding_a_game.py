"""docs/cartridge.md, "Adding a game", done by a test: a game written here, a core and
its golden model and nothing else, is found by its folder's name, plays every game in
lockstep with its golden model, is listed where the games are listed and is played by
the default client. Folders that are not whole games are refused as the section says.

The game is written into this test's own temporary directory, whose hdl/ and
firmware_ref/ are added to those packages' search paths for the test alone: nothing is
written into the checkout, so tests running beside this one (pytest-xdist's workers,
another checkout) never see the game, and nothing is left behind if the test dies.
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
from sim.cartridges import bench as cartridges

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


@pytest.fixture
def game(folders):
    """The whole game: its core in hdl/, its golden model in firmware_ref/."""
    write(folders / "hdl" / NAME / "__init__.py", '"""Last free."""\n')
    write(folders / "hdl" / NAME / "cartridge.py", CORE)
    write(folders / "firmware_ref" / NAME / "__init__.py", GOLDEN)
    importlib.invalidate_caches()
    return NAME


def test_a_game_folder_and_its_golden_model_are_a_game(game, capsys):
    # Found by its folder's name: the registry builds the core and finds the model.
    assert game in cartridges.names()
    assert cartridges.cartridge(game).code == "Z"
    assert cartridges.golden(game).__name__ == f"firmware_ref.{game}"

    # Every game a person can play, in lockstep at the pins, as make verify plays it.
    assert ttt(["verify", "--game", game, "--backend", "amaranth"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("all ")

    # A core that plays another game is caught: the lockstep means something.
    from hdl.firstfree.cartridge import FirstFree
    with pytest.raises(cartridges.Mismatch):
        cartridges.lockstep(game, itertools.islice(cartridges.golden(game).games(), 3),
                            core=FirstFree)

    # Listed where the games are listed, and named by GAME as any other.
    with pytest.raises(SystemExit):
        ttt(["play", "-h"])
    assert game in capsys.readouterr().out.replace("\n", " ")

    # No row in the table of clients: the board of nine places plays it, on its golden
    # model as make play does, and hears the machine say each move.
    assert game not in clients.OWN and clients.client(game) is terminal
    said, typed = [], iter(["b2", "quit"])
    assert clients.client(game).play_golden(lambda prompt: next(typed), said.append,
                                            game=game) is None
    assert any(re.fullmatch(r"The machine plays C3; its move took \d+ clock cycles\.", line)
               for line in said)


def test_a_folder_that_is_not_a_whole_game_is_refused(folders):
    # A folder of hdl/ without cartridge.py is no game: not listed, and refused by name.
    write(folders / "hdl" / NAME / "__init__.py", '"""Not yet a game."""\n')
    importlib.invalidate_caches()
    assert NAME not in cartridges.names()
    with pytest.raises(ValueError, match=f"unknown game '{NAME}'"):
        cartridges.cartridge(NAME)

    # A core without a golden model is listed, but nothing checks it: make verify
    # refuses it in one line that names the folder to write.
    write(folders / "hdl" / NAME / "cartridge.py", CORE)
    importlib.invalidate_caches()
    assert NAME in cartridges.names() and cartridges.golden(NAME) is None
    with pytest.raises(ValueError, match="has no golden model"):
        cartridges.lockstep(NAME)
    from sim.verification import verify
    with pytest.raises(UserError, match=f"firmware_ref/{NAME}/"):
        verify.cartridge(NAME, "amaranth")


def test_the_game_is_gone_with_its_folders():
    # After the tests above (in any order, in any worker), the checkout holds no such
    # game: it was never written there.
    assert NAME not in cartridges.names()
