"""Golden models, one package per game (firmware_ref/<game>/, the same name as its core in
hdl/), and the command-line helpers they share (cli.py). No model imports a core."""
