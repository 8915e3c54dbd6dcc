"""Tactic-Toe's cartridge, one clock edge at a time at the console's pins (timing:
hdl/tactic/cartridge.py's text and docs/tactic.md, read, not imported)."""

import copy
import random
from dataclasses import dataclass, replace

from . import planner
from .. import cartridge
# The board shows B's stones RED, A's GREEN.
from ..cartridge import Probe, board_bits, board_places, full, line, lit
from ..places import GREEN, RED
from .rules import O, X, plans, refusal

__all__ = ["Inputs", "Probe", "Model", "PLANS", "think_clocks", "Player", "play",
           "two_person_games", "machine_games", "games"]

PLANS = 9 ** 3
PIPELINE = 2                    # the planner's stages after the walk: score, sum
MACHINE_SWITCH = 1
OPEN, CATS, TIE, X_WINS, O_WINS = "open", "cats", "tie", "X", "O"


@dataclass(frozen=True)
class Inputs(cartridge.Inputs):
    switches: int = 0b10        # the machine plays B: the core's switch_init


def think_clocks(round, history_b):
    """The clocks the planner walks: 729 for each legal plan of B, 1 for each other."""
    legal = len(plans(round, history_b if round == 2 else None))
    return PLANS * legal + (PLANS - legal)


class Model:
    """The cartridge from power-up; `blink`: the clocks of a bounce's flash, as its
    core's (firmware_ref/cartridge.py's `lit`)."""

    def __init__(self, blink=None):
        self.blink = blink
        self.inputs = Inputs()
        self.state = "BEGIN"
        self.places = [0] * 9
        self.round = 1
        self.plan = {"A": [1, 1, 1], "B": [1, 1, 1]}      # places 1-9
        self.history = {"A": (), "B": ()}
        self.taken = 0
        self.refused = False
        self.at = 0
        self.bounce, self.bounce_at = False, 1
        self.result = OPEN
        self.flash = 0                  # clocks from power-up
        self.saying = 0
        self.thought, self.machine_plan, self.needed = 0, None, 0

    def copy(self):
        return copy.deepcopy(self)

    def set(self, inputs=None, **pins):
        self.inputs = replace(inputs or self.inputs, **pins)

    # -- outputs ---------------------------------------------------------------------

    def shown(self):
        places = list(self.places)
        if self.state in ("ENTER_A", "ENTER_B"):
            colour = GREEN if self.state == "ENTER_A" else RED
            places = [colour if k < self.taken else 0 for k in range(3)]
            places += [RED if self.refused else 0] * 3
            places += [RED | GREEN if k < self.round else 0 for k in range(3)]
        elif self.state != "BEGIN" and self.bounce and lit(self.flash, self.blink):
            places[self.bounce_at - 1] = RED | GREEN
        return places

    @property
    def probe(self):
        ready = int(self.state in ("ENTER_A", "ENTER_B", "SHOW"))
        over = int(self.state == "OVER")
        busy = int(self.state in ("THINK", "APPLY", "JUDGE"))
        b_won = over and self.result in (O_WINS, TIE)
        a_won = over and self.result in (X_WINS, TIE)
        lamps = ready | over << 1 | b_won << 2 | a_won << 3
        said = self.plan["B"]
        digit = said[{4: 0, 3: 1}.get(self.saying, 2)]
        payload = ord("\n") if self.saying == 1 else ord("0") + digit
        return Probe(board=board_bits(self.shown()),
                     lamps=lamps, ready=ready, busy=busy, over=over, rx_ready=1,
                     tx_valid=int(self.saying != 0), tx_payload=payload)

    # -- one rising edge --------------------------------------------------------------

    def tick(self):
        inputs = self.inputs
        self.flash += 1
        if self.saying and inputs.tx_ready:
            self.saying -= 1
        key = inputs.key.bit_length()           # 1-9, or 0: no key
        state = self.state
        if state == "BEGIN":
            self.places = [0] * 9
            self.round, self.taken, self.refused, self.at = 1, 0, False, 0
            self.bounce, self.result = False, OPEN
            self.state = "ENTER_A"
        elif state in ("ENTER_A", "ENTER_B") and key:
            player = state[-1]
            plan = self.plan[player]
            if refusal(self.round, self.history[player], plan[:self.taken], key):
                self.refused = True
            else:
                plan[self.taken] = key
                self.refused = False
                self.taken = (self.taken + 1) % 3
                if self.taken == 0:
                    if player == "B":
                        self.state = "APPLY"
                    elif inputs.switches >> MACHINE_SWITCH & 1:
                        self.state, self.thought = "THINK", 0
                    else:
                        self.state = "ENTER_B"
        elif state == "THINK":
            if self.thought == 0:
                self.needed = think_clocks(self.round, self.history["B"])
                self.machine_plan = planner.plan(
                    tuple(X if v == GREEN else O if v == RED else 0 for v in self.places),
                    self.round, O, self.history["B"] or None, self.history["A"] or None)
            self.thought += 1
            if self.thought == self.needed + 1 + PIPELINE:
                self.plan["B"] = list(self.machine_plan)
                self.saying = 4
                self.state = "APPLY"
        elif state == "APPLY":
            a, b = self.plan["A"][self.at], self.plan["B"][self.at]
            places = self.places
            empty_a, empty_b = not places[a - 1], not places[b - 1]
            self.bounce, self.bounce_at = a == b and empty_a, a
            if a != b:
                if empty_a:
                    places[a - 1] = GREEN
                if empty_b:
                    places[b - 1] = RED
            self.state = "JUDGE"
        elif state == "JUDGE":
            x, o = line(self.places, GREEN), line(self.places, RED)
            if x or o or full(self.places):
                self.result = TIE if x and o else X_WINS if x else O_WINS if o else CATS
                self.state = "OVER"
            elif self.at == 2 and self.round == 3:
                self.result, self.state = CATS, "OVER"
            else:
                self.state = "SHOW"
        elif state == "SHOW" and key:
            if self.at == 2:
                if self.round == 1:
                    self.history = {p: tuple(self.plan[p]) for p in "AB"}
                self.at, self.bounce, self.round = 0, False, self.round + 1
                self.state = "ENTER_A"
            else:
                self.at += 1
                self.state = "APPLY"
        if inputs.start:
            self.places = board_places(inputs.position)
            self.state = "BEGIN"


class Player:
    """Drives a model clock by clock and keeps the inputs of every clock: a game."""

    def __init__(self, model=None):
        self.model, self.game = model or Model(), []

    def clock(self, **pins):
        self.model.set(**pins)
        self.game.append(self.model.inputs)
        self.model.tick()

    def settle(self):
        while not (self.model.probe.ready or self.model.probe.over):
            self.clock()

    def key(self, place):
        """Press place 1-9 for one clock, then wait until the cartridge waits."""
        self.clock(key=1 << place - 1)
        self.clock(key=0)
        self.settle()

    def enter(self, player, plan, rng, wrong):
        """Enter `plan` key by key, now and then a key the rule refuses first."""
        m = self.model
        for i, key in enumerate(plan):
            refused = [k for k in range(1, 10)
                       if refusal(m.round, m.history[player], plan[:i], k)]
            if refused and rng.random() < wrong:
                self.key(rng.choice(refused))
            self.key(key)

    def reveal(self):
        """Step through the reveal until the next round or the end."""
        while self.model.state == "SHOW":
            self.key(1)


def play(rng, machine, wrong=0.2, first=None, script=None):
    """One game from power-up: A plays random legal plans (`first` for round 1, if
    given); B too, or the machine (switch 1). `script`: the (A, B) plans of each
    round instead."""
    player = Player()
    player.clock(start=1, switches=MACHINE_SWITCH << 1 if machine else 0)
    player.clock(start=0)
    player.settle()
    m = player.model
    while not m.probe.over:
        history = m.history["A"] or None
        plan_a = first if m.round == 1 and first else rng.choice(plans(m.round, history))
        plan_b = rng.choice(plans(m.round, m.history["B"] or None))
        if script:
            plan_a, plan_b = script[m.round - 1]
        player.enter("A", plan_a, rng, wrong)
        if not machine:
            player.enter("B", plan_b, rng, wrong)
        player.settle()
        player.reveal()
    player.clock()
    return player


# Two people who tie: both lines at the second step of round 2.
TIE_GAME = (((3, 8, 9), (7, 4, 8)), ((6, 5, 1), (1, 2, 9)))


def two_person_games(count=30, seed=4):
    """Random legal plans, with refused keys between; then a tie."""
    rng = random.Random(seed)
    for _ in range(count):
        yield play(rng, machine=False).game
    yield play(rng, machine=False, script=TIE_GAME).game


def machine_games(count=2, seed=4):
    """Games against the machine; the first A plays the seed's 2, 3, 7."""
    rng = random.Random(seed)
    for n in range(count):
        yield play(rng, machine=True, first=(2, 3, 7) if n == 0 else None).game


def games():
    """Two-person games, then games against the machine (each plan some hundreds of
    thousands of clocks)."""
    yield from two_person_games()
    yield from machine_games()
