"""David Dickerson's Tactic-Toe: rules and resolver (rules.py), a referee for whole games
(referee.py), the machine's planner (planner.py), the machine's matches (match.py) and
the cartridge clock by clock (model.py); `python -m firmware_ref.tactic`."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
