"""The positions of the games: where a deep cover's set-up may end.

Cases 3, 5 and 7 of returned at the ground level (the report's §3.5) come only at the end
of a ground search that weighed whole subtrees. Played from power-up under every
assumption, a Dijkstra search of the golden model's games (`shortest`; `make verify`
locks the model to the chip every clock) first finds them 162 (case 5), 1,721 (7) and
2,673 (3) clocks after power-up: far deeper than a solver unrolls in minutes (about
0.5 s a clock even with every pin given, measured).

So these covers start from a reachable state: the chip's own set-up (keys at reset, §4,
the one assumption left out, `no_setup`) enters a position, the solver choosing the keys,
and the harness assumes that a waiting chip holds a board some game waits with
(`positions`). From waiting, a search reads only the board, p, sp and a (it sets i, bestr,
r, the stack and, by never_lost, m before it reads them), and a waiting chip has p = 0 and
sp = 0 (the invariants) and a = 1, after a set-up as in a game: so the trace from the
set-up position is one a game from power-up continues with.
"""

import functools
import heapq
import itertools

from firmware_ref.cartridge import board_places
from firmware_ref.eth.cycle import CycleModel, NO_KEY, State, key_down
from firmware_ref.eth.pins import start
from firmware_ref.places import EMPTY
from sim.chip import games

__all__ = ["FIRST", "positions", "shortest", "returned_case"]

# The deep covers, and the clock at which the first game `shortest` finds reaches each;
# state_doingbestmove (the end of the first search) at 38 as the solver found it in
# 2026-11 runs of minutes, with every assumption.
FIRST = {"returned_case_1": 37, "returned_case_3": 2673, "returned_case_5": 162,
         "returned_case_7": 1721, "state_doingbestmove": 38}


@functools.cache
def positions():
    """The boards of every game's waiting chip, as the board register holds them."""
    boards = set()
    for _ in games.all_games(on_press=lambda opening, registers, key:
                             boards.add(registers.board)):
        pass
    return tuple(sorted(boards))


def returned_case(registers):
    """Which of the report's §3.5's nine cases the controller takes in returned, from the
    registers alone: r >= a (1, 2), else r > bestr (3-6), else (7-9); the last move or
    not (lasti); the bottom level or not (ground)."""
    board = board_places(registers.board)
    ground = registers.sp == 0
    lasti = all(board[k] != EMPTY for k in range(registers.i + 1, 9))
    if registers.r >= registers.a:
        return 1 if ground else 2
    if registers.r > registers.bestr:
        return (3 if ground else 4) if lasti else (5 if ground else 6)
    return (7 if ground else 8) if lasti else 9


def _answer(registers, key, pin, limit):
    """Press `key` (piN `pin`, §4) on a waiting chip: (clocks, {case: first clock},
    registers, state), or None when the answer takes over `limit` clocks."""
    chip = CycleModel.from_registers(registers)
    chip.set(keyboardN=key_down(key), piN=pin)
    chip.tick()
    chip.set(keyboardN=NO_KEY)
    chip.tick()
    chip.set(piN=0)
    clocks, cases = 2, {}
    while chip.state not in (State.WAITING, State.FINISHED):
        chip.tick()
        clocks += 1
        if clocks > limit:
            return None
        now = chip.registers()
        if now.state is State.RETURNED:
            cases.setdefault(returned_case(now), clocks)
    return clocks, cases, chip.registers(), chip.state


def shortest(cases=(3, 5, 7), limit=3000):
    """{case: (clocks, opening, presses)}: the first game (the user begins or the chip
    opens anywhere; then keys, piN high or low) a Dijkstra search by clocks finds to
    reach each case; clocks count from power-up."""
    heap, count, found, seen = [], itertools.count(), {}, set()
    for opening in (None, *range(8)):
        chip = games.opening_chip(opening) if opening is not None else CycleModel()
        start(chip, userbegins=opening is None)
        heap.append((2, next(count), opening, (), chip.registers()))
    while heap and not all(c in found and heap[0][0] >= found[c][0] for c in cases):
        spent, _, opening, presses, registers = heapq.heappop(heap)
        if registers in seen:
            continue
        seen.add(registers)
        board = board_places(registers.board)
        for key, pin in itertools.product(range(9), (0, 1)):
            answer = board[key] == EMPTY and _answer(registers, key, pin, limit - spent)
            if not answer:
                continue
            clocks, reached, after, state = answer
            for case, at in reached.items():
                if case in cases and (case not in found or spent + at < found[case][0]):
                    found[case] = (spent + at, opening, (*presses, (key, pin)))
            if state is State.WAITING:
                heapq.heappush(heap, (spent + clocks, next(count), opening,
                                      (*presses, (key, pin)), after))
    return found
