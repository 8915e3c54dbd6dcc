"""``ttt load``: a board's bitstream loaded into the FPGA's SRAM."""

from .bitstream import build_options
from .prog import program

SUMMARY = "load the bitstream into the FPGA's SRAM, gone at power-off"
MAKE = ("load",)
ABOUT = """\
Load a board's bitstream, as ttt bitstream built it, into the FPGA's SRAM with
openFPGALoader: quicker than ttt prog, and gone at power-off. The board must be
wired for it (docs/boards.md) and plugged in over USB, with the same libraries
and udev rule as ttt prog. --board, --game and --build-dir name the build as for
ttt bitstream. make load runs it."""


def arguments(parser):
    build_options(parser)


def run(args):
    program(args, "sram", "loaded")
