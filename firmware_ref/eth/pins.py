"""Driving a chip through its pins: the protocols a person follows at the keyboard.

A protocol is a generator that sets a chip's inputs and yields once per clock; whoever
runs it ticks the chip at each yield (`clocked` for the golden model, a bench's ``run``
for the HDL in a simulator), so the same protocol drives the golden model, the Amaranth
chip, the netlist and the compiled chip alike. A chip here is anything with ``set``,
``state`` and ``board`` as `firmware_ref.eth.cycle.CycleModel` has them.
"""

from ..places import COMPUTER, EMPTY, PLACES
from .alg import check_board
from .cycle import NO_KEY, State, key_down

__all__ = ["clocked", "start", "press", "starting", "pressing"]


def clocked(chip, protocol):
    """Run `protocol` on `chip`, ticking it at each yield; return the protocol's result."""
    while True:
        try:
            next(protocol)
        except StopIteration as done:
            return done.value
        chip.tick()


def start(chip, *, userbegins, position=None):
    """Reset the chip and begin a game (see `starting`)."""
    return clocked(chip, starting(chip, userbegins=userbegins, position=position))


def press(chip, place, *, limit=100_000):
    """Press a key and let the chip answer (see `pressing`)."""
    return clocked(chip, pressing(chip, place, limit=limit))


def starting(chip, *, userbegins, position=None):
    """Protocol: reset the chip and begin a game.

    `position` (nine places, as firmware_ref/places.py holds them), if given, is entered
    during reset as E.1 does: one key per edge, the first taken by the reset edge itself,
    piN high at the edge that places each chip stone. Then the user or the chip (at its
    counter) opens.
    """
    position = check_board(position or [EMPTY] * PLACES)
    stones = [(k, v == COMPUTER) for k, v in enumerate(position) if v != EMPTY]
    keys = [key_down(k) for k, _ in stones] + [NO_KEY]
    pins = [0] + [int(mine) for _, mine in stones]
    for n, (keyboardN, piN) in enumerate(zip(keys, pins)):
        chip.set(resetN=int(n > 0), userbegins=int(userbegins), keyboardN=keyboardN, piN=piN)
        yield
    chip.set(resetN=1, piN=0)
    yield                           # no key left: the user or the chip opens


def pressing(chip, place, *, limit=100_000):
    """Protocol: press key `place` for one clock and let the chip answer.

    Returns the states the chip passed through while it thought: their number is the
    think time in clock cycles (docs/decisions.md). Raises ValueError when the chip
    did not take the key.
    """
    if place not in range(PLACES):
        raise ValueError(f"there is no key {place!r}: the keys are 0 to {PLACES - 1}")
    if chip.state is not State.WAITING:
        raise ValueError(f"the chip is in state {chip.state.name.lower()}, "
                         f"not waiting for a key")
    chip.set(keyboardN=key_down(place))
    yield                                    # the keyboard register takes the key
    chip.set(keyboardN=NO_KEY)
    yield                                    # the stone is placed
    if chip.state is not State.USERJUSTMOVED:
        raise ValueError(f"the chip ignored key {place}: that place is taken")
    thought = []
    while chip.state not in (State.WAITING, State.FINISHED):
        if len(thought) == limit:
            raise RuntimeError(f"the chip did not answer within {limit} cycles")
        yield
        thought.append(chip.state)
    return thought
