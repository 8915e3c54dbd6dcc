"""The main program of Geiser and Marzetta's report (appendix F.3) as a terminal game.

You play against the golden model of the chip, through its pins: each of your moves
is a key press, and the chip's think time is counted in its clock cycles, reported in
cycles and in microseconds at the chosen clock (the paper's 6 MHz by default). As on
the chip, when it opens it plays wherever its free-running counter points.

    ttt play [--clock MHZ] [--seed N]      (make play)
"""

import random
import sys

from ..cartridge import board_places
from ..places import BY_NAME, COMPUTER, EMPTY, HUMAN, PLACES, coordinate, grid
from .alg import full, wins
from .cycle import CycleModel
from .pins import press, start


class Quit(Exception):
    """The player's input ended."""


class Game:
    """One terminal session; `ask` and `say` are the terminal."""

    def __init__(self, ask, say, clock_mhz=6.0, rng=None):
        self.ask, self.say, self.clock_mhz = ask, say, clock_mhz
        self.rng = rng or random.Random()
        # The counter's power-up value is whatever the silicon woke up with.
        self.chip = CycleModel(random=self.rng.randrange(8))

    def run(self):
        self.say("T I C - T A C - T O E    (the ETH chip of 1990, on its golden model)")
        try:
            while True:
                self.play_one()
                if not self.yes("Do you want to play again?"):
                    return
        except Quit:
            self.say("")

    def yes(self, question):
        while True:
            answer = self.read(f"{question} (Y/N) ").strip().upper()
            if answer in ("Y", "N"):
                return answer == "Y"
            self.say("Please answer Y or N.")

    def read(self, prompt):
        line = self.ask(prompt)
        if line is None:
            raise Quit
        return line

    def play_one(self):
        userbegins = self.yes("Do you want to play first?")
        # A person holds reset for a moment; the counter runs on meanwhile.
        for _ in range(self.rng.randrange(8)):
            self.chip.set(resetN=0)
            self.chip.tick()
        start(self.chip, userbegins=userbegins)
        board = board_places(self.chip.board)
        if not userbegins:
            opening = board.index(COMPUTER)
            self.say(f"I open at {coordinate(opening)} (my random counter chose it).")
        level = 1
        while True:
            self.show(board)
            place = self.ask_move(board)
            mine = board.copy()
            mine[place] = HUMAN
            thought = press(self.chip, place)
            board = board_places(self.chip.board)
            answer = [k for k in range(PLACES) if board[k] != mine[k]]
            if answer:
                self.say(f"I play {coordinate(answer[0])}. Time for move {level}: "
                         f"{len(thought)} clock cycles = "
                         f"{len(thought) / self.clock_mhz:.1f} microseconds "
                         f"at {self.clock_mhz:g} MHz.")
                level += 1
            if wins(board, HUMAN) or wins(board, COMPUTER) or full(board):
                break
        self.show(board)
        if wins(board, HUMAN):
            self.say("You won.")
        elif wins(board, COMPUTER):
            self.say("I won.")
        else:
            self.say("It's a draw.")

    def ask_move(self, board):
        while True:
            entry = self.read("Please enter your move (column A-C, row 1-3, e.g. B2): ")
            entry = entry.strip().upper()
            if entry not in BY_NAME:
                self.say(f"{entry!r} is not a place: a column A-C, then a row 1-3.")
                continue
            place = BY_NAME[entry]
            if board[place] != EMPTY:
                self.say(f"{entry} is taken.")
                continue
            return place

    def show(self, board):
        self.say(grid(board))


def play(*, clock=6.0, seed=None, stdin=None, stdout=None):
    """``ttt play``: the game on `stdin` and `stdout` (default the terminal), think
    times at `clock` MHz, the chip's random counter seeded with `seed`."""
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout

    def ask(prompt):
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if not line:
            return None
        if not stdin.isatty():
            stdout.write(line if line.endswith("\n") else line + "\n")
        return line

    def say(text):
        print(text, file=stdout)

    Game(ask, say, clock, random.Random(seed)).run()

