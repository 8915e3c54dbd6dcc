"""python -m boards: build, program and play the chip on a board (docs/boards.md)."""

import argparse
import sys
import time
from pathlib import Path

from .top import BOARDS, DEFAULT_BOARD, UnknownBoard, target


def _target(name):
    try:
        return target(name)
    except UnknownBoard as error:
        raise SystemExit(f"error: {error}") from None


def _bitstream(args):
    from .build import ToolMissing, bitstream, format_report
    board = _target(args.board)
    out = Path(args.build_dir or f"build/{board.name}")
    print(f"Building {board.summary} into {out}/ (YoWASP Yosys and nextpnr)", flush=True)
    began = time.monotonic()
    try:
        report = bitstream(board, out)
    except ToolMissing as error:
        raise SystemExit(f"error: {error}") from None
    print(f"wrote {report['bitstream']} in {time.monotonic() - began:.0f} s")
    print(format_report(report))
    print(f"report: {out / 'report.json'}")


def _prog(args):
    from .build import NoBitstream, NoBoard, ProgrammingFailed, ToolMissing, program
    board = _target(args.board)
    out = Path(args.build_dir or f"build/{board.name}")
    try:
        print(program(board, out), end="")
    except (NoBitstream, NoBoard, ProgrammingFailed, ToolMissing) as error:
        raise SystemExit(f"error: {error}") from None
    print(f"programmed {board.name} with {out}/")


def _play(args):
    from .terminal import play
    return play(args.port)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m boards", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, run, help in (("bitstream", _bitstream, "build build/<board>/ttt.bin and its report"),
                            ("prog", _prog, "program a connected board")):
        command = commands.add_parser(name, help=help)
        command.add_argument("--board", default=DEFAULT_BOARD,
                             help=f"one of {', '.join(BOARDS)} (default {DEFAULT_BOARD})")
        command.add_argument("--build-dir", help="default build/<board>")
        command.set_defaults(run=run)
    command = commands.add_parser("play", help="play the board over its USB serial port, "
                                  "or the board in a box (simulated) with no port")
    command.add_argument("--port", help="the serial port, e.g. /dev/ttyUSB1 (default: "
                         "the board in a box, the desk and chip simulated)")
    command.set_defaults(run=_play)
    commands.add_parser("boards", help="list the boards").set_defaults(
        run=lambda args: print("\n".join(f"{n:<12} {b.summary}" for n, b in BOARDS.items())))
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
