"""The desk's switches: toggled by their buttons, set by the host."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from hdl.cartridge import SWITCHES

from .command import Command, CommandBus


__all__ = ["Switches"]


class Switches(wiring.Component):
    """The cartridges' switches. The host's ``SWITCH`` sets one; each button press
    toggles its switch, button n switch n. The host wins over the buttons, and of
    buttons pressed on one clock the lowest.

    Parameters
    ----------
    buttons : int
        The switch buttons.
    init : int
        The switches at power-up, switch 0 in bit 0.

    Members
    -------
    commands : In(CommandBus())
        The host's: ``SWITCH`` is this block's.
    toggle : In(buttons)
        High for one clock: button n pressed.
    switches : Out(SWITCHES)
        The switches, registered.
    """

    def __init__(self, *, buttons, init):
        self._buttons = buttons
        super().__init__({
            "commands": In(CommandBus()), "toggle": In(buttons), "switches": Out(SWITCHES, init=init),
        })

    def elaborate(self, platform):
        m = Module()
        switches, commands = self.switches, self.commands
        with m.If(commands.valid & (commands.command == Command.SWITCH)):
            m.d.sync += switches.bit_select(commands.argument.switch, 1).eq(
                commands.argument.on)
        for n in range(self._buttons):
            with m.Elif(self.toggle[n]):
                m.d.sync += switches[n].eq(~switches[n])
        return m
