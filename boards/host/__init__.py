"""The host's software: the serial protocol and the terminal client."""
