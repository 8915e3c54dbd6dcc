"""Bitstreams with the toolchain from PyPI, their reports and costs, and programming the boards."""
