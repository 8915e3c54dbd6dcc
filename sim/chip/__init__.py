"""The ETH chip's facts for every bench: the paper's E.2 session, every game through the pins and its lanes, the chip's signal names and the views of its waves."""
