"""The compiled reference of the Ultimate Tic-Tac-Toe engine (sim/reports/ultimate_ref.cc, issue
18's speed comparison): the same move, value and nodes as the golden engine on positions
of random games, a disagreement caught, and its build and command line.

The project requires a C++ compiler, so a missing one fails these tests (it is not a
reason to skip them)."""

import os
import subprocess
import sys

import pytest

from firmware_ref.cli import UserError
from firmware_ref.ultimate import engine
from firmware_ref.ultimate.rules import Position, parse, show
from sim.reports import ultimate_ref
from user import said, watched


def jobs():
    # 60 at the engine's depth, 16 at depths 1 and 2, and 4 of them told no last move
    # (the player may go anywhere), as the command line allows.
    found = [(position, engine.DEPTH) for position in ultimate_ref.positions(60, seed=18)]
    found += [(position, 1 + n % 2) for n, position in
              enumerate(ultimate_ref.positions(16, seed=19))]
    found += [(Position(p.xs, p.os, None), 3) for p in ultimate_ref.positions(4, seed=20)]
    return found


def test_the_compiled_reference_agrees_with_the_golden_engine():
    searches = jobs()
    golden = ultimate_ref.golden(searches)
    compiled = ultimate_ref.compiled(searches)
    assert ultimate_ref.disagreement(searches, golden.results, compiled.results) is None
    assert compiled.nodes == golden.nodes == sum(n for _, _, n in compiled.results)
    assert compiled.per_second > 0 and golden.per_second > 0
    # The positions reach into every part of the game, and the searches into won games.
    plies = [bin(p.xs | p.os).count("1") for p, _ in searches]
    assert min(plies) < 10 and max(plies) > 40
    assert any(abs(value) == engine.WIN for _, value, _ in golden.results)


def test_positions_are_open_and_the_same_for_the_same_seed():
    first = [show(p) + str(p.last) for p in ultimate_ref.positions(30, seed=4)]
    assert first == [show(p) + str(p.last) for p in ultimate_ref.positions(30, seed=4)]
    assert first != [show(p) + str(p.last) for p in ultimate_ref.positions(30, seed=5)]
    assert all(p.legal() for p in ultimate_ref.positions(30, seed=4))


@pytest.mark.parametrize("field", range(3))
def test_a_disagreement_in_move_value_or_nodes_is_caught(field):
    searches = [(position, 2) for position in ultimate_ref.positions(5, seed=6)]
    golden = ultimate_ref.golden(searches).results
    wrong = [list(result) for result in golden]
    wrong[3][field] += 1
    found = ultimate_ref.disagreement(searches, golden, wrong)
    position = searches[3][0]
    assert found.startswith("position 3 (") and show(position) in found
    assert found.count("\n") == 0
    assert ultimate_ref.disagreement(searches, golden, golden[:4]) is not None


def test_the_command_line_stops_with_one_line_at_a_disagreement(monkeypatch, capsys):
    honest = ultimate_ref.compiled

    def off_by_one(searches):
        timed = honest(searches)
        cell, value, nodes = timed.results[-1]
        return timed._replace(results=timed.results[:-1] + [(cell, value, nodes + 1)])
    monkeypatch.setattr(ultimate_ref, "compiled", off_by_one)
    assert ultimate_ref.run(3, seed=1, depth=2) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: position 2 (") and err.count("\n") == 1


def test_the_command_line_prints_both_engines():
    done = subprocess.run([sys.executable, "-m", "boards", "engines", "--positions", "4",
                           "--depth", "2"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "the same move, value and nodes" in lines[0]
    assert lines[1].split() == ["engine", "nodes", "seconds", "nodes/s"]
    assert lines[2].startswith("Python") and lines[3].startswith("compiled")
    done = subprocess.run([sys.executable, "-m", "boards", "engines", "--positions", "0"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_the_program_refuses_a_bad_line_in_one_line():
    program = ultimate_ref.build()
    empty = "." * 81
    # X owns small boards 0, 4 and 8 (their top rows): the game is won.
    won = ["."] * 81
    for i in (0, 1, 2, 36, 37, 38, 72, 73, 74):
        won[i] = "X"
    for i in (9, 10, 12, 13, 18, 19, 21, 22):
        won[i] = "O"
    won = "".join(won)
    assert parse(won, "-").winner() == "X"
    for line, reason in [(f"{empty} 81 4", "LAST"), (f"{empty[1:]} - 4", "81 of X, O"),
                         (f"X{empty[1:]} 0", "BOARD LAST DEPTH"),
                         (f"O{empty[1:]} - 4", "X moves first"),
                         (f"X{empty[1:]} 1 4", "last mover's stone"),
                         (f"{won} - 4", "the game is over")]:
        done = subprocess.run([str(program)], input=line + "\n", capture_output=True,
                              text=True)
        assert done.returncode == 2 and reason in done.stderr, line
        assert done.stderr.count("\n") == 1


def test_the_build_is_reused_until_the_source_is_newer(tmp_path, monkeypatch):
    program = ultimate_ref.build(tmp_path)
    assert program.exists() and not list(tmp_path.glob("tmp*"))

    def no_build(*args):
        raise AssertionError("compiled again although the program is newer than its source")
    monkeypatch.setattr(ultimate_ref, "run_tool", no_build)
    assert ultimate_ref.build(tmp_path) == program
    older = ultimate_ref.SOURCE.stat().st_mtime - 10
    os.utime(program, (older, older))
    with pytest.raises(AssertionError, match="compiled again"):
        ultimate_ref.build(tmp_path)


def test_a_missing_compiler_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("CXX", "no-such-c++")
    with pytest.raises(UserError, match="no C.. compiler: 'no-such-c..' is not on the PATH"):
        ultimate_ref.build(tmp_path)


def test_the_hardware_engine_agrees_and_takes_four_clocks_a_node_and_eleven_a_search():
    jobs = [(position, 4) for position in ultimate_ref.positions(3, seed=5)]
    chip, clocks = ultimate_ref.hardware(jobs, 20.0)
    assert ultimate_ref.disagreement(jobs, ultimate_ref.golden(jobs).results,
                                     chip.results) is None
    assert clocks == 4 * chip.nodes + 11 * len(jobs)
    assert chip.seconds == clocks / 20e6


def test_with_fmax_it_says_about_how_long_the_simulator_takes_before_it_begins():
    # README's command line, cut to 3 positions; the line about the hardware engine
    # arrives while it is simulated (then Ctrl-C), its figure from one constant.
    nodes = ultimate_ref.golden([(position, engine.DEPTH)
                                 for position in ultimate_ref.positions(3, seed=1)]).nodes
    argv = ["ttt", "engines", "--fmax", "12", "--positions", "3"]
    with watched(argv) as running:
        lines = said(running)
        assert "the same move, value and nodes in both" in next(lines)
        line = next(lines)
        assert running.poll() is None               # still simulating
    assert line == (f"the hardware engine searches them in Amaranth's simulator, about "
                    f"{nodes / ultimate_ref.SIMULATED_NODES_PER_S:.0f} s")
