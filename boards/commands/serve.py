"""``ttt serve``: the console in a web browser."""

from firmware_ref.cli import positive_int

from . import options

SUMMARY = "the console in a web browser: its front panel and each cartridge's view"
MAKE = ("serve",)
ABOUT = """\
Serve the console to a web browser on this machine: it prints the page's address
and opens it in the desktop's browser, where there is one. The page is the console's front panel, the nine keys with their two-colour LEDs,
the lamps and the switches, and each cartridge's own view (the bomb module,
Tactic-Toe, Ultimate); two machines can play each other on it; the chip's insides
clock the 1990 chip by hand beside its die (make die's layout, laid out with qflow
the first time a page shows it, where qflow is installed). Each page plays a
board in a box of its own (a desk for each cartridge simulated, as ttt
play-board plays them; compiled the first time, then cached under
build/compiled/), or with --port the board on that serial port. It runs until
Ctrl-C. --game picks the cartridges, as for ttt play-board (museum: all the
museum's machines); --http-port the port it serves on (default any
free one); --host the address it listens on: only this machine by default, and
any other is warned about, since the server has no password. make serve runs it
(make serve GAME=museum; make serve PORT=/dev/ttyUSB1 for a board)."""


def arguments(parser):
    options.game_option(parser, "the cartridges of each page's board")
    parser.add_argument("--port", help="the serial port of a real board, e.g. /dev/ttyUSB1 "
                        "(default: a board in a box for each page)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine "
                             "only)")
    parser.add_argument("--http-port", type=options.tcp_port, default=0, metavar="N",
                        help="the port to serve on (default 0: any free one)")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open the page in the desktop's browser")
    parser.add_argument("--sessions", type=positive_int, default=4, metavar="N",
                        help="pages played at once, a board in a box each (default 4)")
    parser.add_argument("--keep", type=options.seconds, default=None, metavar="S",
                        help="seconds a page's board is kept after the page leaves, for a "
                             "reload (default: docs/web.md, Sessions)")


def run(args):
    from ..web.server import serve
    return serve(args.game, host=args.host, http_port=args.http_port, port=args.port,
                 sessions=args.sessions, browser=not args.no_browser, die=die,
                 **({} if args.keep is None else {"idle_s": args.keep}))


def die():
    """The die the chip's insides show: laid out by qflow when a page first asks (as
    make die does, and kept), or a UserError naming the Debian packages it needs."""
    from sim.verification import die as layouts
    return layouts.page(layouts.layout(log=print))
