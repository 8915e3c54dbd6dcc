"""The chip's insides watched one edge at a time, for the page's chip: the compiled chip and its golden model clocked together (`watch`), with its clock, bounded history and waves beside it."""
