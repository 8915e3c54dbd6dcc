"""The game cores: one package per cartridge (hdl/<game>/), and the console's cartridge
signature they implement (hdl/cartridge.py). Nothing here knows a testbench or a board."""
