"""The chip under proof: its properties, the input assumptions and the helper invariants.

`Harness` wraps an unchanged `hdl.eth.Chip` with free inputs and adds, by name, the
statements one SBY job needs: the properties of docs/formal.md (``PROPERTIES``), the
assumptions on the inputs (``ASSUMPTIONS``), the invariants that make the properties
inductive (``INVARIANTS``, proven in every job that proves something), and covers
(``COVERS``). Every statement reads the chip's own registers and wires; the harness
drives nothing of the chip but its pins.

The chip's registers start from any value (the harness's own start from their init): the
1990 chip powers up undefined and only a reset defines it, so every claim here is about
the chip after power-up and a reset, whatever it held before.
"""

import functools
from typing import NamedTuple

from amaranth.hdl import Assert, Assume, Cat, Cover, Elaboratable, Module, Signal

from hdl.eth.board import PLACES
from hdl.eth.chip import Chip
from hdl.eth.controller import Choose, State
from hdl.eth.stack import DEPTH

__all__ = ["PROPERTIES", "ASSUMPTIONS", "INVARIANTS", "COVERS", "SEARCH", "Harness",
           "key_bound"]

# The states of the recursive search: a stone is tried, rated, or its subtree has returned.
SEARCH = (State.setboardi, State.rating, State.returned)
# The ranking key's phase of the deepest level (see `Harness._key`): the order of a
# level's clocks, with "a deeper level is searching" between rating and returned.
PHASE = {State.setboardi: 0, State.rating: 1, State.returned: 3}
IN_CHILD = 2
DIGIT = 6                       # bits per level of the key: (place * 4 + phase) + 1 < 64
LEVELS = DEPTH                  # sp is 0..7: levels 0..sp-1 are stacked, sp is the deepest

# name: what it says, in the words of docs/formal.md.
PROPERTIES = {
    "no_overflow": "no call while sp = 7 (the stack has 8 entries)",
    "no_underflow": "no pop while sp = 0",
    "no_place_11": "no place ever holds both stones (board bits 11)",
    "nexti_on_empty": "nexti only loads i with an empty place",
    "toggle_on_place": "a toggle's address always names one of the nine places",
    "copyboard_states": "copyboard only in waiting, userjustmoved and finished "
                        "(appendix C)",
    "search_ends": "every search ends: each clock of it raises a ranking key, so it "
                   "leaves within key_bound() clocks to doingbestmove or finished",
    "reset_to_justreset": "a clock with resetN low always leads to justreset, the board "
                          "empty, sp = 0 and p the chip's",
    "chip_opens": "a game starts as §3.2 says: justreset leads to waiting only with "
                  "userbegins high or after the chip's stone at the random counter's place",
    "finished_stays": "a finished game waits for a reset: finished leads only to "
                      "finished, or to justreset after resetN low (§3.5)",
}

ASSUMPTIONS = {
    "scan_low": "scan is low: the scan path (a test mode) is not used",
    "reset_first": "resetN is low in the first clock after power-up",
    "no_setup": "no key is pressed while resetN is low nor in the clock after: the "
                "chip is not set up with keys at reset (the report's §4)",
    "never_lost": "the chip never moves in a lost position: a search reaches "
                  "doingbestmove only after it has assigned m (alg.c's NoMoveFound "
                  "never happens; the enumeration of every game checks it)",
}

INVARIANTS = {
    "p_is_level": "p = sp mod 2: the chip (0) moves at even levels",
    "ground_outside": "sp = 0 outside the search states",
    "justreset_clean": "in justreset the board is empty and the keyboard register holds "
                       "no key",
    "i_place": "i names a place while searching",
    "stack_places": "the stacked i are places, all different and different from i",
    "stack_stones": "each stacked i holds its level's stone",
    "i_stone": "i holds the stone of player p in rating and returned, and is empty in "
               "setboardi",
    "stones": "the board holds more stones than the search has placed (the user's move "
              "came first)",
    "m_free": "once assigned in a search, m names a place that is empty but for the "
              "search's own stones",
}

COVERS = {
    **{f"state_{state.name}": f"the controller in {state.name}" for state in State},
    **{f"returned_case_{case}": f"returned, case {case} of the report's §3.5"
       for case in range(1, 10)},
    "sp_7": "sp = 7, the deepest call",
    "chip_wins": "a finished game won by the chip",
}


def key_bound(empty=PLACES - 1):
    """The number of ranking keys a search from a board with `empty` free places can
    take: its levels hold different places, the upper ones in their "deeper level
    searching" phase, the deepest in one of three. A search begins after a key has placed
    a stone, so at most 8 places are free: 328,800 keys."""
    paths, count = 0, 1
    for length in range(1, empty + 1):
        count *= empty - length + 1
        paths += count
    return len(PHASE) * paths


def _empty(board, place):
    return ~(board.bit_select(2 * place, 1) | board.bit_select(2 * place + 1, 1))


def _has(board, place, player):
    return board.bit_select(2 * place + player, 1)


class Watch(NamedTuple):
    """What the statements read: the chip's blocks and nodes, and the harness's own
    registers (`started`, `last_resetN`, `last_state`, `opened`, `assigned`) and
    wires."""
    chip: object
    ctl: object
    board: object           # the board register's 18 bits
    move: object
    stack: object
    value: object
    state: object
    sp: object
    i: object
    started: object         # at least one clock has passed
    last_resetN: object     # resetN a clock ago
    last_state: object      # the state a clock ago
    opened: object          # a clock ago: userbegins high, or the chip's random stone
    assigned: object        # m set since the user's move began this search
    searching: object       # in one of SEARCH
    placed: object          # the deepest level's stone is on the board at i
    entries: list           # the stacked i, level by level
    below: list             # stack entry k is in use


class Harness(Elaboratable):
    """The chip with the named statements of one job.

    Parameters
    ----------
    asserts, assumes, covers : iterable of str
        Names from PROPERTIES or INVARIANTS, ASSUMPTIONS, COVERS. An assumption named
        in `asserts` is checked rather than assumed.
    chip : Chip, optional
        The chip to check (a mutant, say); a new ``Chip()`` by default.
    positions : iterable of int
        Boards a waiting chip is assumed to hold (sim.verification.formal.guides): with
        ``no_setup`` left out, a set-up then ends in a position of a game.
    """

    def __init__(self, asserts=(), assumes=(), covers=(), *, chip=None, positions=()):
        self.asserts = set(asserts)
        self.assumes = set(assumes)
        self.covers = set(covers)
        unknown = ((self.asserts - set(PROPERTIES) - set(INVARIANTS) - set(ASSUMPTIONS))
                   | (self.assumes - set(ASSUMPTIONS)) | (self.covers - set(COVERS)))
        if unknown:
            raise ValueError(f"unknown statements: {', '.join(sorted(unknown))}")
        self.chip = Chip() if chip is None else chip
        # The chip's pins, free: the top module's inputs, a new value at every clock.
        self.inputs = {name: Signal(len(getattr(self.chip, name)), name=name)
                       for name in ("keyboardN", "userbegins", "piN", "resetN", "scan",
                                    "scanin")}
        self.positions = tuple(positions)

    def elaborate(self, platform):
        m = Module()
        m.submodules.chip = chip = self.chip
        for name, signal in self.inputs.items():
            m.d.comb += getattr(chip, name).eq(signal)
        watch = self._watch(m)
        self._assumptions(m, watch)
        self._properties(m, watch)
        self._invariants(m, watch)
        self._covers(m, watch)
        self._positions(m, watch)
        return m

    def _positions(self, m, w):
        """Assume a waiting chip holds one of `positions` (a set-up ends in a game's)."""
        if not self.positions:
            return
        known = Cat(*(w.board == board for board in self.positions)).any()
        m.d.comb += Assume(~w.started | (w.state != State.waiting) | known, "game_position")

    def _check(self, m, name, test):
        """`test` as the statement its name has in this job, or nothing. An assumption
        can be asserted instead, to show where it fails."""
        if name in self.covers:
            m.d.comb += Cover(test, name)
        elif name in self.asserts:
            m.d.comb += Assert(test, name)
        elif name in self.assumes:
            m.d.comb += Assume(test, name)

    def _holds(self, m, watch, name, test):
        """A claim from the first clock after power-up on."""
        self._check(m, name, ~watch.started | test)

    def _watch(self, m):
        """The harness's own registers and the chip's nodes the statements read."""
        chip = self.chip
        ctl, stack = chip.controller, chip.stack
        state, sp = ctl.state, stack.sp
        started = Signal()      # a clock has passed (the chip's registers were free before)
        m.d.sync += started.eq(1)
        last_resetN = Signal(init=1)
        m.d.sync += last_resetN.eq(chip.resetN)
        last_state = Signal(State)
        m.d.sync += last_state.eq(state)
        opened = Signal()
        m.d.sync += opened.eq(chip.userbegins
                              | (~ctl.toggleN & (ctl.choose == Choose.random)))
        assigned = Signal()     # m has been set since the user's move began the current search
        with m.If(~chip.resetN | (state == State.userjustmoved)):
            m.d.sync += assigned.eq(0)
        with m.Elif(ctl.assignmove):
            m.d.sync += assigned.eq(1)
        searching = Signal()
        m.d.comb += searching.eq(Cat(*(state == s for s in SEARCH)).any())
        placed = Signal()       # the stone of the deepest level is on the board at i
        m.d.comb += placed.eq((state == State.rating) | (state == State.returned))
        entries = [stack.stackregs[k].i for k in range(DEPTH)]
        below = [Signal(name=f"below_{k}") for k in range(DEPTH)]   # entry k is in use
        for k in range(DEPTH):
            m.d.comb += below[k].eq(searching & (sp > k))
        return Watch(chip, ctl, chip.board.board, chip.move, stack, chip.value, state, sp,
                     chip.move.i, started, last_resetN, last_state, opened, assigned,
                     searching, placed, entries, below)

    def _assumptions(self, m, w):
        chip = w.chip
        self._check(m, "scan_low", ~chip.scan)
        self._check(m, "reset_first", w.started | ~chip.resetN)
        no_key = chip.keyboardN == (1 << len(chip.keyboardN)) - 1
        self._check(m, "no_setup", no_key | (chip.resetN & w.last_resetN))
        self._check(m, "never_lost",
                    ~w.started | (w.state != State.doingbestmove) | w.assigned)

    def _properties(self, m, w):
        chip, ctl, board, state, sp = w.chip, w.ctl, w.board, w.state, w.sp
        holds = functools.partial(self._holds, m, w)
        holds("no_overflow", ~(ctl.call & (sp == DEPTH - 1)))
        holds("no_underflow", ~(ctl.pop & (sp == 0)))
        holds("no_place_11",
              Cat(*(_has(board, k, 0) & _has(board, k, 1) for k in range(PLACES))) == 0)
        nextfree = chip.board.nextfree
        holds("nexti_on_empty",
              ~ctl.nexti | ((nextfree < PLACES) & _empty(board, nextfree)))
        holds("toggle_on_place", ctl.toggleN | (w.move.index < PLACES))
        holds("copyboard_states",
              ~ctl.copyboard | (state == State.waiting) | (state == State.userjustmoved)
              | (state == State.finished))
        holds("search_ends", self._search_ends(m, w))
        holds("reset_to_justreset",
              w.last_resetN | ((state == State.justreset) & (board == 0) & (sp == 0)
                               & ~chip.board.p))
        holds("chip_opens",
              (w.last_state != State.justreset) | (state != State.waiting) | w.opened)
        holds("finished_stays",
              (w.last_state != State.finished) | ~w.last_resetN
              | (state == State.finished))

    def _search_ends(self, m, w):
        """Every clock of a search raises the ranking key, and a search leaves only to
        doingbestmove or finished."""
        state, last_state = w.state, w.last_state
        key, last_key = Signal(DIGIT * LEVELS), Signal(DIGIT * LEVELS)
        m.d.comb += key.eq(self._key(m, state, w.sp, w.i, w.entries))
        m.d.sync += last_key.eq(key)
        was_searching = Signal()
        m.d.comb += was_searching.eq(Cat(*(last_state == s for s in SEARCH)).any())
        after = {State.userjustmoved: (State.setboardi, State.finished),
                 State.doingbestmove: (State.waiting,)}
        for s in SEARCH:
            after[s] = (*SEARCH, State.doingbestmove, State.finished)
        leads = Cat(*((last_state == s) & Cat(*(state == t for t in targets)).any()
                      for s, targets in after.items())).any()
        known = Cat(*(last_state == s for s in after)).any()
        return (~w.started | ~w.last_resetN | ~known
                | (leads & (~(was_searching & w.searching) | (key > last_key))))

    def _invariants(self, m, w):
        chip, board, sp, i, searching = w.chip, w.board, w.sp, w.i, w.searching
        entries, below, placed = w.entries, w.below, w.placed
        holds = functools.partial(self._holds, m, w)
        p = chip.board.p
        holds("p_is_level", p == sp[0])
        holds("ground_outside", searching | (sp == 0))
        keyboard = chip.keyboard.keyboard
        holds("justreset_clean", (w.state != State.justreset)
              | ((board == 0) & (keyboard == (1 << len(keyboard)) - 1)))
        holds("i_place", ~searching | (i < PLACES))
        distinct = []
        for k in range(DEPTH):
            distinct.append(~below[k] | ((entries[k] < PLACES) & (entries[k] != i)))
            for j in range(k):
                distinct.append(~below[k] | (entries[j] != entries[k]))
        holds("stack_places", Cat(*distinct).all())
        holds("stack_stones",
              Cat(*(~below[k] | _has(board, entries[k], k % 2)
                    for k in range(DEPTH))).all())
        holds("i_stone",
              ~searching | (placed & _has(board, i, p))
              | ((w.state == State.setboardi) & _empty(board, i)))
        stones = Signal(range(PLACES + 1))
        m.d.comb += stones.eq(sum(~_empty(board, k) for k in range(PLACES)))
        holds("stones",
              ~(searching | (w.state == State.userjustmoved)) | (stones > sp + placed))
        move = w.move
        on_search = [below[k] & (entries[k] == move.m) for k in range(DEPTH)]
        on_search.append(placed & (i == move.m))
        holds("m_free",
              ~w.assigned | ~(searching | (w.state == State.doingbestmove))
              | ((move.m < PLACES) & (_empty(board, move.m) | Cat(*on_search).any())))

    def _covers(self, m, w):
        chip, state, started = w.chip, w.state, w.started
        for s in State:
            self._check(m, f"state_{s.name}", started & (state == s))
        ground, lasti = w.stack.ground, chip.board.lasti
        rgea, rgbestr = w.value.rgea, w.value.rgbestr
        cases = [rgea & ground, rgea & ~ground,
                 ~rgea & rgbestr & lasti & ground, ~rgea & rgbestr & lasti & ~ground,
                 ~rgea & rgbestr & ~lasti & ground, ~rgea & rgbestr & ~lasti & ~ground,
                 ~rgea & ~rgbestr & lasti & ground, ~rgea & ~rgbestr & lasti & ~ground,
                 ~rgea & ~rgbestr & ~lasti]
        for case, test in enumerate(cases, 1):
            self._check(m, f"returned_case_{case}",
                        started & chip.resetN & (state == State.returned) & test)
        self._check(m, "sp_7", started & (w.sp == DEPTH - 1))
        self._check(m, "chip_wins", started & chip.fin & chip.win)

    @staticmethod
    def _key(m, state, sp, i, entries):
        """The search's ranking key: one digit per level, level 0 most significant.
        A level above the deepest holds its stacked i, in the phase "a deeper level is
        searching"; the deepest holds i and its state's phase; deeper levels are 0. Each
        clock of a search makes the key larger: a call appends a digit, the next move
        raises the deepest digit's place, a clock inside a level its phase, and a return
        drops the deepest digit and raises its parent's phase (docs/formal.md)."""
        phase = Signal(2)
        with m.Switch(state):
            for s, code in PHASE.items():
                with m.Case(s):
                    m.d.comb += phase.eq(code)
        digits = []
        for level in range(LEVELS):
            digit = Signal(DIGIT, name=f"key_{level}")
            with m.If(sp > level):
                m.d.comb += digit.eq(entries[level] * 4 + IN_CHILD + 1)
            with m.If(sp == level):
                m.d.comb += digit.eq(i * 4 + phase + 1)
            digits.append(digit)
        return Cat(*reversed(digits))
