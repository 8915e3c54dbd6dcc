"""The benches of the cores: lockstep with the golden models, waves, the compiled
and netlist backends, and the exhaustive checks (README.md, docs/verification.md).

`BUILD` is where every generated file of the project goes (never committed)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
