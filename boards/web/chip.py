"""The page's view of the chip's insides: a message of kind ``chip`` acts on the page's
chip session (sim.chip.watch: the compiled chip and its golden model, clocked one edge at
a time, with history) and is answered with a ``chip`` message holding the frame shown.

The session is the page's own, kept beside its board, and closed with it. It is apart
from the board in a box the panel plays: the panel's game goes on while a person clocks
this chip by hand.
"""

from sim.backends import BackendMissing
from sim.chip.watch import LIMIT, Watch

from .messages import Invalid

__all__ = ["act", "DOES"]

NAME = "chip session"           # its name among the session's extra boards
PINS = ("userbegins", "piN", "resetN")
DOES = ("open", "new", "step", "back", "forward", "jump", "until", "key", "pin")


def _watch(session):
    watch = session.extra.get(NAME)
    if watch is None:
        try:
            watch = Watch()
        except BackendMissing as error:
            raise Invalid(f"the chip cannot be compiled here: {error}") from None
        session.extra[NAME] = watch
    return watch


def _count(message, field, default, low=0, high=LIMIT):
    value = message.get(field, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Invalid(f"chip: {field} is a whole number from {low} to {high}")
    return value


def act(session, message):
    """Do what `message` asks of `session`'s chip (on the session's thread); the view
    of the frame shown, with how many edges were clocked."""
    do = message["do"]
    if do not in DOES:
        raise Invalid(f"chip: do is one of {', '.join(DOES)}")
    if do == "new":
        old = session.extra.pop(NAME, None)
        if old is not None:
            old.close()
    watch = _watch(session)
    clocked = 0
    if do == "step":
        edges = _count(message, "edges", 1, 1)
        watch.step(edges)
        clocked = edges
    elif do == "back":
        watch.back(_count(message, "edges", 1, 1))
    elif do == "forward":
        watch.forward(_count(message, "edges", 1, 1))
    elif do == "jump":
        before = watch.head
        watch.jump(_count(message, "cycle", 0, 0, watch.head + LIMIT))
        clocked = watch.head - before
    elif do == "until":
        clocked = watch.run_until_waiting()
    elif do == "key":
        place = message.get("place")
        if place is not None and (not isinstance(place, int) or isinstance(place, bool)
                                  or not 0 <= place <= 8):
            raise Invalid("chip: place is a place from 0 to 8, or null to let go")
        watch.press(place)
    elif do == "pin":
        pin = message.get("pin")
        if pin not in PINS:
            raise Invalid(f"chip: pin is one of {', '.join(PINS)}")
        watch.set(**{pin: _count(message, "value", 0, 0, 1)})
    return {**watch.view(), "clocked": clocked}
