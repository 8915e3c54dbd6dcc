"""Turbo's golden model: the alpha-beta machine clock by clock at its cartridge's pins
(rules: hdl/turbo/cartridge.py's text, read, not imported)."""

from .. import perfect
from .model import Inputs, Model, Probe, Search, games

__all__ = ["Inputs", "Model", "Probe", "games", "parameters"]


def parameters():
    """The core's keyword arguments: the boards its blunder lamp lights on."""
    return {"blunders": perfect.blunders(Search)}
