"""Hendrix and Purcell's neon-lamp machine (1958) as a cartridge (issue 14's museum)."""
