"""A game's golden model played at the console's pins: every output after every clock
of its games, the clocks that games have in common played once.

A golden model that plays at the console's pins offers `Model` (``set`` the inputs,
``tick`` the clock, read ``probe``), `Inputs` and `Probe` (dataclasses named after the
cartridge's members, ``rx_``/``tx_`` for the streams' fields) and `games()`, the games a
person can play, each the inputs of each clock from power-up (docs/cartridge.md,
"Adding a game").
"""

import operator

from sim.waves.game import fields

__all__ = ["Golden"]


class Golden:
    """A game's golden outputs, after each clock (`play`). Games that begin alike, as
    ``games()`` gives them depth first, share the golden model's clocks they have in
    common, when its Model can ``copy()`` itself: it is copied where the inputs
    change (a key, a start), and the next game goes on from the copy where it leaves
    the last one. What it computes is what a fresh Model would, clock by clock.
    `given`: the Model's keyword arguments, the core's (sim.catalogue's ``given``)."""

    def __init__(self, package, **given):
        self.package, self.given = package, given
        self.inputs, self.outputs = fields(package)
        self._probe = operator.attrgetter(*self.outputs)
        self._game, self._expected, self._copies = [], [], {}

    def play(self, game):
        """The outputs (tuples in the Probe's order) after each clock of `game`."""
        last, same = self._game, 0
        while same < min(len(game), len(last)) and (game[same] is last[same] or
                                                     game[same] == last[same]):
            same += 1
        copies = {clock: model for clock, model in self._copies.items() if clock <= same}
        begin = max(copies, default=0)
        model = copies[begin].copy() if begin else self.package.Model(**self.given)
        expected = self._expected[:begin]
        sharing = hasattr(model, "copy")
        for clock in range(begin, len(game)):
            pins = game[clock]
            if sharing and clock and pins is not game[clock - 1] and clock not in copies:
                copies[clock] = model.copy()
            model.set(pins)
            model.tick()
            expected.append(self._probe(model.probe))
        self._game, self._expected, self._copies = game, expected, copies
        return expected
