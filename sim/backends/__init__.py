"""Faster ways to run a core than Amaranth's simulator: compiled with CXXRTL, and the
exported netlist under cocotb.

`BACKENDS` are the simulators a core runs on, the fastest first, by the names ``ttt
verify --backend`` takes: ``compiled`` (CXXRTL, compiled.py), ``verilator`` (the exported
netlist on Verilator under cocotb) and ``amaranth`` (Amaranth's own simulator, the core
as it is). Where one cannot run, `BackendMissing` says why in one line."""

from firmware_ref.cli import UserError

__all__ = ["BACKENDS", "PLAIN_VERILATOR", "BackendMissing"]

BACKENDS = ("compiled", "verilator", "amaranth")
# Verilator with a plain C++ harness (verilated.py): the peer the others are measured
# against, and where it is the faster, the default (sim.verification.verify).
PLAIN_VERILATOR = "verilator-cxx"


class BackendMissing(UserError):
    """A backend's tool is not installed; the one line says which and how to get it."""
