"""The console's gateware: the desk around a cartridge, its panel, keys, UART and host link,
and the board tops."""
