"""Ultimate Tic-Tac-Toe: the rules on bitboards (rules.py), the engine
(engine.py), its matches (match.py) and the cartridge clock by clock (model.py);
`python -m firmware_ref.ultimate legal|winner|move` (docs/ultimate.md)."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
