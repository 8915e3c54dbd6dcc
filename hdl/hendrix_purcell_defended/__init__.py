"""Hendrix and Purcell's machine with the smallest defence that never loses, as a
cartridge of the museum."""
