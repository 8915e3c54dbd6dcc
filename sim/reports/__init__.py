"""Reports measured across the project: the benchmark (make benchmark) and the museum (make museum)."""
