"""docs/architecture.md and docs/layout.md are the tree: together they name every source
file of the project, and every file they name is there.

A source file is a .py, .cc, .js, .css or .html under the four packages. The docs name a
file by its path in backticks, or, in a table's row, by its name alone after a path that
says its folder (``boards/gateware/slots.py`, `key_event.py``, or the folder row
``firmware_ref/eth/`` of architecture.md and then ``alg.py``). Two files need no row of
their own:

- a game's files, other than the 1990 chip's: the folder of a game in hdl/ or
  firmware_ref/, named in layout.md's table of games, stands for every file in it
  (docs/cartridge.md says what a game's folder holds);
- an ``__init__.py`` that is a docstring alone: architecture.md's row of its folder
  (tests/test_architecture.py) says what the package is. One that holds code is named.
"""

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = (DOCS / "architecture.md", DOCS / "layout.md")
PACKAGES = ("firmware_ref", "hdl", "sim", "boards")
SOURCES = (".py", ".cc", ".js", ".css", ".html")
# A backticked span that is a path: a folder in it, or a file's suffix.
SPAN = re.compile(r"`([\w./-]+)`")
FILE = re.compile(r"\.(py|cc|js|css|html|md|txt|svg|toml|json)$")
NOT_IN_TREE = ("build/", ".venv/")        # what a command writes, not what is committed


def sources():
    """The project's source files, relative to the root: those git tracks or would
    (ignored build outputs are not sources)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--",
             *PACKAGES], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        paths = [Path(line) for line in listed.splitlines()]
    except (OSError, subprocess.CalledProcessError):
        paths = [p.relative_to(ROOT) for package in PACKAGES
                 for p in (ROOT / package).rglob("*") if "__pycache__" not in p.parts]
    return {str(p) for p in paths if p.suffix in SOURCES and (ROOT / p).is_file()}


def games():
    """The game folders, as tests/test_architecture.py finds them."""
    return {path.parent.name for path in ROOT.glob("hdl/*/cartridge.py")
            if (ROOT / "firmware_ref" / path.parent.name).is_dir()}


def docstring_only(path):
    body = ast.parse((ROOT / path).read_text()).body
    return all(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
               for node in body)


def spans(text):
    """The paths a page names, root-relative: every backticked path, and in a table's
    row a name alone, resolved in the folder its first cell names (none where that is
    a pattern, ``hdl/<game>/``)."""
    named = set()
    for line in text.splitlines():
        cells = line.split(" | ") if line.startswith("|") else [line]
        folder = None
        for number, cell in enumerate(cells):
            for span in SPAN.findall(cell):
                if "/" not in span and not FILE.search(span) or span.startswith(NOT_IN_TREE):
                    continue
                path = span.rstrip("/")
                if "/" not in path and not (ROOT / path).exists():
                    if folder is None:
                        continue        # a name alone outside a row of a folder
                    path = f"{folder}/{path}"
                named.add(path)
                if number == 0 and line.startswith("|"):
                    folder = path if span.endswith("/") else str(Path(path).parent)
    return named


def named():
    """Every path the two pages name."""
    return set().union(*(spans(page.read_text()) for page in PAGES))


def unnamed(files, names, game_folders):
    """The source files `names` leaves out: a game's folder named covers its files, a
    package's docstring alone is its folder's row."""
    covered = {f"{package}/{game}" for package in ("hdl", "firmware_ref")
               for game in game_folders - {"eth"}} & names
    return sorted(path for path in files
                  if path not in names
                  and not any(path.startswith(folder + "/") for folder in covered)
                  and not (path.endswith("__init__.py") and docstring_only(path)))


def gone(names):
    return sorted(path for path in names if not (ROOT / path).exists())


def test_the_pages_name_every_source_file():
    files = sources()
    assert len(files) > 100, "the source files are not found"
    assert unnamed(files, named(), games()) == []


def test_every_file_the_pages_name_is_there():
    names = named()
    assert len(names) > 100
    assert gone(names) == []


def test_a_file_left_out_or_gone_is_seen():
    files = {"sim/tools.py", "sim/new.py", "hdl/turbo/new.py", "hdl/eth/new.py",
             "sim/chip/__init__.py", "sim/__init__.py"}
    names = {"sim/tools.py", "hdl/turbo", "hdl/eth"}
    # A game's file is covered by its folder, a file of the chip's is not; an
    # __init__.py that holds code is named.
    assert unnamed(files, names, games()) == ["hdl/eth/new.py", "sim/__init__.py",
                                              "sim/new.py"]
    assert unnamed(files, names - {"hdl/turbo"}, games())[0] == "hdl/eth/new.py"
    assert "hdl/turbo/new.py" in unnamed(files, names - {"hdl/turbo"}, games())
    assert gone({"sim/tools.py", "sim/gone.py"}) == ["sim/gone.py"]


def test_a_row_names_files_by_their_folder():
    rows = ("| `boards/gateware/slots.py`, `key_event.py` | the `ttt` command, `alg.move` |\n"
            "| `boards/builds/` | `build.py`; for the checks of `sim/`, `netlists.py` |\n"
            "| `hdl/<game>/` | `cartridge.py` |\n"
            "Prose: `sim/chip/games.py` lists, `verify.py` splits\n")
    assert spans(rows) == {"boards/gateware/slots.py", "boards/gateware/key_event.py",
                           "boards/builds", "boards/builds/build.py", "sim",
                           "boards/builds/netlists.py", "sim/chip/games.py"}
