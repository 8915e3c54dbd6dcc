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

