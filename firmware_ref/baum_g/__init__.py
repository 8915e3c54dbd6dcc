"""Baum's G's golden model: the machine that moves where Baum's G is best, clock by
clock at its cartridge's pins (rules: hdl/baum_g/cartridge.py's text, read, not
imported), and Baum's own statement of the strategy (X maximises, O minimises) to check
the machine's reading against."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
