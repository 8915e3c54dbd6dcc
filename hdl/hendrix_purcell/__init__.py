"""Hendrix and Purcell's neon-lamp machine (late 1950s) as a cartridge (issue 14's museum)."""
