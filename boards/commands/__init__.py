"""The verbs of ``ttt``: one module each, found through one table, `NAMES`.

A verb's module holds the whole verb, as a Glasgow applet does:

- `SUMMARY`: its line in ``ttt -h``, and the start of its make verb's line in
  ``make help``;
- `MAKE`: the make verbs that run it, the one it is named after first (``()`` for a
  verb only ``ttt`` offers);
- `ABOUT`: what ``ttt VERB -h`` says;
- ``arguments(parser)``: its options, added to its argparse parser;
- ``run(args)``: its work; it returns the exit status (None for 0), raises
  `firmware_ref.cli.UserError` for one line and status 2, or `Refused` for its usage and
  a line, as argparse refuses arguments.

Importing a verb's module costs nothing: ``ttt -h`` imports every one. ``arguments``
may import the module whose choices it offers (the boards, the simulators), and boards/
ttt.py calls it only for the verb being run; ``run`` imports the work. tests/
test_verbs.py holds ``ttt -h``, ``make help`` and docs/commands.md to this table.

A help, for ``ttt`` and for every other command line here (``python -m
firmware_ref.ktane``, ...), is written for the person who runs it: what the command
does, what it prints and writes where, about how long it takes (measured on the
project's 2-core machine) and what can be chosen. It names the games and their
sources, and no module of the project (tests/test_help.py).
"""

import importlib

__all__ = ["NAMES", "Refused", "verb", "verbs", "summary"]

# Every verb, in the order ttt -h lists them; verb `name` is the module of this package
# named so, with '_' for '-'.
NAMES = ("e2", "waves", "games", "play", "move", "verilog", "netlist", "compare",
         "verify", "benchmark", "museum", "formal", "engines", "bitstream", "prog",
         "load", "cost", "play-board", "serve", "site", "tinytapeout", "die", "boards")


class Refused(Exception):
    """Arguments that parse but do not go together: the verb's usage and this line,
    status 2, as argparse refuses arguments."""


def verb(name):
    """The module of verb `name`."""
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def verbs():
    """{name: module} of every verb, in the table's order."""
    return {name: verb(name) for name in NAMES}


def summary(module):
    """A verb's line in ``ttt -h``: its summary, and the make verb named after it."""
    return f"{module.SUMMARY} (make {module.MAKE[0]})" if module.MAKE else module.SUMMARY
