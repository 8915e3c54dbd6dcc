"""The chip on iCE40 boards: front panel, host link, bitstreams (docs/boards.md)."""
