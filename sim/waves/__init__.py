"""Waveform files: reading and writing VCD and FST, the golden model's waves, GTKWave save files, and comparing two files."""
