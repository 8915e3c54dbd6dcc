"""The words a user reads in every command's help and in the game clients' own help:
the games and their sources by name, never the project's numbering of its sources
("seed 000") or of its issues, and no reStructuredText marks (``make sim``)."""

import re

import pytest
from user import typed

from boards.ttt import main

UNKNOWABLE = re.compile(r"\bseed 0\d\d\b|\bissues?\b", re.I)
GAMES = ("ktane", "tactic", "ultimate")


def plain(what, text):
    assert text.strip(), f"{what} says nothing"
    found = UNKNOWABLE.search(text)
    assert found is None, f"{what} says {found[0]!r}"
    assert "``" not in text, f"{what} shows ``"


def listed(help_text):
    """The subcommands a help lists under its positional arguments."""
    return re.findall(r"^    (\S+)(?:  |$)", help_text, re.M)


def test_every_help_of_ttt_speaks_plainly(capsys):
    top = typed(["ttt", "-h"])
    assert top.returncode == 0
    plain("ttt -h", top.stdout)
    commands = listed(top.stdout)
    assert {"e2", "play", "play-board", "verify", "cost"} <= set(commands)
    # Each subcommand's help through the script's own function, in this process: a
    # `ttt` process spends a third of a second on its imports, twenty of them seconds.
    for command in commands:
        with pytest.raises(SystemExit) as exit:
            main([command, "-h"])
        assert exit.value.code == 0
        plain(f"ttt {command} -h", capsys.readouterr().out)


@pytest.mark.parametrize("game", GAMES)
def test_the_game_commands_and_clients_speak_plainly(game):
    command = ["python", "-m", f"firmware_ref.{game}"]
    top = typed([*command, "-h"])
    plain(" ".join(command) + " -h", top.stdout)
    subcommands = re.search(r"\{([a-z,-]+)\}", top.stdout)[1].split(",")
    for sub in subcommands:
        done = typed([*command, sub, "-h"])
        assert done.returncode == 0
        plain(" ".join([*command, sub]) + " -h", done.stdout)
    # The client's help, its first screen and its prompts, as `make play` shows them.
    done = typed(["ttt", "play", "--game", game], input="help\nquit\n")
    assert done.returncode == 0 and "quit" in done.stdout
    plain(f"ttt play --game {game}", done.stdout)
