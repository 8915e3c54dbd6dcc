"""`make site`: the console as static files, for any web server (docs/site.md).

`build/site/` holds the page (boards/web/static/, the same files `make serve` serves),
the Python runtime for the browser (Pyodide, from the npm registry, pinned), the
project's own Python that the page's Worker runs (the modules it imports and nothing
else, boards/site/modules.py) and, in WebAssembly, a desk for each game and the 1990
chip for its insides: the C++ that CXXRTL writes for `make serve`, compiled by Zig (from
PyPI) for WASI instead of by the system's compiler.
"""

import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from firmware_ref.cli import UserError
from sim import BUILD, catalogue, shown
from sim.backends import compiled
from sim.cache import cached
from sim.tools import run_tool

from .die import DIE

__all__ = ["PYODIDE", "SITE", "build", "toolchain"]

SITE = BUILD / "site"
PYODIDE = "314.0.7"                 # the npm package pyodide, its Python 3.14
# What of the package the page needs: the loader, the interpreter, its standard library.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                 "python_stdlib.zip", "pyodide-lock.json")
STATIC = Path(__file__).parent.parent / "web" / "static"
CACHE = BUILD / "site-cache"
# -O1: a desk compiles in some 7 s where -O2 takes 70 s, and clocks at 0.62 of its
# speed (docs/site.md gives the figures). WASI's reactor model: no main, the page calls in.
WASM_FLAGS = ("-target", "wasm32-wasi", "-mexec-model=reactor", "-std=c++17", "-O1", "-g0",
              "-w", "-fno-exceptions", "-Wl,--strip-all", "-Wl,--export=malloc",
              "-Wl,--export=free")
# The C functions of each wrapper the page calls (boards/box/box.cc, compiled_chip.cc).
DESK_EXPORTS = ("box_create", "box_destroy", "box_send", "box_run", "box_busy",
                "box_broken")
CHIP_EXPORTS = ("ttt_create", "ttt_destroy", "ttt_signal", "ttt_width", "ttt_set",
                "ttt_get", "ttt_step", "ttt_run")


def _zig():
    try:
        import ziglang     # noqa: F401 -- its wheel carries the compiler
    except ImportError:
        raise UserError("make site compiles the desks with Zig from PyPI: 'pip install "
                        "ziglang' (the project's dependencies include it)") from None
    command = (sys.executable, "-m", "ziglang")
    found = subprocess.run([*command, "version"], capture_output=True, text=True)
    return command, found.stdout.strip()


def toolchain(exports):
    """Zig's C++ compiler for WASI, exporting `exports` (and malloc, free)."""
    command, version = _zig()
    return compiled.Toolchain((*command, "c++"), f"zig {version}",
                              (*WASM_FLAGS, *(f"-Wl,--export={name}" for name in exports)),
                              ".wasm")


def _pyodide(log):
    """The npm package's folder, fetched once (npm checks it against the registry's
    hash)."""
    npm = shutil.which("npm")
    if npm is None:
        raise UserError("make site fetches Pyodide with Node's npm, which is not installed "
                        "(Debian: apt-get install npm)")

    def fetch(work):
        log(f"fetching Pyodide {PYODIDE} from the npm registry")
        run_tool([npm, "pack", f"pyodide@{PYODIDE}", "--silent"], work, "npm pack",
                 CACHE / "failed")
        with tarfile.open(work / f"pyodide-{PYODIDE}.tgz") as packed:
            packed.extractall(work, filter="data")
        return [work / "package"]
    return cached(CACHE, [PYODIDE, *PYODIDE_FILES], "package", fetch,
                  doing=f"Pyodide {PYODIDE}", log=log)


def _python(to, die):
    """The project's modules the Worker imports, and the files they read, in one zip,
    with the die's description (`die`, None where it was not laid out) beside them."""
    found = subprocess.run([sys.executable, "-m", "boards.site.modules"],
                           capture_output=True, text=True)
    if found.returncode:
        raise UserError(f"the page's Python could not be gathered: "
                        f"{(found.stderr.strip().splitlines() or ['?'])[-1]}")
    with zipfile.ZipFile(to, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for root, name in json.loads(found.stdout):
            archive.write(Path(root) / name, name)
        if die is not None:
            archive.writestr(DIE, json.dumps(die, separators=(",", ":")))


def _die(log):
    """The die's description for the page (as make serve's), or None where it cannot
    be laid out here (qflow missing, or its flow failed): the site's die then says so."""
    from sim.verification import die
    try:
        return die.page(die.layout(log=log))
    except UserError as missing:
        log(f"the site shows no die: {missing}")
        return None


def _wasm(design, exports, to, log):
    shutil.copyfile(compiled.library(design, toolchain=toolchain(exports), log=log), to)


def build(games=None, *, out=SITE, log=print):
    """Write the site of `games` (every game of the catalogue by default) to `out`;
    returns its description (site.json)."""
    from boards.box.box import design
    from boards.web.server import FIGURE
    # The 1990 chip first: the game the page opens with.
    games = tuple(games or sorted(catalogue.names(), key=lambda name: name != catalogue.CHIP.name))
    package = _pyodide(log)
    if out.exists():
        shutil.rmtree(out)
    # As the server lays it out: the page at the top, its files under static/.
    shutil.copytree(STATIC, out / "static")
    shutil.copyfile(FIGURE, out / "static" / FIGURE.name)   # the insides' figure
    # The one difference: the page's console runs in a Worker of its own (socket.js).
    page = (STATIC / "index.html").read_text()
    (out / "index.html").write_text(page.replace(
        "<head>\n", '<head>\n<meta name="console-transport" content="worker">\n', 1))
    for name in ("pyodide", "desks"):
        (out / name).mkdir()
    for name in PYODIDE_FILES:
        shutil.copyfile(package / name, out / "pyodide" / name)
    described = _die(log)
    _python(out / "python.zip", described)
    jobs = {out / "chip.wasm": (compiled.chip_design(), CHIP_EXPORTS)}
    jobs.update({out / "desks" / f"{game}.wasm": (design((game,)), DESK_EXPORTS)
                 for game in games})
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        for done in [pool.submit(_wasm, *job, to, log) for to, job in jobs.items()]:
            done.result()
    site = {"pyodide": PYODIDE, "games": list(games), "die": described is not None,
            "bytes": {str(path.relative_to(out)): path.stat().st_size
                      for path in sorted(out.rglob("*")) if path.is_file()}}
    (out / "site.json").write_text(json.dumps(site, indent=1))
    log(f"the site is in {shown(out)}: serve it with python3 -m http.server "
        f"(in that folder), then open http://localhost:8000/")
    return site
