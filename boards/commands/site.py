"""``ttt site``: the console as a static site."""

from . import options

SUMMARY = "the console as static files for any web server, played in the browser with no server of ours"
MAKE = ("site",)
ABOUT = """\
Write build/site/: the console's page, the Python runtime for the browser
(Pyodide, fetched once with Node's npm), the console's own Python, and each
game's desk and the 1990 chip compiled to WebAssembly (with Zig, from PyPI;
cached under build/compiled/). Any static web server serves it: python3 -m
http.server in build/site/, then open http://localhost:8000/. The page plays
every cartridge, a match and the chip's insides in the browser itself. The
first build takes some two minutes on two cores (each desk some 7 s, Ultimate's
longer); later ones reuse the cache. --game builds the desks of some games only."""


def arguments(parser):
    parser.add_argument("--game", type=options.games, default=None,
                        help="the games whose desks the site holds (default: every game)")
    options.out(parser, "the site (its folder site/)")


def run(args):
    from ..site.build import build
    build(args.game, out=args.out / "site")
