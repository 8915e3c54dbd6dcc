"""``ttt play``: a game in the terminal against its golden model."""

from sim import catalogue

from . import options

SUMMARY = ("play a game against its golden model in the terminal, by default the chip as "
           "the paper's main program (F.3)")
MAKE = ("play",)
ABOUT = f"""\
Play a game in the terminal against its golden model, which plays as the board
does. The default, {catalogue.CHIP.name}, is the main program of Geiser and Marzetta's report
(appendix F.3): you enter a place as a column and a row (B2), and the chip
answers with its move and its think time in clock cycles and in microseconds at
--clock; when the chip opens, it plays where its free-running counter points
(--seed sets the counter). --game picks another game; each game's client says
how to play it. Nothing is written. make play runs it (make play GAME=tactic)."""


def arguments(parser):
    from ..host import clients
    options.clock(parser)
    parser.add_argument("--seed", type=int, help="seed for the chip's random counter "
                        "(ktane: for the pauses between presses, which the module's LFSR "
                        "sees)")
    parser.add_argument("--game", default=catalogue.CHIP.name, metavar="GAME",
                        help=f"one of {', '.join(catalogue.names())} (default "
                        f"{catalogue.CHIP.name}: the chip, as the paper's main program plays "
                        f"it); {clients.described()}")


def run(args):
    from ..host import clients, prompt
    catalogue.game(args.game)       # here, not in the parser: one line, no usage
    return clients.client(args.game).play_golden(prompt.typed, print, game=args.game,
                                                 seed=args.seed, clock=args.clock)
