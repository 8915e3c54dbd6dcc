"""The desk's switches: toggled by their buttons, set by the host."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from hdl.cartridge import SWITCHES


__all__ = ["Switches"]


class Switches(wiring.Component):
    """The cartridges' switches. The host's ``W`` sets one; each button press toggles
    its switch, button n switch n. The host wins over the buttons, and of buttons
    pressed on one clock the lowest.

    Parameters
    ----------
    buttons : int
        The switch buttons.
    init : int
        The switches at power-up, switch 0 in bit 0.

    Members
    -------
    set : In(1)
        The host sets switch ``number`` to ``value``.
    number : In(range(SWITCHES))
        With ``set``: the switch.
    value : In(1)
        With ``set``: its new position.
    toggle : In(buttons)
        High for one clock: button n pressed.
    switches : Out(SWITCHES)
        The switches, registered.
    """

    def __init__(self, *, buttons, init):
        self._buttons = buttons
        super().__init__({
            "set": In(1), "number": In(range(SWITCHES)), "value": In(1),
            "toggle": In(buttons), "switches": Out(SWITCHES, init=init),
        })

    def elaborate(self, platform):
        m = Module()
        switches = self.switches
        with m.If(self.set):
            m.d.sync += switches.bit_select(self.number, 1).eq(self.value)
        for n in range(self._buttons):
            with m.Elif(self.toggle[n]):
                m.d.sync += switches[n].eq(~switches[n])
        return m
