"""The board in a box: the desk that is flashed, compiled behind a pseudo-terminal, and the desk in Amaranth simulation."""
