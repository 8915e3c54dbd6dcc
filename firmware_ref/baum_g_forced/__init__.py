"""Baum's G with forced moves played through: the golden model, clock by clock at its
cartridge's pins (rules: hdl/baum_g_forced/cartridge.py's text, read, not imported)."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
