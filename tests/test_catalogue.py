"""sim/catalogue.py: every entry is a whole game, every game folder has an entry, and a
name that is no game is refused in one line."""

import pkgutil

import pytest

import hdl
from firmware_ref.cli import UserError
from sim import ROOT, catalogue

STATIC = ROOT / "boards" / "web" / "static"


def test_every_game_folder_of_hdl_has_an_entry_and_every_entry_its_folders():
    folders = {info.name for info in pkgutil.iter_modules(hdl.__path__) if info.ispkg}
    assert set(catalogue.names()) == folders
    for entry in catalogue.games():
        assert (ROOT / "hdl" / entry.name / "cartridge.py").exists(), entry.name
        assert entry.golden() is not None, f"{entry.name}: no golden model at the pins"


def test_each_game_names_itself_once_and_the_chip_is_one_game():
    codes = [entry.code for entry in catalogue.games()]
    assert len(set(codes)) == len(codes)
    assert [entry.name for entry in catalogue.games() if entry.chip] == [catalogue.CHIP.name]
    assert catalogue.CHIP.title.startswith("the ETH chip")


def test_each_face_has_its_client_its_view_and_the_page_that_draws_it():
    from boards.host import clients
    from boards.web import views
    for entry in catalogue.games():
        assert clients.client(entry).__name__ == f"boards.host.{entry.face.client}"
        view = views.module(entry.name)
        assert (STATIC / f"{view.NAME}.js").exists(), view.NAME


def test_a_name_that_is_no_game_is_one_line_that_lists_the_games():
    with pytest.raises(UserError, match=r"unknown game 'nope'; the games are: baum_g, "):
        catalogue.game("nope")
    assert catalogue.game(catalogue.CHIP) is catalogue.CHIP


def test_a_core_built_from_its_golden_models_data_gets_it():
    table = catalogue.game("table").cartridge()
    assert table is not catalogue.game("table").core()     # parameters passed on
    assert catalogue.game("firstfree").cartridge() is catalogue.game("firstfree").core()
    assert catalogue.game("tactic").given() == {"blink": 2 ** 22}
    assert catalogue.game("firstfree").given() == {}
