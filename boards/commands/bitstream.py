"""``ttt bitstream``: a board's bitstream and its report; the options that name a build,
which ``ttt prog``, ``ttt load`` and ``ttt cost`` share."""

from pathlib import Path

from firmware_ref.cli import UserError

from . import options

SUMMARY = "build a board's bitstream, build/BOARD/ttt.bin (.bit, .fs), and its report.json"
MAKE = ("bitstream",)
ABOUT = """\
Build a board's bitstream with the open toolchain installed with the project
(YoWASP Yosys and nextpnr, and icepack, ecppack or Apycula's gowin_pack for the
board's FPGA): build/BOARD/ttt.bin (ttt.bit for an ECP5, ttt.fs for a Gowin) and
report.json (logic cells or LUTs, flip-flops, RAM, fmax, the worst time per
move), with the tools' files
and logs beside them. It prints the report. 38 s here for the ETH chip on the
iCEBreaker, on two busy cores. --board picks the board (ttt boards lists them);
--game another cartridge, or several comma-separated in one bitstream (into
build/BOARD-GAME/); --build-dir another directory. make bitstream runs it (make
bitstream BOARD=icestick GAME=firstfree)."""


def board_option(parser):
    """``--board``: one of the boards, checked when the verb runs (`target`)."""
    from ..gateware.top import BOARDS, DEFAULT_BOARD
    parser.add_argument("--board", default=DEFAULT_BOARD,
                        help=f"one of {', '.join(BOARDS)} (default {DEFAULT_BOARD})")


def build_options(parser):
    """The board, the build directory and the cartridges of a build."""
    board_option(parser)
    parser.add_argument("--build-dir", help="default build/<board>, or "
                        "build/<board>-<game>+<game> for other games")
    options.game_option(parser, "the cartridge, or several, comma-separated, in one "
                                "bitstream")


def board(name):
    """Board `name`, or one line that names the boards."""
    from ..gateware import top
    try:
        return top.target(name)
    except top.UnknownBoard as error:
        raise UserError(str(error)) from None


def target(args):
    """The board and its build directory, checked before any work."""
    from ..builds.build import build_dir
    found = board(args.board)
    return found, Path(args.build_dir or build_dir(found.name, args.game))


def arguments(parser):
    build_options(parser)


def run(args):
    import time

    from ..builds.build import DEFAULT_GAMES, ETH_BUILD_S, REPORT, bitstream, format_report
    board, out = target(args)
    took = f", about {ETH_BUILD_S} s" if tuple(args.game) == DEFAULT_GAMES else ""
    print(f"Building {', '.join(args.game)} for the {board.summary} into "
          f"{options.relative(out)}/ (YoWASP Yosys and nextpnr{took})", flush=True)
    began = time.monotonic()
    report = bitstream(board, out, args.game,
                       log=lambda line: print(f"  {line}", flush=True))
    print(f"wrote {options.relative(report['bitstream'])} in "
          f"{time.monotonic() - began:.0f} s")
    print(format_report(report))
    print(f"report: {options.relative(out / REPORT)}")
