"""Hendrix and Purcell's machine with the smallest defence that never loses: its golden
model (rules: hdl/hendrix_purcell_defended/cartridge.py's text, read, not imported)."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
