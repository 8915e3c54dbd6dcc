"""Hendrix and Purcell's neon-lamp machine's golden model, clock by clock at its
cartridge's pins (rules: hdl/hendrix_purcell/cartridge.py's text, read, not imported)."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
