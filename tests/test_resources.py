"""The front panel's pins (boards/gateware/resources.py) are docs/boards.md's wiring
table, as the build's pin constraints have them."""

import re

from boards.builds.build import plan
from boards.gateware.top import target
from user import ROOT


def test_the_wiring_table_in_the_docs_is_the_pin_plan():
    pcf = plan(target("icebreaker")).files["ttt.pcf"]
    table = re.findall(r"^\| (row|sense|red|green) (\d) \| PMOD1[AB] pin \d+ \| (\d+) \|",
                       (ROOT / "docs/boards.md").read_text(), re.M)
    assert len(table) == 12
    for name, bit, pin in table:
        assert f"set_io front_panel_0__{name}__io[{bit}] {pin}\n" in pcf


# How each family's constraints place a pin of the panel: (signal, bit, FPGA pin).
PANEL_PINS = {
    "iCE40": r"^set_io front_panel_0__(\w+)__io\[(\d)\] (\w+)$",
    "ECP5": r'^LOCATE COMP "front_panel_0__(\w+)__io\[(\d)\]" SITE "(\w+)";$',
    "Gowin": r'^IO_LOC "front_panel_0__(\w+)__io\[(\d)\]" (\w+);$'}


def test_every_boards_panel_table_in_the_docs_is_its_pin_plan():
    # docs/boards.md's table of the other boards' panel pins: a column a board, a row a
    # signal, each cell ending in the FPGA's pin, as that board's build places it.
    from boards.gateware.top import BOARDS
    text = (ROOT / "docs/boards.md").read_text()
    header = re.search(r"^\| signal \| (`\w+`(?: \| `\w+`)*) \|$", text, re.M)
    columns = [name.strip("`") for name in header[1].split(" | ")]
    rows = re.findall(r"^\| (row|sense|red|green) (\d) \| ((?:[^|\n]+ \(\w+\) \| ?)+)$",
                      text[header.end():], re.M)
    assert len(rows) == 12
    with_a_panel = {name for name, board in BOARDS.items() if board.front_panel}
    assert set(columns) == with_a_panel - {"icebreaker"}
    for name in columns:
        board = BOARDS[name]
        constraints = plan(board).files[board.family.constraints]
        placed = {(signal, bit): pin for signal, bit, pin
                  in re.findall(PANEL_PINS[board.family.name], constraints, re.M)}
        shown = {(signal, bit): re.findall(r"\((\w+)\)", cells)[columns.index(name)]
                 for signal, bit, cells in rows}
        assert shown == placed, name
