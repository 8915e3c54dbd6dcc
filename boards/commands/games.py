"""``ttt games``: every game a user can play against the chip, and its think times."""

from . import options

SUMMARY = "every game a user can play against the chip, and its think times"
MAKE = ("games",)
ABOUT = """\
Play every game a user can play against the chip (1955: the user opens, or the
chip opens at each place its random counter can point to) on the golden model,
and print the outcomes and the chip's think times: the worst position, the
means, and every position over the 1 ms at 6 MHz that the report's section 6
promises. It writes nothing. A few seconds. --clock gives the times at another
clock. make games runs it."""


def arguments(parser):
    options.clock(parser)


def run(args):
    from sim.chip import games
    print(games.format_report(games.survey(), args.clock))
