"""The table's golden model: a game of turns whose machine plays every board's best
move at once, and the table of those moves that the core is built from (rules:
hdl/table/cartridge.py's text, read, not imported)."""

from .model import Inputs, Model, Probe, games
from .rom import parameters

__all__ = ["Inputs", "Model", "Probe", "games", "parameters"]
