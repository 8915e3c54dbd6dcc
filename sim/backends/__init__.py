"""Faster ways to run a core than Amaranth's simulator: compiled with CXXRTL, and the exported netlist under cocotb."""
