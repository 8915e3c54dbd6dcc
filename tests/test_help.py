"""The words a user reads in every command's help, in the game clients' own help and in
the documentation: the games and their sources by name, never the project's numbering
of its sources ("seed 000") or of its issues; in a help, no module of the project
other than a command to run (``python -m firmware_ref.ktane``), no reStructuredText
marks (``make sim``), and nothing on stderr."""

import re

import pytest
from user import ROOT, typed

from boards.ttt import main

UNKNOWABLE = re.compile(r"\bseed 0\d\d\b|\bissues?\b", re.I)
# A module or source file of the project: sim.verification.verify, boards.builds.cost,
# firmware_ref.eth.ttmain, boards/box/box.py (docs/boards.md is not one). A command
# the user runs, python -m firmware_ref.ktane, is taken out first.
MODULE = re.compile(r"(?<![\w/])(?:sim|boards|firmware_ref|hdl)(?:[./][A-Za-z_]\w*)+")
COMMAND = re.compile(r"python -m [\w.]+")
GAMES = ("ktane", "tactic", "ultimate")
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# Documented python -m commands that take no options: each prints its one answer.
NO_OPTIONS = {"firmware_ref.hendrix_purcell_defended.defence", "hdl.eth.scan"}


def plain(what, text):
    assert text.strip(), f"{what} says nothing"
    found = UNKNOWABLE.search(text)
    assert found is None, f"{what} says {found[0]!r}"
    found = MODULE.search(COMMAND.sub("", text))
    assert found is None, f"{what} names the module {found[0]!r}"
    assert "``" not in text, f"{what} shows ``"


def listed(help_text):
    """The subcommands a help lists under its positional arguments."""
    return re.findall(r"^    (\S+)(?:  |$)", help_text, re.M)


def helped(argv):
    """`argv -h` as a user types it: its help, checked to come with nothing on stderr
    (no warning) and status 0."""
    done = typed([*argv, "-h"])
    what = " ".join(argv) + " -h"
    assert done.stderr == "", f"{what} wrote to stderr: {done.stderr}"
    assert done.returncode == 0, what
    plain(what, done.stdout)
    return done.stdout


def documented():
    """Every python -m module that README.md and docs/ tell a user to run."""
    return sorted({name for path in DOCS
                   for name in re.findall(r"python -m ([\w.]+)", path.read_text())})


def test_every_help_of_ttt_speaks_plainly(capsys):
    top = helped(["ttt"])
    commands = listed(top)
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
    top = helped(command)
    subcommands = re.search(r"\{([a-z,-]+)\}", top)[1].split(",")
    for sub in subcommands:
        helped([*command, sub])
    # The client's help, its first screen and its prompts, as `make play` shows them.
    done = typed(["ttt", "play", "--game", game], input="help\nquit\n")
    assert done.returncode == 0 and "quit" in done.stdout
    plain(f"ttt play --game {game}", done.stdout)


@pytest.mark.parametrize("module", sorted(set(documented()) - NO_OPTIONS
                                          - {"boards"} - {f"firmware_ref.{g}" for g in GAMES}))
def test_every_documented_command_has_a_plain_help_and_no_warning(module):
    # boards is ttt, and the games are the test above. The matches import their
    # package, whose model imports nothing of theirs: run as __main__, a module the
    # package had imported already would bring runpy's RuntimeWarning on stderr.
    helped(["python", "-m", module])


@pytest.mark.parametrize("path", DOCS, ids=lambda path: path.name)
def test_the_documentation_names_sources_not_numbers(path):
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        found = UNKNOWABLE.search(line)
        assert found is None, f"{path.relative_to(ROOT)}:{number} says {found[0]!r}"
