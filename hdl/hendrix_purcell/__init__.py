"""Hendrix and Purcell's neon-lamp machine (1958) as a cartridge of the museum."""
