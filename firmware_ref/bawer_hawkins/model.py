"""Bawer and Hawkins's tick-tack-toe in a cigarette box (1970), one clock edge at a time:
a game of turns (firmware_ref/turns.py) in which the person always begins and each
cell the person takes lights a wired answer (Baum's figure 3), read in the frame of
the box as the person has turned it (rules: hdl/bawer_hawkins/cartridge.py's text,
read, not imported)."""

from .. import turns
from ..cartridge import Probe
from ..places import EMPTY, GREEN, RED
from ..turns import Inputs

__all__ = ["Inputs", "Probe", "ANSWERS", "CORNERS", "turned", "Box", "Model", "games"]

# Figure 3, cells 1..9 as places 0..8: the person's cell -> the box's answer.
ANSWERS = {cell - 1: answer - 1 for cell, answer in
           ((1, 5), (2, 3), (3, 2), (4, 7), (6, 8), (7, 4), (8, 6), (9, 8))}
CORNERS = (0, 2, 8, 6)      # cell 1 after 0, 1, 2, 3 quarter turns clockwise


def turned(cell, turns):
    """The board's place under the box's `cell` when the box is turned `turns` quarter
    turns clockwise."""
    for _ in range(turns):
        row, col = divmod(cell, 3)
        cell = 3 * col + 2 - row
    return cell


class Box:
    """The engine: `frame` (quarter turns) set at the box's first answer, `seen` the
    person's stones at its last answer."""

    def __init__(self):
        self.frame = 0
        self.seen = frozenset()

    def tick(self, places, think):
        if not think:
            return None
        greens = [k for k in range(9) if places[k] == GREEN]
        if RED not in places:       # the box's first answer: the person has turned it
            cell = greens[0] if greens else None
            frame = CORNERS.index(cell) if cell in CORNERS else 0
        else:
            new = [k for k in greens if k not in self.seen]
            cell = new[0] if new else None
            frame = self.frame
        box = {turned(k, frame): k for k in range(9)}       # board place -> box cell
        answer = ANSWERS.get(box[cell]) if cell is not None else None
        if answer is None or places[turned(answer, frame)] != EMPTY:
            answer = next(k for k in range(9) if places[turned(k, frame)] == EMPTY)
        self.frame, self.seen = frame, frozenset(greens)
        return turned(answer, frame)


class Model(turns.Model):
    blunder_lamp = True
    can_begin = False
    engine_class = Box


def games(limit=64):
    """Every game a person can play (firmware_ref/turns.py's `games`)."""
    return turns.games(Model(), limit)
