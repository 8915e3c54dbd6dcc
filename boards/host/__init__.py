"""The host's side: the serial protocol and link, the game clients, and the lookup of
the client a game's face in the catalogue names (clients.py)."""
