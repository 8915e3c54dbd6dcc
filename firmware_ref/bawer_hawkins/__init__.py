"""Bawer and Hawkins's cigarette box's golden model, clock by clock at its cartridge's
pins (rules: hdl/bawer_hawkins/cartridge.py's text, read, not imported)."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
