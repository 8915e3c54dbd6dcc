"""The die in the page's Worker: the description make die's layout gave where the site
was built (sim.verification.die_page), which build.py puts beside the project's
modules in the Worker's files, read when the page first shows the die."""

import json
from pathlib import Path

from firmware_ref.cli import UserError

__all__ = ["DIE", "die"]

DIE = "die.json"            # beside the packages, at the top of the Worker's files


def die():
    """The die laid out where the site was built, or why there is none."""
    found = Path(__file__).parents[2] / DIE
    if not found.is_file():
        raise UserError("this site was built where the die was not laid out (make die "
                        "needs qflow: apt-get install qflow qflow-tech-osu035)")
    return json.loads(found.read_text())
