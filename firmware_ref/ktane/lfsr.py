"""The module's random source: a 16-bit Fibonacci LFSR, x^16 + x^15 + x^13 + x^4 + 1,
stepped four times a clock, so that each clock's low nibble is new. The core has its
own (hdl/ktane/lfsr.py); both start at `SEED` at power-up and never stop."""

__all__ = ["SEED", "STEPS", "step", "Words"]

SEED = 0xACE1
STEPS = 4


def step(state):
    """The state one clock later (`STEPS` shifts)."""
    for _ in range(STEPS):
        feedback = (state >> 15 ^ state >> 14 ^ state >> 12 ^ state >> 3) & 1
        state = (state << 1 | feedback) & 0xFFFF
    return state


class Words:
    """The state on each clock from power-up, forever: an iterator that can be copied
    (a model's copy goes on drawing what the original would)."""

    def __init__(self, state=SEED):
        self.state = state

    def __iter__(self):
        return self

    def __next__(self):
        word, self.state = self.state, step(self.state)
        return word
