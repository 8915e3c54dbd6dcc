"""The die on the page: the chip's layout (make die) with each net lit by its value as
the page's chip steps.

A chip message with ``"die": true`` (or ``do: "die"``) is answered with the die at the
frame shown as well: the post-layout netlist simulated gate by gate
(sim.watch.die.Following, one a page, beside its chip's watch), its nets' values as a
string of 0s and 1s in the order of the description's nets, and where its output pins
differ from the HDL chip's. The die is clocked towards the frame shown for at most
`STEP_S` a message: a search the chip clocked whole is caught up over several
messages, the page asking again while the die is behind (its `cycle` below `target`),
so that the die follows at the screen's rate. ``"map": true`` brings the description
too, which the page draws from (sim.verification.die_page).

Where the die comes from is the console's `die`: a function that gives its
description, or raises UserError saying why there is none (make serve lays it out
with qflow, cached; the static site carries the one laid out where it was built).
"""

from firmware_ref.cli import UserError
from sim.watch.die import Die, Following, Unreadable

from .messages import Invalid

__all__ = ["Source", "view", "STEP_S"]

STEP_S = 0.03               # the most a message clocks the die: below a frame at 30 Hz


class Source:
    """The die a console's pages share: its description from `load()` (None: this
    console has none), read and compiled on first use."""

    def __init__(self, load=None):
        self.load = load
        self._die = None

    def die(self):
        if self._die is None:
            if self.load is None:
                raise Invalid("die: this console has no die (make die lays it out)")
            try:
                self._die = Die(self.load())
            except (UserError, Unreadable) as error:
                raise Invalid(f"die: {error}") from None
        return self._die


def view(held, watch, source, message):
    """The die's part of a chip answer for `held` (a ChipSession, which keeps its
    Following in `.die`), at `watch`'s frame shown."""
    die = source.die()
    if held.die is None or held.die.watch is not watch:
        held.die = Following(die, watch)
    following = held.die
    target = watch.cursor
    cycle, state = following.reach(target, STEP_S)
    values = following.values(cycle, state)
    answer = {"cycle": cycle, "target": target,
              "values": "".join(map(str, values)),
              "differences": [list(found) for found in following.differences(cycle, values)]}
    if message.get("map"):
        answer["map"] = die.description
    return answer
