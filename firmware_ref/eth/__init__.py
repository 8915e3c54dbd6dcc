"""The ETH chip's golden models: alg.c in Python (alg.py), the chip cycle by cycle
(cycle.py), many games at once (batch.py), `make play` (ttmain.py), and the chip as a
cartridge at the console's pins (cartridge.py).

The package offers the cartridge's golden model as every game's package does
(docs/cartridge.md, "Adding a game"): `Model`, `Inputs`, `Probe` and `games` are
cartridge.py's, imported when first asked for, so that ``python -m firmware_ref.eth.alg``
runs alg.py before anything imports it. The chip's own pins are cycle.py's `Inputs`
and `Probe`.
"""

__all__ = ["Model", "Inputs", "Probe", "games"]


def __getattr__(name):
    if name in __all__:
        from . import cartridge
        return getattr(cartridge, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
