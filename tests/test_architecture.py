"""docs/architecture.md's table of folders is the tree: every package on disk has its
row, every row names a folder that is there. A game's folder is the `<game>` row of
hdl/ and firmware_ref/. Its drawing of the layers inside sim/ and boards/ is the order
tests/test_layers.py holds them to, and its sizes hold: no module over 500 lines, no
function over 100, but the one the page names."""

import ast
import re
from pathlib import Path

from test_layers import LAYERS

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
PACKAGES = ("firmware_ref", "hdl", "sim", "boards")


def rows():
    """The folders the page's table names, as written (`hdl/<game>/` included)."""
    return set(re.findall(r"^\| `([\w<>/]+)/` \|", PAGE.read_text(), re.MULTILINE))


def games():
    """The game folders: a core in hdl/<name>/ beside a golden model of the same name."""
    return {path.parent.name for path in ROOT.glob("hdl/*/cartridge.py")
            if (ROOT / "firmware_ref" / path.parent.name).is_dir()}


def folders():
    """The packages on disk, a game's folder written as the table writes it."""
    found = {"tests", "docs"} | set(PACKAGES)
    for package in PACKAGES:
        for init in (ROOT / package).rglob("__init__.py"):
            folder = init.parent.relative_to(ROOT)
            if len(folder.parts) == 2 and folder.parts[1] in games() - {"eth"}:
                found.add(f"{folder.parts[0]}/<game>")
            elif len(folder.parts) > 2 and folder.parts[1] in games():
                continue                        # inside a game: that game's own business
            else:
                found.add(str(folder))
    return found


def differences(named, on_disk):
    """Folders without a row, and rows without a folder."""
    return sorted(on_disk - named), sorted(named - on_disk)


def test_the_page_names_every_folder_and_only_folders_that_are_there():
    named = rows()
    assert len(named) > 10, "the table of folders is not found"
    assert differences(named, folders()) == ([], [])


def test_a_folder_without_a_row_or_a_row_without_a_folder_is_seen():
    on_disk = folders()
    assert differences(on_disk - {"sim/waves"}, on_disk) == (["sim/waves"], [])
    assert differences(on_disk | {"sim/gone"}, on_disk) == ([], ["sim/gone"])


# -- the layers inside sim/ and boards/ -------------------------------------------------

def drawn(text):
    """{package: its layers, bottom first, each (its number, its groups as LAYERS
    writes them)} from the page's drawing: the code block whose first line names the
    packages, each line after it a layer of each package in its column (``N  names``,
    ``|`` between the groups of one layer)."""
    block = re.search(r"^```\n(  sim/ +boards/\n.*?)^```", text, re.M | re.S).group(1)
    head, *lines = block.splitlines()
    starts = {match.group(1): match.start() for match in re.finditer(r"(\w+)/", head)}
    ends = list(starts.values())[1:] + [None]
    layers = {package: [] for package in starts}
    for line in lines:
        for (package, start), end in zip(starts.items(), ends):
            if line[start:end].strip():
                rank, names = line[start:end].split(maxsplit=1)
                groups = [" ".join(name.rstrip("/") for name in group.split())
                          for group in names.split("|")]
                layers[package].insert(0, (int(rank), groups))
    return layers


def test_the_drawing_of_the_layers_is_the_order_the_test_holds():
    assert drawn(PAGE.read_text()) == {package: list(enumerate(layers))
                                       for package, layers in LAYERS.items()}


def test_a_drawing_of_another_order_is_seen():
    text, held = PAGE.read_text(), {package: list(enumerate(layers))
                                    for package, layers in LAYERS.items()}
    swapped = text.replace("2  chip/", "2  XXXX/").replace("1  waves/", "1  chip/ ") \
        .replace("2  XXXX/", "2  waves/")
    assert drawn(swapped)["sim"][1:3] == [(1, ["chip"]), (2, ["waves"])]
    assert drawn(swapped)["boards"] == held["boards"]
    joined = drawn(text.replace("builds/ | box/", "builds/   box/"))
    assert joined["boards"][1] == (1, ["builds box"]) and joined["sim"] == held["sim"]


# -- sizes ------------------------------------------------------------------------------

MODULE_LINES, FUNCTION_LINES = 500, 100
# Appendix C's state table written out whole (docs/architecture.md, Sizes).
WHOLE = {("hdl/eth/controller.py", "Controller.elaborate")}
SOURCES = ("*.py", "*.js", "*.cc", "*.css", "*.html")


def too_long(root, folders):
    """Modules over MODULE_LINES and functions over FUNCTION_LINES in `folders` of
    `root`, as ``path`` and ``path: Class.function (lines)``."""
    found = []
    for pattern in SOURCES:
        for path in sorted(p for folder in folders for p in (root / folder).rglob(pattern)):
            name = str(path.relative_to(root))
            text = path.read_text()
            if len(text.splitlines()) > MODULE_LINES:
                found.append(name)
            if path.suffix == ".py":
                found += [f"{name}: {function} ({lines})"
                          for function, lines in functions(ast.parse(text))
                          if lines > FUNCTION_LINES and (name, function) not in WHOLE]
    return found


def functions(tree, prefix=""):
    """(qualified name, lines) of every function in `tree`, methods and nested ones too."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = prefix + node.name
            if not isinstance(node, ast.ClassDef):
                yield name, node.end_lineno - node.lineno + 1
            yield from functions(node, name + ".")


def test_no_module_over_500_lines_and_no_function_over_100():
    assert too_long(ROOT, PACKAGES) == []


def test_a_long_module_and_a_long_function_are_seen(tmp_path):
    body = "".join(f"        x{n} = {n}\n" for n in range(FUNCTION_LINES))
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "long.py").write_text("class A:\n    def f(self):\n" + body)
    (tmp_path / "p" / "page.js").write_text("//\n" * (MODULE_LINES + 1))
    assert too_long(tmp_path, ["p"]) == ["p/long.py: A.f (101)", "p/page.js"]
