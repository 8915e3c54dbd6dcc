"""The bomb module "Tic-Tac-Toe" of Keep Talking and Nobody Explodes:
the expert with the manual page (manual.py), the module's rules (module.py), its
random source (lfsr.py) and the cartridge clock by clock (model.py).
`python -m firmware_ref.ktane` is the expert's command line (docs/ktane.md)."""

from .model import Inputs, Model, Probe, games

__all__ = ["Inputs", "Model", "Probe", "games"]
