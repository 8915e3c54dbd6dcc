"""``ttt verify``: every game in lockstep with the golden model, on the RTL or on a
board build's gates."""

from firmware_ref.cli import UserError, positive_int
from sim import catalogue

from . import Refused, options

SUMMARY = "every game in lockstep with the golden model"
MAKE = ("verify",)
ABOUT = """\
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
first build. --netlist sky130 checks the chip alone as Yosys maps it to SkyWater's
130 nm cells (sky130_fd_sc_hd, as Tiny Tapeout makes it), on the cells' own
functional models: about 3 s, or 20 s with its first build. --netlist die checks
the chip as make die places and routes it, its post-layout netlist with the
buffers and fill the flow added, on the OSU cells' own Verilog models (needs
Debian's qflow; the layout's first build takes about 45 s). --jobs sets the
processes. make verify runs it (make verify GAME=firstfree, make verify
NETLIST=routed BOARD=icestick, make verify NETLIST=sky130, make verify
NETLIST=die)."""


def arguments(parser):
    from sim.verification import die, sky130, verify
    from sim.verification.gatelevel import NETLISTS as BOARD_NETLISTS

    from ..gateware.top import BOARDS, DEFAULT_BOARD
    chip = catalogue.CHIP.name
    parser.add_argument("--game", type=options.games, default=(chip,),
                        help=f"the game (default {chip}, the chip at its own pins); another "
                             f"game is checked at its cartridge's pins")
    parser.add_argument("--cartridge-pins", action="store_true",
                        help=f"check {chip} at the cartridge's pins, as every other game: "
                             f"the chip behind its adapter, against the adapter's golden "
                             f"model")
    parser.add_argument("--backend", default=verify.AUTO, choices=verify.CHOICES,
                        help="the simulator of the chip (default: the fastest installed)")
    parser.add_argument("--netlist", choices=(*BOARD_NETLISTS, sky130.NETLIST, die.NETLIST),
                        help="check this netlist of a board build gate by gate instead: "
                             "synth (Yosys's) or routed (nextpnr's, from make bitstream); "
                             "or sky130: the chip alone in SkyWater 130 nm cells; or die: "
                             "the chip as make die places and routes it")
    parser.add_argument("--board", choices=tuple(BOARDS), default=None,
                        help=f"with --netlist: the board build (default {DEFAULT_BOARD})")
    parser.add_argument("--jobs", type=positive_int, default=None,
                        help="processes (default: one per core)")


def run(args):
    from sim.verification import verify
    from sim.verification.gatelevel import NETLISTS as BOARD_NETLISTS
    if len(args.game) != 1:
        raise Refused("verify checks one game at a time")
    (game,) = args.game
    if not catalogue.game(game).chip or args.cartridge_pins:
        if args.netlist:
            raise Refused("--netlist checks the ETH chip at its own pins only")
        return verify.cartridge(game, args.backend)
    if args.netlist and args.backend != verify.AUTO:
        raise Refused("--backend and --netlist exclude each other: a netlist runs on "
                      "Verilator")
    if args.board and args.netlist not in BOARD_NETLISTS:
        raise Refused("--board needs --netlist synth or routed")
    if not args.netlist:
        return verify.run(args.backend, jobs=args.jobs)
    return gate_level(args)


def gate_level(args):
    """The chip as the board build has it (`args.netlist`: synth or routed), gate by
    gate."""
    from sim.verification import die, gatelevel, sky130, verify

    from ..builds import netlists
    from ..gateware.top import DEFAULT_BOARD
    if args.netlist == die.NETLIST:
        die.tech()                      # one line, before any work, without qflow
        return verify.run(args.backend, gates=lambda log: die.Gates(log=log),
                          name=die.named(), jobs=args.jobs)
    if args.netlist == sky130.NETLIST:
        return verify.run(args.backend, gates=lambda log: sky130.Gates(log=log),
                          name=sky130.named(), jobs=args.jobs)
    board = netlists.board(args.board or DEFAULT_BOARD)

    def gates(log):
        try:
            return gatelevel.Gates(args.netlist, board, log=log)
        except gatelevel.CutFailed as failed:
            raise UserError(f"the chip cannot be cut out soundly: {failed}") from None
    return verify.run(args.backend, gates=gates, name=gatelevel.named(args.netlist, board),
                      jobs=args.jobs)
