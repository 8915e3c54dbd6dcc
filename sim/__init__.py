"""The benches of the cores: lockstep with the golden models, waves, the compiled
and netlist backends, and the exhaustive checks (README.md, docs/verification.md).

`BUILD` is where every generated file of the project goes (never committed). `Mismatch`
is what every bench raises at the first difference between a core and its golden model.
`CLOCK_HZ` is the console's clock: the oscillator of the 12 MHz boards (another board's
desk runs at its own, which its module in boards/gateware/boards/ says), the board in a
box's and the page's, and what a bench gives a core that counts time (its blink)."""

from pathlib import Path

__all__ = ["ROOT", "BUILD", "CLOCK_HZ", "Mismatch", "shown", "golden_sources"]

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
CLOCK_HZ = 12_000_000


class Mismatch(AssertionError):
    """A core and its golden model disagree: the message says where first (the game or
    lane, the clock, the signal, both values)."""


def shown(path):
    """`path` below the repository as a relative path, as the user's commands name it."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def golden_sources():
    """Every source of the golden models (firmware_ref/, whose modules share helpers),
    each with its path: what a cached recording of any golden model is keyed by."""
    folder = ROOT / "firmware_ref"
    return [f"{path.relative_to(folder)}\0{path.read_text()}"
            for path in sorted(folder.rglob("*.py"))]
