"""The module's random source: a free-running 16-bit LFSR."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import Out


__all__ = ["LFSR", "SEED", "STEPS", "TAPS"]

SEED = 0xACE1               # any state but 0
STEPS = 4                   # shifts per clock: each clock's low nibble is new
TAPS = (15, 14, 12, 3)      # x^16 + x^15 + x^13 + x^4 + 1, a maximal Fibonacci LFSR


class LFSR(wiring.Component):
    """``word`` is the state on this clock; it moves on by `STEPS` shifts every clock,
    from `SEED` at power-up, whatever the module does (so the draws depend on when a
    person presses)."""

    word: Out(16, init=SEED)

    def elaborate(self, platform):
        m = Module()
        state = self.word
        for _ in range(STEPS):
            feedback = state[TAPS[0]] ^ state[TAPS[1]] ^ state[TAPS[2]] ^ state[TAPS[3]]
            state = (state << 1 | feedback)[:16]
        m.d.sync += self.word.eq(state)
        return m
