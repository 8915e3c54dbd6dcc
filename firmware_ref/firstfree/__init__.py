"""First free's golden model: the machine that takes the first empty place, clock by
clock at its cartridge's pins (rules: hdl/firstfree/cartridge.py's text, read, not
imported)."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
