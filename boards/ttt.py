"""The ETH Zurich tic-tac-toe chip of 1990, rebuilt, and the games that run on its
board: one command with a subcommand for each job. Every make verb runs one of them
(make sim runs ttt e2, make play runs ttt play, and so on); ttt COMMAND -h says what a
command does and lists its options.
"""

# For developers: this is the dispatcher. Each subcommand is a module of boards/
# commands/, found through its table; its help, its options and its run are there. It
# lives at the top of the layering (firmware_ref < hdl < sim < boards) because its verbs
# reach all of them. Listing the verbs imports nothing heavy; a verb's options are
# added only when it is the one being run, and its work is imported when it runs.
# Every subcommand runs through `firmware_ref.cli.run`: a user error is one line and
# status 2, Ctrl-C 130.

import argparse
import sys

from firmware_ref import cli

from . import commands

__all__ = ["main", "parser"]


def parser(verb=None):
    """The command line: every verb by its name and summary, with the options of `verb`
    (a name), the one to be run."""
    top = argparse.ArgumentParser(prog="ttt", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    subcommands = top.add_subparsers(dest="command", required=True, metavar="command")
    for name, module in commands.verbs().items():
        sub = subcommands.add_parser(name, help=commands.summary(module),
                                     description=module.ABOUT,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(refuse=sub.error)
        if name == verb:
            module.arguments(sub)
    return top


def _main(argv):
    verb = argv[0] if argv and argv[0] in commands.NAMES else None
    args = parser(verb).parse_args(argv)
    try:
        return commands.verb(args.command).run(args)
    except commands.Refused as refused:
        args.refuse(str(refused))


def main(argv=None):
    """The ``ttt`` script (and ``python -m boards``): the exit status of `argv`'s
    subcommand (default: the command line's)."""
    return cli.run(_main, sys.argv[1:] if argv is None else argv)
