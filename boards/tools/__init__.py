"""Tooling: bitstream builds and programming, the board in a box, and the desk in simulation."""
