"""The ETH chip's benches: the paper's E.2 session, every game through the pins, lockstep with the golden model, and the chip's signal names."""
