"""The ETH chip's golden models: alg.c in Python (alg.py), the chip cycle by cycle
(cycle.py), many games at once (batch.py), and `make play` (ttmain.py)."""
