"""Formal proofs of the chip with SBY: ``make formal`` (docs/formal.md)."""
