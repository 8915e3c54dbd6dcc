"""The 1990 chip as a Tiny Tapeout project: its top and the project's files (docs/tinytapeout.md)."""
