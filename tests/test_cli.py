"""The edges every command shares (firmware_ref.cli): Ctrl-C, one-line errors, whole files.

Ctrl-C is pressed for real: the command runs on a pseudo-terminal, and the terminal
turns the ^C byte into SIGINT for the command and every process it started.
"""

import re

import pytest

from firmware_ref import cli
from user import ROOT, interrupted


# Each is pressed when the command says it is at that point, with work still to do. (The
# golden model's recording is cached once made, so a test cannot count on meeting it.)
@pytest.mark.parametrize("argv, ready", [
    (["-m", "boards", "play"], b"(Y/N)"),                         # waiting for the player
    (["-m", "boards", "verify", "--backend", "amaranth"],         # simulating, in a pool,
     b"amaranth: 1/"),                                            # 8 openings to go
], ids=["play", "verify-amaranth"])
def test_ctrl_c_is_one_line_and_status_130(argv, ready):
    status, out = interrupted(argv, ready=ready)
    assert status == cli.INTERRUPTED, out
    assert "interrupted" in out
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out


def test_user_errors_are_one_line_and_status_2(capsys):
    def main(argv):
        raise cli.UserError("no such port /dev/ttyUSB9")
    assert cli.run(main) == cli.USAGE
    assert capsys.readouterr().err == "error: no such port /dev/ttyUSB9\n"


def test_an_interrupted_write_leaves_the_old_file_whole(tmp_path):
    path = tmp_path / "report.json"
    path.write_text("the last whole report\n")
    with pytest.raises(KeyboardInterrupt):
        with cli.replacing(path) as file:
            file.write("half a rep")
            raise KeyboardInterrupt
    assert path.read_text() == "the last whole report\n"
    assert list(tmp_path.iterdir()) == [path]       # no temporary file left behind
    with cli.replacing(path) as file:
        file.write("a new report\n")
    assert path.read_text() == "a new report\n"
    # With the mode a plain open() gives, not the temporary file's private one.
    (tmp_path / "plain").write_text("")
    assert path.stat().st_mode == (tmp_path / "plain").stat().st_mode


@pytest.mark.parametrize("text", ["0", "-1", "two", "1.5"])
def test_positive_int_refuses(text):
    import argparse
    with pytest.raises(argparse.ArgumentTypeError, match="at least 1"):
        cli.positive_int(text)


def _unset(line):
    """`line` with each ``$(if $(VAR),then[,else])`` as make expands it, VAR empty."""
    while "$(if " in line:
        start = line.index("$(if ")
        depth, parts, part = 0, [], ""
        for end in range(start + 2, len(line)):
            char = line[end]
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth < 0:
                break
            if char == "," and depth == 0:
                parts.append(part)
                part = ""
            else:
                part += char
        parts.append(part)
        line = line[:start] + (parts[2] if len(parts) > 2 else "") + line[end + 1:]
    return line


def test_every_make_verb_is_a_subcommand_that_parses():
    """Each ``$(TTT) ...`` line of the Makefile, its make variables at their defaults,
    is a command line `ttt`'s parser accepts (nothing is run)."""
    from boards.ttt import parser
    defaults = {"SIM": "verilator", "BOARD": "icebreaker", "GAME": "eth", "ARGS": "",
                "EXPECTED": "build/e2_golden.vcd", "ACTUAL": "build/e2.vcd"}
    lines = [line.split("$(TTT)", 1)[1] for line in (ROOT / "Makefile").read_text().splitlines()
             if "$(TTT) " in line]
    assert len(lines) >= 15
    for line in lines:
        line = _unset(line)
        argv = re.sub(r"\$\((\w+)\)", lambda m: defaults[m[1]], line).replace('"', "").split()
        argv = [word for word in argv if word not in (">", "/dev/null")]
        assert parser(argv[0]).parse_args(argv).command == argv[0], line


def test_an_unknown_subcommand_is_refused_with_the_list(capsys):
    from boards.ttt import main
    with pytest.raises(SystemExit) as refused:
        main(["bitsream"])
    assert refused.value.code == cli.USAGE
    assert "invalid choice: 'bitsream'" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["verify", "--game", "eth,firstfree"],
                                  ["waves", "--game", "eth,firstfree"]])
def test_a_refusal_after_parsing_shows_its_own_subcommands_usage(argv, capsys):
    from boards.ttt import main
    with pytest.raises(SystemExit) as refused:
        main(argv)
    assert refused.value.code == cli.USAGE
    assert f"usage: ttt {argv[0]} " in capsys.readouterr().err


def test_game_museum_names_the_museums_machines_and_a_wrong_name_says_so(capsys):
    from boards import ttt
    from sim.cartridges import scores
    args = ttt.parser("bitstream").parse_args(["bitstream", "--game", "museum"])
    assert args.game == tuple(scores.MACHINES.values())
    with pytest.raises(SystemExit):
        ttt.parser("bitstream").parse_args(["bitstream", "--game", "nope"])
    error = capsys.readouterr().err
    assert "unknown game 'nope'; the games: baum_g," in error and "or museum" in error


@pytest.mark.parametrize("argv, said", [
    (["verify", "--game", "ultimate", "--backend", "bitlanes"],
     "error: the bitlanes backend runs the ETH chip only"),
    (["serve", "--http-port", "99999"], "'99999' is not a port (0 to 65535)"),
    (["serve", "--http-port", "http"], "'http' is not a port (0 to 65535)")])
def test_a_chip_only_backend_or_an_impossible_port_is_one_line(argv, said, capsys):
    from boards.ttt import main
    try:
        status = main(argv)           # a UserError: its line, and the status returned
    except SystemExit as refused:     # argparse's refusal
        status = refused.code
    assert status == cli.USAGE
    error = capsys.readouterr()
    assert said in error.err + error.out
    assert "Traceback" not in error.err
