"""Play Tactic-Toe (hdl/tactic) from a terminal: against the machine, or two people
taking turns at the keyboard, each plan typed unseen.

`BoardGame` plays a board (or the board in a box) over the host link: three `K`
frames a plan, one `K` a step of the reveal; the machine's plan comes as the
cartridge's line. `RefereeGame` plays the golden model's referee and planner
(`make play GAME=tactic`). `Session` is the same on both (docs/tactic.md).
"""

import getpass
import sys

from firmware_ref.places import BOTH, GREEN, RED, RULE, rows
from firmware_ref.tactic import match
from firmware_ref.tactic.referee import Referee
from firmware_ref.tactic.rules import EMPTY, O, X, IllegalPlan, check, parse_plan, resolve

from . import protocol
from .link import link_errors

__all__ = ["BoardGame", "RefereeGame", "Session", "show", "HELP", "play_board",
           "play_golden"]

OVER, B_WON, A_WON = 1, 2, 3                    # the cartridge's lamps
MACHINE_SWITCH = 1
DRAWN = {EMPTY: " ", X: "X", O: "O"}
SEEN = {RED: O, GREEN: X}                       # the board's colours: B's red, A's green


class RefereeGame:
    """The golden model: the referee, and the planner for B."""

    def __init__(self):
        self.referee = Referee()
        self.machine = True

    def new(self, machine):
        self.referee, self.machine = Referee(), machine
        return self.referee

    def machine_plan(self):
        return match.machine(self.referee, "B")

    def play(self, plan_a, plan_b):
        """Resolve the round: the referee, and B's plan."""
        self.referee.play(plan_a, plan_b)
        return self.referee, plan_b


class BoardGame:
    """The cartridge on a board over `link` (boards.host.link.Link). It keeps a
    referee of its own beside the board to name each step, and checks the board's
    display against it after every step."""

    def __init__(self, link):
        self.link = link
        self.referee = Referee()
        self.machine = True
        self.heard = None

    def _command(self, frame, again=False):
        """The status after `frame` (`again`: protocol.Exchange's); the machine's plan,
        if its line came with it, is kept."""
        status = self.link.command(frame, again=again)
        if self.link.texts:
            self.heard = self.link.texts[-1]
            self.link.texts.clear()
        return status

    def new(self, machine):
        self._command(protocol.STATUS, again=True)
        self._command(protocol.switch(MACHINE_SWITCH, machine))
        self._command(protocol.reset())
        self.referee, self.machine = Referee(), machine
        return self.referee

    def _enter(self, plan):
        for place in plan:
            status = self._command(protocol.key(place - 1))
        return status

    def machine_plan(self):
        return None         # the board's planner: known once it has planned

    def play(self, plan_a, plan_b):
        """Enter the plans (B's unless the machine plans), then step through the
        reveal; the referee's board is checked against the board's at each step."""
        self.heard = None
        status = self._enter(plan_a)
        if self.machine:
            if self.heard is None:
                line = self.link.stream.readline()
                if not line.startswith(protocol.TEXT_MARK):
                    raise protocol.ProtocolError(f"no plan from the machine (got {line!r})")
                self.heard = line[1:].decode("ascii", "replace").strip()
            plan_b = parse_plan(self.heard)
        else:
            status = self._enter(plan_b)
        steps = []
        resolve(self.referee.board, self.referee.round, plan_a, plan_b, steps)
        self.referee.play(plan_a, plan_b)
        for n, step in enumerate(steps):
            seen = [EMPTY if v == BOTH else SEEN.get(v, EMPTY) for v in status.board]
            if tuple(seen) != step.board:
                raise protocol.ProtocolError(f"the board shows {status.board} after step "
                                             f"{n + 1}, the rules {step.board}")
            if not status.lamps[OVER]:
                status = self._command(protocol.key(0))
        return self.referee, plan_b


def show(board):
    lines = ["     1   2   3", RULE]
    for number, row in enumerate(rows(board)):
        cells = " | ".join(DRAWN[held] for held in row)
        first = number * len(row) + 1
        lines += [f"   | {cells} |   places {first}-{first + len(row) - 1}", RULE]
    return "\n".join(lines)


HELP = """David Dickerson's Tactic-Toe: both players plan three places 1-9 (row by row
from the top left), revealed together. Round 1: three different places, not 5, not a
line. Round 2: 5 allowed, none of your round-1 places. Round 3: anything, 555
included. A plan: three digits, e.g. 237.  new: a new game against the machine;
people: a new game for two people (plans typed unseen);  help;  quit."""
STEP = {"placed": "placed", "taken": "fails (taken)", "bounced": "bounces"}


class Session:
    def __init__(self, game, read, write, secret=None):
        self.game, self.read, self.write = game, read, write
        self.secret = secret or read

    def run(self):
        self.write(HELP)
        referee = self.game.new(True)
        while True:
            if referee.over:
                self.write(self.result(referee))
                answer = self.ask("new (against the machine), people or quit? ")
                if answer is None:
                    return 0
                if answer.upper() not in ("NEW", "PEOPLE"):
                    self.write(f"{answer!r}: new, people or quit.")
                    continue
                referee = self.game.new(answer.upper() == "NEW")
                continue
            self.write(f"Round {referee.round}.\n" + show(referee.board))
            plan_a = self.plan("A (X)" if not self.game.machine else "your (X)",
                               referee, "A")
            if plan_a is None:
                return 0
            if isinstance(plan_a, str):
                referee = self.game.new(plan_a == "MACHINE")
                continue
            plan_b = None
            if not self.game.machine:
                plan_b = self.plan("B (O)", referee, "B")
                if plan_b is None:
                    return 0
                if isinstance(plan_b, str):
                    referee = self.game.new(plan_b == "MACHINE")
                    continue
            else:
                plan_b = self.game.machine_plan()
            before_round = referee.round
            referee, plan_b = self.game.play(plan_a, plan_b)
            if self.game.machine:
                self.write("The machine planned " + " ".join(map(str, plan_b)) + ".")
            for n, step in enumerate(referee.steps):
                self.write(f"Round {before_round}, move {n + 1}: X {step.a} "
                           f"{STEP[step.a_was]}, O {step.b} {STEP[step.b_was]}.")
            if referee.over:        # else the next round draws the board
                self.write(show(referee.board))

    def result(self, referee):
        """In the words the players were asked in: "you" and the machine, or A and B."""
        wins = (("You win.", "The machine wins.") if self.game.machine
                else ("X (A) wins.", "O (B) wins."))
        return {"X": wins[0], "O": wins[1], "tie": "A tie game: both lines.",
                "cats": "A cats game: no line."}[referee.result]

    def ask(self, prompt, read=None):
        try:
            line = (read or self.read)(prompt)
        except EOFError:
            self.write("")
            return None
        if line.strip().upper() in ("QUIT", "Q"):
            return None
        return line.strip()

    def plan(self, who, referee, player):
        """A legal plan typed by `who`, or None to stop, or "MACHINE"/"PEOPLE"."""
        while True:
            text = self.ask(f"{who} plan for round {referee.round}: ",
                            self.secret if not self.game.machine else self.read)
            if text is None:
                return None
            word = text.upper()
            if word in ("NEW", "PEOPLE"):
                return "MACHINE" if word == "NEW" else "PEOPLE"
            if word == "HELP":
                self.write(HELP)
                continue
            try:
                plan = parse_plan(text)
                check(plan, referee.round, referee.history[player] or ())
            except (ValueError, IllegalPlan) as error:
                self.write(f"That plan won't do: {error}.")
                continue
            return plan


def _secret(prompt):
    return getpass.getpass(prompt) if sys.stdin.isatty() else input(prompt)


def play_golden(read, write, **_):
    """`make play GAME=tactic`: the golden model's referee and planner (it takes none of
    `ttt play`'s options)."""
    return Session(RefereeGame(), read, write, _secret).run()


def play_board(link, read, write):
    with link_errors():
        return Session(BoardGame(link), read, write, _secret).run()
