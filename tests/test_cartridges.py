"""The console's cartridges: every game folder is found, builds, and plays in lockstep
with its golden model; a core that breaks a rule is caught."""

import pytest

from boards.gateware.top import target
from boards.tools.build import plan
from hdl.cartridge import Cartridge, Signature
from sim import cartridges


def test_every_game_folder_is_a_cartridge():
    assert cartridges.names() == ["eth", "firstfree"]
    for name in cartridges.names():
        core = cartridges.cartridge(name)()
        assert isinstance(core, Cartridge) and core.signature.members == Signature().members
        assert len(core.code) == 1 and core.code.isupper() and core.lamp_names
    codes = [cartridges.cartridge(name).code for name in cartridges.names()]
    assert len(set(codes)) == len(codes)
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        cartridges.cartridge("nope")


def test_first_free_agrees_with_its_golden_model_in_every_game():
    played, clocks = cartridges.lockstep("firstfree")
    assert played == 822 and clocks > 20_000


def test_a_golden_model_that_misses_a_line_is_caught(monkeypatch):
    # Without the rising diagonal the model plays on where the core has ended the game.
    from firmware_ref.firstfree import model
    monkeypatch.setattr(model, "LINES", model.LINES[:-1])
    with pytest.raises(cartridges.Mismatch, match=r"game \d+, clock \d+: (lamps|over|busy)"):
        cartridges.lockstep("firstfree")


@pytest.mark.parametrize("board, games", [("icebreaker", ("firstfree",)),
                                          ("icestick", ("eth", "firstfree"))])
def test_the_console_builds_other_cartridges_and_several_at_once(board, games):
    files = plan(target(board), games).files
    rtlil = files["ttt.il"]
    for n, name in enumerate(games):
        assert f"cartridge{n}" in rtlil
    assert (".cartridge0.chip" in rtlil) == (games[0] == "eth")    # the chip, kept whole


def test_verify_of_a_game_without_a_golden_model_is_one_line(monkeypatch):
    from firmware_ref.cli import UserError
    from sim import verify
    monkeypatch.setattr(cartridges, "golden", lambda name: None)
    with pytest.raises(UserError, match="firstfree has no golden model"):
        verify.cartridge("firstfree")
