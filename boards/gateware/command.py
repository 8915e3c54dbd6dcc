"""The host's commands, as the link gives them to the desk: a bus of `Command` and its
argument."""

from amaranth.lib import data, enum, wiring
from amaranth.lib.wiring import Out

from hdl.cartridge import PLACE, SWITCHES


__all__ = ["Command", "Argument", "CommandBus"]


class Command(enum.Enum, shape=3):
    """What a frame of docs/boards.md asks, and ``PLACE``, a place of an ``R`` frame as it
    arrives (the desk shifts it into its position at once)."""
    NONE = 0            # nothing; at a frame's end, a malformed frame
    STATUS = 1          # S
    # The two that begin a game differ in one bit: "either" is a short decode.
    RESET = 2           # R, or R and nine places
    GAME = 3            # G and a cartridge's number
    KEY = 4             # K0 .. K8
    SWITCH = 5          # W and a switch 0..3 and 0 or 1
    TEXT = 6            # T and bytes for the cartridge
    PLACE = 7           # a place of an R frame


class Argument(data.Struct):
    """A command's argument: a field per command, each read only with its command.

    Members
    -------
    key : 9
        ``KEY``: the place, one hot (bit k = place k), so the desk decodes no key.
    game : 4
        ``GAME``: the cartridge.
    switch : range(SWITCHES)
        ``SWITCH``: the switch.
    on : 1
        ``SWITCH``: its new position.
    place : PLACE
        ``PLACE``: the next place (place 0 first); it moves the places before it down by
        one, so the ninth lands on place 8.
    empty : 1
        ``RESET``, ``GAME``: the game begins from the empty board (an ``R`` frame
        without places; every ``G`` frame).
    """
    key: 9
    game: 4
    switch: range(SWITCHES)
    on: 1
    place: PLACE
    empty: 1


class CommandBus(wiring.Signature):
    """The host's commands, one at a time, each ``valid`` for one clock. There is no
    ``ready``: every block a command concerns acts on it the clock it comes, so one bus
    drives them all (``wiring.connect`` of one source to several blocks).

    Members
    -------
    valid : Out(1)
        A command now.
    command : Out(Command)
        With ``valid``: the command.
    argument : Out(Argument)
        With ``valid``: its argument.
    """

    def __init__(self):
        super().__init__({
            "valid": Out(1),
            "command": Out(Command),
            "argument": Out(Argument),
        })
