"""Each game's view: what the page shows of it and the actions it takes, one module per
kind of game, as each game's face in the catalogue (sim.catalogue) names it (the bomb
module: ``bomb``); every game of a person and a machine on one board of nine places is
``nine``.

A module offers `NAME` (its face's view in the catalogue: the page's module that draws
it, boards/web/static/NAME.js, and the only names the page loads) and `View(link,
game)`: `begin()` once the game has begun, `act(message)` for an ``act`` message from
the page (its ``do`` and fields; a field that will not do is messages.Invalid), and
`state()`, what the page draws, with ``said``: the lines to show since the last state.
"""

import importlib

from sim import catalogue

from ..messages import Invalid

__all__ = ["module", "field", "Base"]


def module(game):
    """The view module of `game` (a name or a catalogue entry)."""
    return importlib.import_module(f"{__package__}.{catalogue.game(game).face.view}")


def field(message, name, kind, choices=None):
    """`message[name]`, checked: of `kind` and, if given, one of `choices`."""
    value = message.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)) \
            or (choices is not None and value not in choices):
        shown = "" if choices is None else f" ({_choices(choices)})"
        raise Invalid(f"{message.get('do')}: {name!r} will not do{shown}")
    return value


def _choices(choices):
    if isinstance(choices, range):
        return f"{choices.start} to {choices.stop - 1}"
    return ", ".join(map(str, choices))


class Base:
    """What every view shares: the board's link, the game's folder, and the lines said
    since the last state."""

    def __init__(self, link, game):
        self.link, self.folder = link, game
        self.said = []

    def act(self, message):
        do = message["do"]
        action = getattr(self, f"do_{do}", None)
        if action is None:
            raise Invalid(f"{self.NAME}: there is no action {do[:40]!r}; the actions "
                           f"are {', '.join(self.actions())}")
        action(message)

    @classmethod
    def actions(cls):
        return [name[3:] for name in dir(cls) if name.startswith("do_")]

    def state(self):
        said = list(self.said)
        self.said.clear()           # in place: a client's write may hold this list
        return {"view": self.NAME, "name": self.folder, "said": said}
