"""Checks that are not about a board: every game in lockstep (make verify), proofs (make formal), equivalence, gate-level netlists and mutants."""
