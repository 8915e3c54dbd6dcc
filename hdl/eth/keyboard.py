"""The keyboard input (the report's §4): a register on the keyboardN pins and its encoder."""

from amaranth.hdl import Module, Signal
from amaranth.lib.wiring import In, Out

from .scan import Scanned


__all__ = ["KEYS", "Keyboard"]


# §4: "keyboardN0 - keyboardN8", one key per place.
KEYS = 9


class Keyboard(Scanned):
    """The registered keyboard and its key encoder.

    The nine active-low ``keyboardN`` lines are sampled at every edge, reset included (the
    E.2 trace takes a key while ``resetN`` is low), and the register has no reset. A key
    sampled at one edge acts at the next. The encoder reports a key only when exactly one
    line is low: a chord of two or more keys counts as no key (docs/decisions.md).

    Members
    -------
    keyboardN : In(9)
        The pins, active low.
    keypressed : Out(1)
        Combinational. Exactly one registered line is low.
    key : Out(4)
        Combinational. Its number, 0..8 (0 when ``keypressed`` is low).

    Attributes
    ----------
    keyboard : Signal(9)
        The registered lines, active low; powers up as all ones (no key).
    """

    scan_block = "keyboard"

    keyboardN: In(KEYS)
    keypressed: Out(1)
    key: Out(4)

    def __init__(self):
        super().__init__()
        self.keyboard = Signal(KEYS, init=(1 << KEYS) - 1)

    def elaborate(self, platform):
        m = Module()

        m.d.sync += self.keyboard.eq(self.keyboardN)

        pressed = Signal(KEYS)
        m.d.comb += pressed.eq(~self.keyboard)
        with m.Switch(pressed):
            for k in range(KEYS):
                # Exactly one line low; every other pattern (none, or a chord) is no key.
                with m.Case(1 << k):
                    m.d.comb += [
                        self.keypressed.eq(1),
                        self.key.eq(k),
                    ]

        self.add_scan(m)

        return m
