"""Cycle-level golden model of the Geiser/Marzetta tic-tac-toe chip (their report).

The chip's behaviour, clock by clock, derived from the algorithm rather than copied
from its controller: the chip's program (reset, wait for a key, search, play) and
alg.c's ``rek2`` are written as Python generators that yield once per clock, so each
``yield`` is one cycle spent in one controller state. What the chip does at the next
rising edge is the code that follows the ``yield``. The recursion of rek2 is a real
recursion of generators, whose locals hold nothing the chip's registers do not: that
is what lets `CycleModel.from_registers` rebuild it from a register dump.

Use it like a chip on a bench: `set` the inputs, `tick` the clock, read `probe`,
which holds the output pins (section 4) and the internal nodes the E.2 trace prints.

    chip = CycleModel()
    chip.set(resetN=0); chip.tick()
    chip.set(resetN=1); chip.tick()
    chip.probe.state            # State.WAITING

Facts taken from the seed: the state codes, the stack (8 x (i, a, bestr)), the
registered keyboard, the 18-bit board with one toggled bit per cycle, and the timing
of E.2. Decisions where the seed is silent are in docs/decisions.md.
"""

import enum
from dataclasses import dataclass, replace

from ..cartridge import LINES
from ..places import PLACES

__all__ = ["State", "Choose", "Inputs", "Probe", "Registers", "CycleModel",
           "UnresetChip", "NO_KEY", "CHIP", "USER", "key_down"]

NO_KEY = (1 << PLACES) - 1  # keyboardN, a bit per place, is active low: all high, no key
CHIP, USER = 0, 1           # values of p; a stone of p is bit p of its place (places.py)


class State(enum.IntEnum):
    """The controller's states with the codes of the paper's state register."""
    WAITING = 0
    RETURNED = 1
    RATING = 2
    JUSTRESET = 3
    FINISHED = 4
    USERJUSTMOVED = 5
    DOINGBESTMOVE = 6
    SETBOARDI = 7


class Choose(enum.IntEnum):
    """Where the board's toggle address comes from (section 3.2)."""
    RANDOM = 0
    I = 1
    M = 2
    KEY = 3


class UnresetChip(RuntimeError):
    """The chip was clocked after power-up without a reset edge."""


@dataclass(frozen=True)
class Inputs:
    """The input pins (scan aside): keyboardN active low, resetN active low."""
    keyboardN: int = NO_KEY
    userbegins: int = 1
    piN: int = 0
    resetN: int = 1


@dataclass(frozen=True)
class Probe:
    """What a logic analyser on the chip shows after an edge, in E.2's column order.

    Output pins: sp, i, fin, win, prompt, led, copyboard. Internal nodes: state,
    wins, choose, toggleN, usei, nexti. None is a value nobody knows ('u' in E.2).
    """
    state: State
    wins: int
    choose: Choose | None
    toggleN: int | None
    usei: int
    nexti: int
    sp: int
    i: int | None
    fin: int
    win: int
    prompt: int
    led: int
    copyboard: int


@dataclass(frozen=True)
class Registers:
    """Every register of the chip: what a scan path shifts. None: never written."""
    state: State = State.JUSTRESET
    board: int = 0
    p: int = CHIP
    a: int = 1
    bestr: int | None = None
    r: int | None = None
    i: int | None = None
    m: int = 0
    sp: int = 0
    stack: tuple = (None,) * 8          # entries (i, a, bestr)
    key: int | None = None              # the registered keyboardN
    random: int = 0


@dataclass(frozen=True)
class _Controls:
    """The controller's outputs in one cycle (the ones the trace shows)."""
    choose: Choose | None = Choose.RANDOM
    toggle: bool | None = False
    usei: bool = False
    nexti: bool = False
    copyboard: bool = False
    prompt: bool = False
    fin: bool = False
    win: bool = False


_UNKNOWN = _Controls(choose=None, toggle=None)
_SETUP = _Controls(choose=Choose.KEY, toggle=True)
_USER_OPENS = _Controls()
_CHIP_OPENS = _Controls(toggle=True)
_PROMPT = _Controls(prompt=True, copyboard=True)
_TAKE_KEY = _Controls(choose=Choose.KEY, toggle=True, prompt=True)
_SHOW = _Controls(copyboard=True)
_SHOW_AND_SEARCH = _Controls(copyboard=True, nexti=True)
_SET_I = _Controls(choose=Choose.I, toggle=True)
_KEEP = _Controls()
_UNDO_I = _Controls(choose=Choose.I, toggle=True)
_CALL = _Controls(nexti=True)
_UNDO_AND_NEXT = _Controls(choose=Choose.I, toggle=True, usei=True, nexti=True)
_UNDO_AND_STOP = _Controls(choose=Choose.I, toggle=True, usei=True)
_SET_M = _Controls(choose=Choose.M, toggle=True)
_DRAW = _Controls(copyboard=True, fin=True)
_CHIP_WON = _Controls(copyboard=True, fin=True, win=True)

_SEARCH = (State.SETBOARDI, State.RATING, State.RETURNED)

# A stone of p at place k is bit 2k + p; these masks are the rows of the chip's bits.
_ROWS = tuple(sum(1 << 2 * k for k in line) for line in LINES)
_ANY_STONE = sum(1 << 2 * k for k in range(PLACES))


def _opening(inputs):
    # justreset without a key: the user opens, or the chip at its random counter.
    return _USER_OPENS if inputs.userbegins else _CHIP_OPENS


class CycleModel:
    """The chip, one clock edge at a time. `random` is the power-up value of the
    free-running 3-bit counter that chooses the chip's opening."""

    def __init__(self, *, random=0, inputs=None):
        self._load(replace(Registers(), random=random), inputs or Inputs())

    @classmethod
    def from_registers(cls, registers, inputs=None):
        """A chip whose registers hold `registers`, as a scan path would leave it."""
        chip = cls.__new__(cls)
        chip._load(_checked(registers), inputs or Inputs())
        return chip

    def registers(self):
        return Registers(state=self._state, board=self.board, p=self.p, a=self.a,
                         bestr=self.bestr, r=self.r, i=self.i, m=self.m, sp=self.sp,
                         stack=tuple(self.stack), key=self.key, random=self.random)

    def _load(self, regs, inputs):
        self.board, self.p, self.a = regs.board, regs.p, regs.a
        self.bestr, self.r, self.i, self.m = regs.bestr, regs.r, regs.i, regs.m
        self.sp, self.stack = regs.sp, list(regs.stack)
        self.key, self.random = regs.key, regs.random
        self.inputs = inputs
        self._enter(regs.state)

    def _enter(self, state):
        self._program = self._run(state)
        self._state, self._plan = next(self._program)

    # -- the bench: inputs, clock, probe -------------------------------------------

    def set(self, inputs=None, **pins):
        """Drive input pins, e.g. ``set(resetN=0, keyboardN=0b1_1111_1011)``."""
        self.inputs = replace(inputs or self.inputs, **pins)

    def tick(self):
        """One rising edge of cp, with the inputs now applied."""
        inputs = self.inputs
        # The keyboard register and the random counter take every edge, reset or not.
        self.key = inputs.keyboardN & NO_KEY
        self.random = (self.random + 1) & 7
        # What the controller commands in this cycle is done at every edge: resetN does
        # not mask its outputs (E.2 row 200 shows them with resetN low).
        try:
            step = self._program.send(inputs)
        except StopIteration:           # stopped at an UnresetChip: only a reset helps
            if inputs.resetN:
                raise UnresetChip("the chip needs a reset edge before it can run") from None
        if inputs.resetN:
            self._state, self._plan = step
        else:
            # Appendix C.3's registers, sp and the state reset; i, m, r, bestr and the
            # stack have no reset and keep what this edge gave them.
            self.board, self.p, self.a, self.sp = 0, CHIP, 1, 0
            self._enter(State.JUSTRESET)

    @property
    def state(self):
        return self._state

    @property
    def probe(self):
        plan = self._plan(self.inputs) if callable(self._plan) else self._plan
        return Probe(
            state=self._state, wins=int(self._wins(self.p)), choose=plan.choose,
            toggleN=None if plan.toggle is None else int(not plan.toggle),
            usei=int(plan.usei), nexti=int(plan.nexti), sp=self.sp, i=self.i,
            fin=int(plan.fin), win=int(plan.win), prompt=int(plan.prompt),
            led=self.board, copyboard=int(plan.copyboard))

    # -- the combinational logic of the board block (section 3.1) -------------------

    def _wins(self, p):
        bits = self.board >> p
        return any(bits & row == row for row in _ROWS)

    def _occupied(self):
        return (self.board | self.board >> 1) & _ANY_STONE

    def _full(self):
        return self._occupied() == _ANY_STONE

    def _nextfree(self, li):
        """The first empty place after li (findfree), or None: lasti."""
        occupied = self._occupied()
        for k in range(li + 1, PLACES):
            if not occupied >> 2 * k & 1:
                return k
        return None

    def _registered_key(self):
        """The registered key if exactly one is pressed and its place is empty."""
        pressed = ~self.key & NO_KEY
        if pressed == 0 or pressed & (pressed - 1):
            return None                 # no key, or a chord: docs/decisions.md
        k = pressed.bit_length() - 1
        return None if self._occupied() >> 2 * k & 1 else k

    def _toggle(self, place, low):
        self.board ^= 1 << (2 * place + low)

    def _place_key(self, key, piN):
        # A key sets the user's stone, or the chip's while piN is high (section 4).
        self._toggle(key, CHIP if piN else USER)

    def _push(self):
        if self.sp == len(self.stack):
            raise RuntimeError("stack overflow: the chip's search never goes 8 deep")
        self.stack[self.sp] = (self.i, self.a, self.bestr)
        self.sp += 1
        self.p ^= 1

    def _pop(self):
        self.sp -= 1
        self.i, self.a, self.bestr = self.stack[self.sp]
        self.p ^= 1

    # -- the program: one yield per clock -------------------------------------------

    def _run(self, entry):
        """The chip from `entry` on: set up, then wait, think and play until the end."""
        if entry is State.JUSTRESET:
            yield from self._justreset()
            entry = State.WAITING
        while entry is not State.FINISHED:
            if entry is State.WAITING:
                yield from self._waiting()
                entry = State.USERJUSTMOVED
            if entry is State.USERJUSTMOVED:
                entry = yield from self._userjustmoved()
            if entry in _SEARCH:
                entry = yield from self._resume(entry, depth=0)
            if entry is State.DOINGBESTMOVE:
                yield State.DOINGBESTMOVE, _SET_M
                self._toggle(self.m, self.p)
                entry = State.WAITING
        while True:
            yield State.FINISHED, _CHIP_WON if self._wins(self.p) else _DRAW

    def _justreset(self):
        """After reset: keys enter a position (section 4), then someone opens."""
        while True:
            if self.key is None:        # power-up: nobody knows the registered keys
                inputs = yield State.JUSTRESET, _UNKNOWN
                if inputs.resetN:
                    raise UnresetChip("the chip was clocked without a reset edge after "
                                      "power-up: its keyboard register is undefined")
                continue
            # The edge acts on the key registered now and the counter's value now.
            key, random = self._registered_key(), self.random
            inputs = yield State.JUSTRESET, (_SETUP if key is not None else _opening)
            if key is not None:
                self._place_key(key, inputs.piN)
                continue
            if not inputs.userbegins:
                self._toggle(random, CHIP)
            return

    def _waiting(self):
        while True:
            key = self._registered_key()
            inputs = yield State.WAITING, (_TAKE_KEY if key is not None else _PROMPT)
            if key is not None:
                self._place_key(key, inputs.piN)
                return

    def _userjustmoved(self):
        # The user cannot have won (section 3.5); a full board is a draw.
        full = self._full()
        yield State.USERJUSTMOVED, _SHOW if full else _SHOW_AND_SEARCH
        if full:
            return State.FINISHED
        # rek2's prologue for the chip: bestr=-1; i = the first free place.
        self.bestr = -1
        self.i = self._nextfree(-1)
        return State.SETBOARDI

    def _resume(self, entry, depth):
        """Run the search from `entry` in the activation at depth sp. The activations
        below it are rebuilt first: each goes on where its call returns."""
        if depth < self.sp:
            yield from self._resume(entry, depth + 1)
            entry = State.RETURNED
        return (yield from self._rek2(entry))

    def _rek2(self, entry=State.SETBOARDI):
        """One activation of alg.c's rek2 for player p, from `entry`.

        It starts with bestr=-1 and i on the first free place (set by the cycle that
        called it). It returns FINISHED when the chip's own move ends the game,
        DOINGBESTMOVE when the ground search is over with m to play, and RETURNED
        after the cycle whose pop hands r to the caller.
        """
        while True:
            if entry is State.SETBOARDI:
                yield State.SETBOARDI, _SET_I                # Board[i] = p
                self._toggle(self.i, self.p)
                entry = State.RATING
            if entry is State.RATING:
                ended = yield from self._rating()
                if ended is not None:
                    return ended
                yield from self._rek2()                      # the recursive call
            entry = yield from self._returned()
            if entry is not State.SETBOARDI:
                return entry

    def _rating(self):
        """alg.c's wins(p) and full() after the trial stone, or the call."""
        won, full = self._wins(self.p), self._full()
        if won or full:
            if self.sp == 0:
                # The chip's own move ends the game. alg.c takes it back and hands it
                # to its caller in m; the chip leaves it on the board and stops.
                yield State.RATING, _KEEP
                return State.FINISHED
            yield State.RATING, _UNDO_I                      # Board[i]=empty
            self._toggle(self.i, self.p)
            self.r = -1 if won else 0                        # return with r
            self._pop()
            return State.RETURNED
        yield State.RATING, _CALL
        bestr = self.bestr
        self._push()                                          # push(); p=otherplace(p)
        self.a = -bestr
        self.bestr = -1                                       # the callee's prologue
        self.i = self._nextfree(-1)
        return None

    def _returned(self):
        """The cycle after a call: Board[i]=empty, then alg.c's tests on r. Returns
        SETBOARDI to go on with the next free place, else how the activation ends."""
        r, ground = self.r, self.sp == 0
        cut = r >= self.a
        last = self._nextfree(self.i) is None
        yield State.RETURNED, _UNDO_AND_STOP if cut or last else _UNDO_AND_NEXT
        self._toggle(self.i, self.p)
        if cut:                                               # r >= a: cut the tree
            if ground:
                self.m = self.i
                return State.DOINGBESTMOVE
            self.r = -r
            self._pop()
            return State.RETURNED
        if r > self.bestr:                                    # the best move so far
            self.bestr = r
            if ground:
                self.m = self.i
        if not last:
            self.i = self._nextfree(self.i)
            return State.SETBOARDI
        if ground:
            return State.DOINGBESTMOVE
        self.r = -self.bestr                                  # loop done: r = -bestr
        self._pop()
        return State.RETURNED


def _checked(regs):
    """`regs`, or a ValueError naming the register that does not fit the chip."""
    widths = {"board": 2 * PLACES, "p": 1, "a": 1, "m": 4, "sp": 3, "random": 3}
    for name, bits in widths.items():
        value = getattr(regs, name)
        if not isinstance(value, int) or not 0 <= value < 1 << bits:
            raise ValueError(f"register {name} = {value!r} does not fit in {bits} bits")
    if len(regs.stack) != 8:
        raise ValueError(f"the stack has 8 entries, not {len(regs.stack)}")
    if regs.key is not None and not 0 <= regs.key <= NO_KEY:
        raise ValueError(f"the keyboard register holds {PLACES} bits, not {regs.key!r}")
    state = State(regs.state)
    needed = {State.SETBOARDI: ("i", "bestr"), State.RATING: ("i", "bestr"),
              State.RETURNED: ("i", "bestr", "r")}.get(state, ())
    unset = [name for name in needed if getattr(regs, name) is None]
    if unset:
        raise ValueError(f"in state {state.name.lower()} the registers "
                         f"{', '.join(needed)} must hold values; {', '.join(unset)} do not")
    return replace(regs, state=state)


# -- driving the chip as a person at its pins would ------------------------------------
#
# A protocol is a generator that sets the chip's inputs and yields where the clock
# should tick, reading only `set`, `state` and `board`. `clocked` runs one on this model;
# sim/bench/lockstep.py runs the same protocols on the HDL.

def key_down(*keys):
    """The keyboardN value with `keys` pressed (active low)."""
    return NO_KEY & ~sum(1 << k for k in set(keys))
