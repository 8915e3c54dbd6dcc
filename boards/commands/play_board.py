"""``ttt play-board``: a board from the terminal over its serial port, or the board in a
box. The box is made here, above the host's clients: boards/host/console.py plays
whatever stream it is given."""

from firmware_ref.cli import UserError
from sim import catalogue

from . import options

SUMMARY = ("play the board over its USB serial port, or the board in a box (simulated) "
           "with no port")
MAKE = ("play-board",)
ABOUT = """\
Play a board from the terminal over its USB serial port (--port /dev/ttyUSB1),
or with no port the board in a box: the desk and its cartridges as they are
flashed, simulated at the board's 115 200 baud bit timing behind a
pseudo-terminal, with the same client. Places are named as in ttt play, a column
A-C and a row 1-3; the client's help lists what else it takes. The box is
compiled the first time, in 4 to 13 s, about 50 s with Ultimate (it says how long
first), and cached under build/compiled/; a move answers in milliseconds. --game picks the box's cartridges. make play-board runs
it (make play-board PORT=/dev/ttyUSB1 for a board)."""


def arguments(parser):
    parser.add_argument("--port", help="the serial port, e.g. /dev/ttyUSB1 (default: the "
                        "board in a box, the desk and its cartridges simulated)")
    options.game_option(parser, "without --port: the box's cartridges")


def run(args):
    from ..host import console, prompt
    from ..host.link import open_port
    if not args.port:
        return play_box(args.game, read=prompt.typed, write=prompt.said)
    with open_port(args.port) as stream:
        return console.play(stream, read=prompt.typed, write=prompt.said)


def play_box(games=(catalogue.CHIP.name,), *, read, write):
    """Play the board in a box holding `games`, reading the player's lines with `read`
    and saying what the console says with `write`; the exit status, or one line."""
    from sim.backends.compiled import BackendMissing

    from ..box.box import Box
    from ..host import console
    from ..host.link import open_box
    try:
        box = Box(games, log=write)
    except BackendMissing as error:
        raise UserError(f"the board in a box cannot be compiled: {error}") from None
    with box:
        machines = " + ".join(catalogue.game(name).machine for name in games)
        write(f"no PORT given: playing the board in a box (simulated desk + {machines}, "
              f"{box.port})")
        try:
            with open_box(box) as stream:
                return console.play(stream, read=read, write=write)
        except UserError:
            if box.error:       # the client heard nothing because the box had stopped
                raise UserError(f"the board in a box stopped: {box.error}") from None
            raise
