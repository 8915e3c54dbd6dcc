"""What several verbs take alike: a clock in MHz, games by name, a TCP port, where a
report goes, and paths said as the user typed them. Nothing here imports more than the catalogue; the museum's
machines are looked up only when a user names them."""

import argparse
from pathlib import Path

from sim import BUILD, catalogue

__all__ = ["PAPER_MHZ", "megahertz", "seconds", "clock", "games", "game_option", "tcp_port",
           "out", "relative"]

PAPER_MHZ = 6.0             # the paper's clock, for think times in microseconds
MUSEUM = "museum"           # GAME=museum: every machine of the museum


def megahertz(text):
    """An argparse type: a clock frequency in MHz, above 0."""
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive frequency in MHz")
    return value


def seconds(text):
    """An argparse type: a time in seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = -1
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time in seconds (0 or more)")
    return value


def clock(parser):
    """``--clock MHZ``: the clock that think times are given at."""
    parser.add_argument("--clock", type=megahertz, default=PAPER_MHZ, metavar="MHZ",
                        help="clock frequency for times (default: 6, the paper's)")


def games(text):
    """An argparse type, GAME: one game or several, comma-separated, each a game of the
    catalogue, or ``museum``: the museum's machines."""
    if text.strip() == MUSEUM:
        from sim.cartridges import scores
        text = ",".join(scores.MACHINES.values())
    named = tuple(name.strip() for name in text.split(","))
    known = catalogue.names()
    unknown = [name for name in named if name not in known]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown game{'s' * (len(unknown) > 1)} {', '.join(map(repr, unknown))}; "
            f"the games: {', '.join(known)}; or {MUSEUM} (all the museum's machines)")
    repeated = sorted({name for name in named if named.count(name) > 1}, key=named.index)
    if repeated:
        raise argparse.ArgumentTypeError(
            f"{', '.join(map(repr, repeated))} named more than once in {text!r}: name "
            f"each game once")
    return named


def game_option(parser, what):
    """``--game``: `what` the games are to the verb, by default the 1990 chip."""
    parser.add_argument("--game", type=games, default=(catalogue.CHIP.name,),
                        help=f"{what} (default {catalogue.CHIP.name})")


def tcp_port(text):
    """An argparse type: a TCP port number, 0 for any free one."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535)")
    return port


def out(parser, files):
    """``--out``: where a report's `files` go."""
    parser.add_argument("--out", type=Path, default=BUILD,
                        help=f"where to write {files} (default: build/)")


def relative(path):
    """`path` as a user typed it: relative to the working directory where it is below."""
    path = Path(path).resolve()
    return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
