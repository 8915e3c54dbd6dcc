"""``ttt waves``: the E.2 session's waves, or a game's on any cartridge, in GTKWave."""

from firmware_ref.cli import UserError

from . import Refused, options

SUMMARY = "open the E.2 waves, or a game's on any cartridge, in GTKWave, or say how to"
MAKE = ("waves", "waves-golden", "waves-netlist")
ABOUT = """\
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
ttt compare. make waves runs it (make waves GAME=firstfree PLAY=3)."""


def arguments(parser):
    from sim.backends import netlist
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--golden", action="store_true", help="the golden model's waves")
    which.add_argument("--netlist", action="store_true",
                       help="the exported netlist's waves from the cocotb run")
    parser.add_argument("--sim", default="verilator", choices=netlist.SIMULATORS,
                        help="with --netlist: the simulator (default verilator)")
    parser.add_argument("--game", type=options.games, help="instead of E.2, a game of this "
                        "cartridge at its pins: the core's and the golden model's waves")
    parser.add_argument("--play", type=int, default=0, metavar="N",
                        help="with --game: which of its golden model's games (default 0)")


def run(args):
    from sim.bench import checks, session
    if args.game is None:
        if args.netlist:
            return checks.waves(args.sim)
        return session.waves(which="golden" if args.golden else "hdl")
    if args.netlist or len(args.game) != 1:
        raise Refused("--game takes one game, and its waves are the core's or the golden "
                      "model's (--golden)")
    return game_waves(args.game[0], args.play, args.golden)


def game_waves(name, number, golden):
    """Game `number` of cartridge `name` on its core and its golden model: both waves
    written, one opened."""
    from sim import BUILD, Mismatch
    from sim.cartridges.waves import waves
    from sim.waves.game import TOP
    from sim.waves.show import show
    core = BUILD / f"{name}-game{number}.vcd"
    model = core.with_name(f"{name}-game{number}_golden.vcd")
    status = 0
    try:
        waves(name, number, core, model)
    except ValueError as error:             # no golden model, no such game
        raise UserError(str(error)) from None
    except Mismatch as difference:
        print(f"DIFFERENT: {difference}")
        status = 1
    shown, golden_shown = options.relative(core), options.relative(model)
    print(f"Game {number} of {name}: the core's waves in {shown}, the golden "
          f"model's in {golden_shown}, both under '{TOP}';\n"
          f"'ttt compare {golden_shown} {shown}' compares them edge by edge.")
    opened = model if golden else core
    return show(opened, opened.with_suffix(".gtkw"), what=f"game {number} of {name}",
                scope=TOP) or status
