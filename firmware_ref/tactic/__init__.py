"""Tactic-Toe (seed 004): rules and resolver (rules.py), a referee for whole games
(referee.py) and the machine's planner (planner.py); `python -m firmware_ref.tactic`."""
