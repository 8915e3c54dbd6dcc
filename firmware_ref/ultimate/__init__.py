"""Ultimate Tic-Tac-Toe (seed 001): the rules on bitboards (rules.py) and their command
line, `python -m firmware_ref.ultimate legal|winner` (docs/ultimate.md)."""
