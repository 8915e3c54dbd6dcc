"""The ETH Zurich tic-tac-toe chip of 1990, rebuilt, and the games that run on its
board: one command with a subcommand for each job. Every make verb runs one of them
(make sim runs ttt e2, make play runs ttt play, and so on); ttt COMMAND -h says what a
command does and lists its options.
"""

# For developers: the parser is the only one in the project. Each subcommand calls a
# plain function of the module that does the work, so a module is used the same from
# here, from a test or from another module. This lives in boards/, the top of the
# layering (firmware_ref < hdl < sim < boards), because it reaches all of them; the
# choices it offers (boards, games, simulators) are read from the modules that own
# them, and the work of each subcommand is imported when it runs. Every subcommand runs
# through `firmware_ref.cli.run`: a user error is one line and status 2, Ctrl-C 130.
# A subcommand's description is its module's docstring, shown as plain text (`_doc`).

import argparse
import os
import sys
from pathlib import Path

from firmware_ref import cli

__all__ = ["main", "parser"]

PAPER_MHZ = 6.0             # the paper's clock, for think times in microseconds


def _megahertz(text):
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive frequency in MHz")
    return value


def _games(text):
    """GAME: one game or several, comma-separated, each a folder of hdl/; ``museum``:
    the museum's machines (sim/museum.py)."""
    from sim import cartridges, museum
    if text.strip() == "museum":
        text = ",".join(museum.MACHINES.values())
    games = tuple(name.strip() for name in text.split(","))
    unknown = [name for name in games if name not in cartridges.names()]
    if unknown or len(set(games)) != len(games):
        raise argparse.ArgumentTypeError(
            f"{text!r}: name each game once, from: {', '.join(cartridges.names())}; "
            "or museum")
    return games


def _shown(path):
    """`path` as a user typed it: relative to the working directory where it is below."""
    path = Path(path).resolve()
    return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path


# -- the E.2 session and the golden model ---------------------------------------------

def _e2(args):
    from sim import session
    return session.report(golden=args.golden, clock=args.clock)


def _waves(args, parser):
    from sim import session
    if args.game is None:
        which = "golden" if args.golden else "netlist" if args.netlist else "hdl"
        return session.waves(which=which, simulator=args.sim)
    if args.netlist or len(args.game) != 1:
        parser.error("--game takes one game, and its waves are the core's or the golden "
                     "model's (--golden)")
    return _game_waves(args.game[0], args.play, args.golden)


def _game_waves(name, number, golden):
    """Game `number` of cartridge `name` on its core and its golden model: both waves
    written, one opened."""
    from sim import BUILD, cartridges, session
    core = BUILD / f"{name}-game{number}.vcd"
    model = core.with_name(f"{name}-game{number}_golden.vcd")
    status = 0
    try:
        cartridges.waves(name, number, core, model)
    except ValueError as error:             # no golden model, no such game
        raise cli.UserError(str(error)) from None
    except cartridges.Mismatch as difference:
        print(f"DIFFERENT: {difference}")
        status = 1
    print(f"Game {number} of {name}: the core's waves in {_shown(core)}, the golden "
          f"model's in {_shown(model)}, both under '{cartridges.TOP}';\n"
          f"'ttt compare {_shown(model)} {_shown(core)}' compares them edge by edge.")
    shown = model if golden else core
    return session.show(shown, shown.with_suffix(".gtkw"), what=f"game {number} of {name}",
                        scope=cartridges.TOP) or status


def _games_report(args):
    from sim import games
    print(games.format_report(games.survey(), args.clock))


def _play(args):
    from sim import cartridges

    from .host import clients, terminal
    try:
        cartridges.cartridge(args.game)     # here, not in the parser: one line, no usage
    except ValueError as error:
        raise cli.UserError(str(error)) from None
    return clients.client(args.game).play_golden(terminal.typed, print, game=args.game,
                                                 seed=args.seed, clock=args.clock)


def _move(args):
    from firmware_ref.eth import alg
    try:
        alg.report(args.board)
    except (ValueError, alg.NoMoveFound) as error:
        raise cli.UserError(str(error)) from None


# -- the netlist and the checks -------------------------------------------------------

def _verilog(args):
    from hdl.eth import export
    try:
        paths = export.write(args.out_dir, random_init=args.random)
    except OSError as error:
        raise cli.UserError(f"cannot write the netlist: {error.filename}: "
                            f"{error.strerror}") from None
    for path in paths:
        print(f"wrote {_shown(path)}")


def _netlist(args):
    from sim import netlist
    return netlist.run_tests(args.sim, args.tests, openings=args.openings,
                             sessions=args.sessions)


def _compare(args):
    from sim import compare
    return compare.run(args.expected, args.actual, signals=args.signals,
                       clocks=tuple(args.clock_signal or compare.CLOCKS))


def _verify(args, parser):
    from sim import verify
    games = args.game
    if len(games) != 1:
        parser.error("verify checks one game at a time")
    (game,) = games
    if game != "eth" or args.cartridge_pins:
        if args.netlist:
            parser.error("--netlist checks the ETH chip at its own pins only")
        # Verilator runs the cartridges under cocotb, as it runs the chip.
        backend = {"auto": "compiled", "verilator": "cocotb"}.get(args.backend, args.backend)
        return verify.cartridge(game, backend)
    if args.netlist and args.backend != "auto":
        parser.error("--backend and --netlist exclude each other: a netlist runs on "
                     "Verilator")
    if args.board and not args.netlist:
        parser.error("--board needs --netlist synth or routed")
    from .gateware.top import DEFAULT_BOARD
    from .tools import gatelevel

    def gates(log):
        try:
            return gatelevel.Gates(args.netlist, args.board or DEFAULT_BOARD, log=log)
        except gatelevel.CutFailed as failed:
            raise cli.UserError(f"the chip cannot be cut out soundly: {failed}") from None
    return verify.run(args.backend, gates=gates if args.netlist else None, jobs=args.jobs)


def _benchmark(args):
    from .tools import benchmark
    return benchmark.run(repeats=args.repeats, quick=args.quick,
                         icarus_games=args.icarus_games, out=args.out)


def _museum(args):
    from .tools import museum
    museum.run(args.machines, seeds=args.seeds, cost=not args.no_cost, out=args.out)


def _formal(args):
    from .tools import formal
    return formal.run(covers=not args.no_covers, mutated=not args.no_mutants,
                      equivalence=not args.no_equiv)


# -- the boards -----------------------------------------------------------------------

def _target(args):
    """The board and its build directory, checked before any work."""
    from .gateware.top import UnknownBoard, target
    from .tools.build import build_dir
    try:
        board = target(args.board)
    except UnknownBoard as error:
        raise cli.UserError(str(error)) from None
    return board, Path(args.build_dir or build_dir(board.name, args.game))


def _bitstream(args):
    import time

    from .tools.build import REPORT, bitstream, format_report
    board, out = _target(args)
    print(f"Building {', '.join(args.game)} for the {board.summary} into {_shown(out)}/ "
          f"(YoWASP Yosys and nextpnr, under a minute)", flush=True)
    began = time.monotonic()
    report = bitstream(board, out, args.game)
    print(f"wrote {_shown(report['bitstream'])} in {time.monotonic() - began:.0f} s")
    print(format_report(report))
    print(f"report: {_shown(out / REPORT)}")


def _cost(args):
    from .gateware.top import UnknownBoard, target
    from .tools import cost
    try:
        target(args.board)
    except UnknownBoard as error:
        raise cli.UserError(str(error)) from None
    cost.run(args.board, args.game, args.seeds, log=lambda line: print(line, flush=True))


def _programming(mode, done):
    def run(args):
        from .tools.build import NAME, program
        board, out = _target(args)
        print(program(board, out, mode, announce=lambda line: print(line, flush=True)),
              end="")
        print(f"{done} the {board.name}: {_shown(out / NAME)}.bin")
    return run


def _play_board(args):
    from .host.terminal import play
    return play(args.port, games=args.game)


def _boards(args):
    from .gateware.top import BOARDS
    print("\n".join(f"{name:<12} {board.summary}" for name, board in BOARDS.items()))


def _doc(module):
    """A module's docstring, for a subcommand's help, without importing its tools; the
    reStructuredText marks of names and literals (``make sim``, `run`) dropped, as a
    terminal shows no markup."""
    import importlib.util
    import ast
    import re
    spec = importlib.util.find_spec(module)
    text = ast.get_docstring(ast.parse(Path(spec.origin).read_text()))
    return re.sub(r"``(.+?)``|`([^`\n]+)`", lambda m: m[1] or m[2], text, flags=re.S)


def parser():
    """The command line: every subcommand with its arguments."""
    from sim import BUILD, cartridges, netlist, verify

    from .gateware.top import BOARDS, DEFAULT_BOARD
    from .tools.build import DEFAULT_GAMES
    top = argparse.ArgumentParser(prog="ttt", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True, metavar="command")

    def command(name, run, summary, doc=None):
        sub = commands.add_parser(
            name, help=summary, description=_doc(doc) if doc else summary,
            formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(run=run)
        return sub

    def clock(sub):
        sub.add_argument("--clock", type=_megahertz, default=PAPER_MHZ, metavar="MHZ",
                         help="clock frequency for times (default: 6, the paper's)")

    sub = command("e2", _e2, "replay the paper's E.2 session on the chip, against the "
                  "paper and the golden model, and write its waves (make sim)")
    sub.add_argument("--golden", action="store_true",
                     help="on the golden model alone, not the HDL")
    clock(sub)

    sub = command("waves", None, "open the E.2 waves, or a game's on any cartridge, in "
                  "GTKWave, or say how to (make waves)")
    sub.set_defaults(run=lambda args, parser=sub: _waves(args, parser))
    which = sub.add_mutually_exclusive_group()
    which.add_argument("--golden", action="store_true", help="the golden model's waves")
    which.add_argument("--netlist", action="store_true",
                       help="the exported netlist's waves from the cocotb run")
    sub.add_argument("--sim", default="verilator", choices=netlist.SIMULATORS,
                     help="with --netlist: the simulator (default verilator)")
    sub.add_argument("--game", type=_games, help="instead of E.2, a game of this "
                     "cartridge at its pins: the core's and the golden model's waves")
    sub.add_argument("--play", type=int, default=0, metavar="N",
                     help="with --game: which of its golden model's games (default 0)")

    clock(command("games", _games_report, "every game a user can play against the chip, "
                  "and its think times (make games)"))

    sub = command("play", _play, "play a game against its golden model in the terminal "
                  "(make play); eth, the default, as the paper's main program (F.3)")
    clock(sub)
    sub.add_argument("--seed", type=int, help="seed for the chip's random counter (ktane: "
                     "for the pauses between presses, which the module's LFSR sees)")
    sub.add_argument("--game", default="eth", metavar="GAME",
                     help=f"one of {', '.join(cartridges.names())} (default eth: the "
                     "chip, as the paper's main program plays it); ktane: defuse the bomb "
                     "module Tic-Tac-Toe of Keep Talking and Nobody Explodes; tactic: "
                     "David Dickerson's Tactic-Toe against the planner or for two "
                     "people; ultimate: Ultimate Tic-Tac-Toe against the engine or for "
                     "two people; any other: its machine on the board of nine places, "
                     "as make play-board plays it")

    sub = command("move", _move, "the computer's move on a board by the paper's alg.c",
                  "firmware_ref.eth.alg")
    sub.add_argument("board", help="9 places, row-major: 0 or . empty, 1 or O computer, "
                     "2 or X human; '/' may separate rows, e.g. 000/020/000 or .../.X./...")

    sub = command("verilog", _verilog, "export the chip: build/ttt_chip.v and "
                  "build/ttt_chip.il (make verilog)", "hdl.eth.export")
    sub.add_argument("--out-dir", default=BUILD, type=Path,
                     help="where to write ttt_chip.v and ttt_chip.il (default: build/)")
    sub.add_argument("--random", type=int, default=0, choices=range(8), metavar="N",
                     help="power-up value 0-7 of the random counter (default 0)")

    sub = command("netlist", _netlist, "the cocotb tests of the exported netlist "
                  "(make netlist)", "sim.netlist")
    sub.add_argument("--sim", default=os.environ.get("SIM", "verilator"),
                     choices=netlist.SIMULATORS,
                     help="the simulator (default: $SIM or verilator)")
    sub.add_argument("--tests", nargs="+", choices=netlist.TESTS, default=netlist.TESTS)
    sub.add_argument("--openings", default="user,0", type=netlist.openings,
                     help="openings of the games test: 'all', or a comma list of "
                          "'user' and 0-7 (default: user,0)")
    sub.add_argument("--sessions", type=cli.positive_int, default=4,
                     help="random sessions of 1500 edges (default 4)")

    sub = command("compare", _compare, "compare two waveform files at every clock edge "
                  "(make compare)", "sim.compare")
    sub.add_argument("expected", help="the reference waves (.vcd or .fst)")
    sub.add_argument("actual", help="the waves to check (.vcd or .fst)")
    sub.add_argument("--signals", nargs="+", metavar="PATTERN",
                     help="compare only these (fnmatch patterns on the names below the "
                          "clock's scope, such as 'controller.*' or 'led')")
    sub.add_argument("--clock-signal", action="append", metavar="NAME",
                     help="the clock's name (default: cp or clk)")

    sub = command("verify", None, "every game in lockstep with the golden model "
                  "(make verify)", "sim.verify")
    sub.set_defaults(run=lambda args, parser=sub: _verify(args, parser))
    sub.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                     help="the game (default eth, the chip at its own pins); another "
                          "game is checked at its cartridge's pins")
    sub.add_argument("--cartridge-pins", action="store_true",
                     help="check eth at the cartridge's pins, as every other game: the "
                          "chip behind its adapter, against the adapter's golden model")
    sub.add_argument("--backend", default="auto",
                     choices=("auto",) + verify.BACKENDS,
                     help="the simulator of the chip (default: the fastest installed)")
    sub.add_argument("--netlist", choices=("synth", "routed"),
                     help="check this netlist of a board build gate by gate instead: "
                          "synth (Yosys's) or routed (nextpnr's, from make bitstream)")
    sub.add_argument("--board", choices=tuple(BOARDS), default=None,
                     help=f"with --netlist: the board build (default {DEFAULT_BOARD})")
    sub.add_argument("--jobs", type=cli.positive_int, default=None,
                     help="processes (default: one per core)")

    sub = command("benchmark", _benchmark, "measure every cost side by side: "
                  "build/BENCHMARKS.md (make benchmark)", "boards.tools.benchmark")
    sub.add_argument("--repeats", type=cli.positive_int, default=5,
                     help="runs of each fast measurement (default 5); medians reported")
    sub.add_argument("--quick", action="store_true",
                     help="a small workload, one run, no slow exhaustive runs")
    sub.add_argument("--icarus-games", action="store_true",
                     help="also time every game on cocotb + Icarus (slow)")
    sub.add_argument("--out", type=Path, default=BUILD,
                     help="where to write BENCHMARKS.md (default: build/)")

    sub = command("museum", _museum, "every museum machine through every game: lockstep, "
                  "perfect play, think times, cost; build/museum.* (make museum)",
                  "boards.tools.museum")
    sub.add_argument("--machines", type=lambda text: [n.strip() for n in text.split(",")],
                     metavar="NAME,...", help="these machines (keys of build/museum.json, "
                     "or game folders) instead of every built one")
    sub.add_argument("--seeds", type=cli.positive_int, nargs="+", default=[1, 2, 3, 4, 5],
                     metavar="N", help="nextpnr seeds of the cost (default 1 2 3 4 5)")
    sub.add_argument("--no-cost", action="store_true",
                     help="leave out the cost (no Yosys or nextpnr run)")
    sub.add_argument("--out", type=Path, default=BUILD,
                     help="where to write museum.json, .md and .png (default: build/)")

    sub = command("formal", _formal, "prove the chip's properties and the equivalence of "
                  "its netlists with SBY and Yosys; build/formal/report.md (make formal)",
                  "boards.tools.formal")
    sub.add_argument("--no-covers", action="store_true",
                     help="leave out the covers (the deep ones take minutes)")
    sub.add_argument("--no-mutants", action="store_true",
                     help="leave out the mutant controllers")
    sub.add_argument("--no-equiv", action="store_true",
                     help="leave out the equivalence of the netlists")

    for name, run, summary in (
            ("bitstream", _bitstream, "build build/<board>/ttt.bin and its report "
             "(make bitstream)"),
            ("prog", _programming("flash", "wrote the flash of"),
             "write the bitstream to the board's flash, kept at power-off (make prog)"),
            ("load", _programming("sram", "loaded"),
             "load the bitstream into the FPGA's SRAM, gone at power-off (make load)")):
        sub = command(name, run, summary)
        sub.add_argument("--board", default=DEFAULT_BOARD,
                         help=f"one of {', '.join(BOARDS)} (default {DEFAULT_BOARD})")
        sub.add_argument("--build-dir", help="default build/<board>, or "
                         "build/<board>-<game>+<game> for other games")
        sub.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                         help="the cartridge, or several, comma-separated, in one "
                              "bitstream (default eth)")

    sub = command("cost", _cost, "logic cells and fmax per block of a board build, "
                  "medians over nextpnr seeds (make cost)", "boards.tools.cost")
    sub.add_argument("--board", default=DEFAULT_BOARD,
                     help=f"one of {', '.join(BOARDS)} (default {DEFAULT_BOARD})")
    sub.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                     help="the cartridge, or several, comma-separated (default eth)")
    sub.add_argument("--seeds", type=cli.positive_int, nargs="+", default=[1, 2, 3, 4, 5],
                     metavar="N", help="nextpnr seeds (default 1 2 3 4 5)")

    sub = command("play-board", _play_board, "play the board over its USB serial port, "
                  "or the board in a box (simulated) with no port (make play-board)",
                  "boards.host.terminal")
    sub.add_argument("--port", help="the serial port, e.g. /dev/ttyUSB1 (default: the "
                     "board in a box, the desk and its cartridges simulated)")
    sub.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                     help="without --port: the box's cartridges (default eth)")

    command("boards", _boards, "list the boards")
    return top


def _main(argv):
    args = parser().parse_args(argv)
    return args.run(args)


def main(argv=None):
    """The ``ttt`` script (and ``python -m boards``): the exit status of `argv`'s
    subcommand (default: the command line's)."""
    return cli.run(_main, sys.argv[1:] if argv is None else argv)
