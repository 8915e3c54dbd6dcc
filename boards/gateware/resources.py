"""The front panel as amaranth-boards resources: what a person wires to the PMODs, on
the pins a board's module (boards/gateware/boards/) gives it.

docs/boards.md has the pin table and the drawing; tests/test_resources.py checks that the
table and these declarations agree.
"""

from amaranth.build import Attrs, Pins, PinsN, Resource, Subsignal


__all__ = ["front_panel"]


def front_panel(*, rows, sense, red, green, attrs=None, pullup=Attrs(PULLUP=1)):
    """The 3x3 display and key matrix, on connector pins given as ``(pins, conn)``
    (``conn`` None: the FPGA's own pin names).

    ``row`` sinks the common cathodes of a row's LEDs and the key diodes (active low).
    ``sense`` are the key matrix's return lines, pulled up in the FPGA: a closed key
    pulls its line low through its diode while its row is active. ``red`` and ``green``
    drive the LEDs' anodes through resistors (active high). ``pullup`` is the
    family's attribute for a pull-up (its `Family.pullup`): the iCE40's by default.
    """
    attrs = attrs or Attrs()
    return Resource("front_panel", 0,
        Subsignal("row", PinsN(rows[0], dir="o", conn=rows[1])),
        Subsignal("sense", PinsN(sense[0], dir="i", conn=sense[1]), pullup),
        Subsignal("red", Pins(red[0], dir="o", conn=red[1])),
        Subsignal("green", Pins(green[0], dir="o", conn=green[1])),
        attrs,
    )

