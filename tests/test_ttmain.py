"""firmware_ref.eth.ttmain: the paper's main program as a terminal game."""

import io
import random
import re
import subprocess
import sys
from pathlib import Path

from firmware_ref.eth import ttmain
from firmware_ref.eth.alg import move
from firmware_ref.eth.cycle import CycleModel
from firmware_ref.eth.pins import press, start
from firmware_ref.places import HUMAN


def play(lines, seed=0, clock=6.0):
    answers, out = iter(lines), []
    game = ttmain.Game(lambda prompt: out.append(prompt) or next(answers, None),
                       out.append, clock, random.Random(seed))
    game.run()
    return "\n".join(out)


def test_user_first_game_with_think_times_in_cycles_and_microseconds():
    text = play(["y", "B2", "C3", "A3", "n"])
    first = move([0, 0, 0, 0, HUMAN, 0, 0, 0, 0])
    chip = CycleModel()
    start(chip, userbegins=True)
    cycles = len(press(chip, 4))
    assert (f"Time for move 1: {cycles} clock cycles = {cycles / 6:.1f} microseconds "
            f"at 6 MHz.") in text
    assert f"I play {'ABC'[first.place % 3]}{first.place // 3 + 1}." in text
    assert text.count("Time for move") >= 2
    assert re.search(r"(I won\.|It's a draw\.)", text)


def test_the_clock_changes_the_microseconds():
    text = play(["y", "B2", "n"], clock=12.0)
    cycles = int(re.search(r"move 1: (\d+) clock cycles", text).group(1))
    assert f"{cycles / 12:.1f} microseconds at 12 MHz" in text


def test_chip_first_opens_at_its_counter():
    text = play(["n", "n"], seed=5)
    assert re.search(r"I open at [ABC][123] \(my random counter chose it\)", text)


def test_bad_entries_are_asked_again_not_a_crash():
    text = play(["maybe", "y", "", "D1", "A4", "B", "B2", "B2", "n"])
    assert "Please answer Y or N." in text
    assert "'D1' is not a place" in text and "'A4' is not a place" in text
    assert "'' is not a place" in text and "'B' is not a place" in text
    assert "B2 is taken." in text


def test_end_of_input_ends_the_session_quietly():
    assert "Do you want to play first?" in play(["y"])
    assert play([]).startswith("T I C - T A C - T O E")


def test_play_reads_a_script_from_stdin():
    out = io.StringIO()
    ttmain.play(seed=1, stdin=io.StringIO("y\nA1\nn\n"), stdout=out)
    assert "Time for move 1:" in out.getvalue()


def test_ttt_play_runs_with_a_pipe():
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "boards", "play", "--seed", "2"],
                          input="y\nB2\n", capture_output=True, text=True, cwd=root,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Time for move 1:" in done.stdout
