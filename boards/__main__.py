"""python -m boards: build, program and play the chip on a board (docs/boards.md)."""

import argparse
import sys
import time
from pathlib import Path

from firmware_ref import cli

from .gateware.top import BOARDS, DEFAULT_BOARD, UnknownBoard, target
from .tools.build import DEFAULT_GAMES


def _games(text):
    """GAME: one game or several, comma-separated, each a folder of hdl/."""
    from sim import cartridges
    games = tuple(name.strip() for name in text.split(","))
    unknown = [name for name in games if name not in cartridges.names()]
    if unknown or len(set(games)) != len(games):
        raise argparse.ArgumentTypeError(
            f"{text!r}: name each game once, from: {', '.join(cartridges.names())}")
    return games


def _target(args):
    """The board and its build directory, checked before any work."""
    from .tools.build import build_dir
    try:
        board = target(args.board)
    except UnknownBoard as error:
        raise cli.UserError(str(error)) from None
    return board, Path(args.build_dir or build_dir(board.name, args.game))


def _bitstream(args):
    from .tools.build import REPORT, bitstream, format_report
    board, out = _target(args)
    print(f"Building {', '.join(args.game)} for the {board.summary} into {out}/ (YoWASP "
          f"Yosys and nextpnr, under a minute)", flush=True)
    began = time.monotonic()
    report = bitstream(board, out, args.game)
    print(f"wrote {report['bitstream']} in {time.monotonic() - began:.0f} s")
    print(format_report(report))
    print(f"report: {out / REPORT}")


def _programming(mode, done):
    def run(args):
        from .tools.build import NAME, program
        board, out = _target(args)
        print(program(board, out, mode, announce=lambda line: print(line, flush=True)),
              end="")
        print(f"{done} the {board.name}: {out / NAME}.bin")
    return run


def _play(args):
    from .host.terminal import play
    return play(args.port, games=args.game)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m boards", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, run, help in (
            ("bitstream", _bitstream, "build build/<board>/ttt.bin and its report"),
            ("prog", _programming("flash", "wrote the flash of"),
             "write the bitstream to the board's flash (kept at power-off)"),
            ("load", _programming("sram", "loaded"),
             "load the bitstream into the FPGA's SRAM (gone at power-off)")):
        command = commands.add_parser(name, help=help)
        command.add_argument("--board", default=DEFAULT_BOARD,
                             help=f"one of {', '.join(BOARDS)} (default {DEFAULT_BOARD})")
        command.add_argument("--build-dir", help="default build/<board>, or "
                             "build/<board>-<game>+<game> for other games")
        command.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                             help="the cartridge, or several, comma-separated, in one "
                             "bitstream (default eth)")
        command.set_defaults(run=run)
    command = commands.add_parser("play", help="play the board over its USB serial port, "
                                  "or the board in a box (simulated) with no port")
    command.add_argument("--port", help="the serial port, e.g. /dev/ttyUSB1 (default: "
                         "the board in a box, the desk and chip simulated)")
    command.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                         help="without --port: the box's cartridges (default eth)")
    command.set_defaults(run=_play)
    commands.add_parser("boards", help="list the boards").set_defaults(
        run=lambda args: print("\n".join(f"{n:<12} {b.summary}" for n, b in BOARDS.items())))
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(cli.run(main))
