"""Turbo's golden model: the alpha-beta machine clock by clock at its cartridge's pins
(rules: hdl/turbo/cartridge.py's text, read, not imported)."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
