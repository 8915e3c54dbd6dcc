"""The table: the best move of every board from block RAM in one clock (the museum's
physical limit, code L)."""
