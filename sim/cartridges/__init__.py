"""The cartridges' bench: each game found by name, played in lockstep with its golden model at the console's pins, and the museum's scores."""
