"""The workload of the speed table: random sessions at the chip's pins
(sim.chip.stimulus), the same on every run, as the arrays every simulator's `run` takes
(sim.backends), and what the golden model shows in them."""

import random

import numpy as np

from firmware_ref.eth.batch import INPUT_COLUMNS, columns, record_session

from sim.chip.stimulus import random_session

__all__ = ["SESSION_CYCLES", "sessions", "inputs", "one_chip", "expected", "one_chip_mode"]

SESSION_CYCLES = 1500


def sessions(count):
    """`count` random sessions of SESSION_CYCLES cycles each, seeded by their number."""
    return [random_session(random.Random(seed), SESSION_CYCLES) for seed in range(count)]


def inputs(sessions):
    """The sessions as lanes side by side: (sessions, cycles, INPUT_COLUMNS) uint32."""
    return np.array([[[getattr(i, c) for c in INPUT_COLUMNS] for i in s] for s in sessions],
                    np.uint32)


def one_chip(sessions):
    """The sessions one after the other on one chip: one lane, (1, cycles, inputs)."""
    return inputs(sessions).reshape(1, -1, len(INPUT_COLUMNS))


def expected(sessions):
    """The golden model's probes after every edge of each session, (sessions, cycles,
    PROBE_COLUMNS)."""
    return np.array([columns(record_session(session).rows)[1] for session in sessions])


def one_chip_mode(count):
    """How a row of `count` sessions on one chip names its mode."""
    return f"{count} session{'s' if count > 1 else ''}, one chip"
