"""Baum's G's golden model: the machine that moves where Baum's G (firmware_ref/g.py)
is best, clock by clock at its cartridge's pins (rules: hdl/baum_g/cartridge.py's text,
read, not imported)."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
