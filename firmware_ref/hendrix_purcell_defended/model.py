"""Hendrix and Purcell's machine with the smallest defence, one clock edge at a time:
the undefended machine's three looks (firmware_ref/hendrix_purcell), with six exception
positions looked at in look 2, before the order 5, 1, 6, ... (rules:
hdl/hendrix_purcell_defended/cartridge.py's text, read, not imported; defence.py finds
them)."""

from .. import turns
from ..hendrix_purcell import model as undefended
from ..cartridge import Probe
from ..places import EMPTY as _, GREEN as O, RED as X
from ..turns import Inputs

__all__ = ["Inputs", "Probe", "EXCEPTIONS", "Defended", "Model", "games"]

# position (places 0..8, X the machine, O the person) -> the machine's place
EXCEPTIONS = {
    (O, _, _,  _, X, O,  _, _, _): 1,       # cell 2
    (_, _, O,  _, X, _,  O, _, _): 1,       # cell 2
    (_, _, O,  _, X, _,  _, O, _): 3,       # cell 4
    (_, _, _,  _, O, _,  _, _, _): 2,       # cell 3
    (_, _, _,  _, X, O,  O, _, _): 1,       # cell 2
    (_, _, _,  _, X, O,  _, O, _): 2,       # cell 3
}


class Defended(undefended.Looks):
    exceptions = EXCEPTIONS


class Model(undefended.Model):
    engine_class = Defended


def games(limit=64):
    """Every game a person can play (firmware_ref/turns.py's `games`)."""
    return turns.games(Model(), limit)
