"""The host's side: the serial protocol and link, the game clients, and the one table
that picks each game's client (clients.py)."""
