"""The manual's prose held to the tree: what README.md and docs/ say of the modules.

- Every module the prose names is there. A path under one of the project's folders
  (`boards/host/clients.py`, `hdl/<game>/`, `tests/test_tactic*.py`) is a file or a
  folder that is there, read up to a `<...>` and with its `*` matched; a dotted name
  (`sim.catalogue`, `sim.catalogue.game`, `sim.backends.SIMULATORS`) is a module, or a
  module and then a name its top level defines: the longest part that is a module or
  package is one, and the name after it is that module's.
- "The table" means a real table. Where a sentence (in a table, its row; in a list, its
  item) speaks of "the table", "its table" or "one table" of a module, or of a module's
  table, that module defines one; where it speaks of a table of no one's and names
  modules, one of them does. A module defines a table when its top level binds an
  upper-case name to a collection (`GAMES`, `SIMULATORS`, `SCAN_CHAIN`), or when it is
  of the game called the table (`hdl/table/`). A page's own tables ("the table below",
  "docs/layout.md's table of games") need no module.

docs/architecture.md and docs/layout.md naming every source file is tests/test_layout.py's;
the docs/<page>.md the prose names, tests/test_docs.py's.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FOLDERS = r"(?:firmware_ref|hdl|sim|boards|tests)"
PATH = re.compile(rf"(?<![\w/.<-]){FOLDERS}/[\w./*-]*")
DOTTED = re.compile(rf"(?<![\w/.<-]){FOLDERS}(?:\.\w+)+")
# A file named in prose whose name starts as a folder does: boards.md, sim.v.
FILE = re.compile(r"\.(md|py|v|sv|il|json|svg|txt|vcd|fst|js|css|html)$")
FENCE = re.compile(r"^[ \t]*```.*?^[ \t]*```", re.S | re.M)
ITEM = re.compile(r"^\s*(?:[-*]|\d+\.)\s")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(])")
# "the table", "its table", "one table" (with "of" what it is) and something's table.
TABLE = re.compile(r"\b(?:the|its|one)\s+(?:one\s+)?tables?\b(?!\s+(?:below|above))"
                   r"(?:\s+of\s+(?P<of>[\w./`-]+))?|(?P<owner>[\w./`-]+)'s?\s+tables?\b",
                   re.I)
CONSTANT = re.compile(r"[A-Z][A-Z0-9_]*$")
COLLECTIONS = (ast.Dict, ast.List, ast.Tuple, ast.Set, ast.DictComp, ast.ListComp,
               ast.SetComp)


# -- modules, as the prose names them ----------------------------------------------------

def module(named):
    """The source file of the module or package `named` (a path, or a dotted name's
    longest module part), and the dotted name's rest: (file or None, [names])."""
    if "/" in named:
        parts, rest = named.rstrip("/").removesuffix(".py").split("/"), []
    else:
        parts, rest = named.split("."), []
        while parts and not (ROOT.joinpath(*parts).is_dir()
                             or ROOT.joinpath(*parts).with_suffix(".py").is_file()):
            rest.insert(0, parts.pop())
    path = ROOT.joinpath(*parts)
    for source in (path.with_suffix(".py"), path / "__init__.py"):
        if source.is_file():
            return source, rest
    return None, rest


def top_level(source):
    """The statements at the top level of `source`, into its ifs and trys."""
    nodes = list(ast.parse(source.read_text()).body)
    while nodes:
        node = nodes.pop(0)
        yield node
        if isinstance(node, (ast.If, ast.Try)):
            nodes[:0] = [*node.body, *node.orelse, *getattr(node, "finalbody", [])]


def bound(node):
    """The names a top-level statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    targets = (node.targets if isinstance(node, ast.Assign)
               else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign))
               else [])
    return {name.id for target in targets for name in ast.walk(target)
            if isinstance(name, ast.Name)}


def missing(text):
    """The paths and dotted names `text` names that the tree lacks."""
    gone = []
    for named in PATH.findall(text):
        path = named.split("<")[0].rstrip(".-")
        if not (next(ROOT.glob(path), None) if "*" in path else (ROOT / path).exists()):
            gone.append(named)
    for named in DOTTED.findall(text):
        if FILE.search(named):
            continue
        source, rest = module(named)
        if rest and (source is None
                     or rest[0] not in set().union(*map(bound, top_level(source)))):
            gone.append(named)
    return gone


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_module_the_prose_names_is_there(page):
    assert missing(page.read_text()) == []


def test_a_module_that_is_not_there_is_seen():
    text = ("`boards/host/clients.py`, `hdl/<game>/cartridge.py`, `tests/test_tactic*.py`, "
            "sim/catalogue.py. `sim.catalogue.game`, `sim.backends.SIMULATORS`, "
            "`hdl.eth.chip.Chip`, [boards.md](boards.md), `python -m sim.chip.e2`; "
            "`boards/host/tables.py`, `sim/nowhere/`, `tests/test_nothing*.py`, "
            "`sim.catalogue.nowhere`, `sim.backends.nowhere`, `hdl.nowhere.chip`")
    assert missing(text) == ["boards/host/tables.py", "sim/nowhere/",
                             "tests/test_nothing*.py", "sim.catalogue.nowhere",
                             "sim.backends.nowhere", "hdl.nowhere.chip"]


# -- "the table" -------------------------------------------------------------------------

def sentences(text):
    """The sentences of a page's prose: a table's row, a list's item and a paragraph's
    sentence each one; the code blocks left out."""
    for block in re.split(r"\n\s*\n", FENCE.sub("", text)):
        items = []
        for line in block.splitlines():
            if line.startswith("|"):
                yield line
            elif ITEM.match(line) or not items:
                items.append(line.strip())
            else:
                items[-1] += " " + line.strip()
        for item in items:
            yield from SENTENCE_END.split(item)


def defines_a_table(source):
    """`source` binds an upper-case name to a collection, or is of the table's game."""
    if "table" in source.relative_to(ROOT).parts:
        return True
    return any(isinstance(node, (ast.Assign, ast.AnnAssign))
               and isinstance(node.value, COLLECTIONS)
               and any(CONSTANT.match(name) for name in bound(node))
               for node in top_level(source))


def named_modules(text):
    """The source files of the modules `text` names."""
    return {module(named)[0] for named in [*PATH.findall(text), *DOTTED.findall(text)]
            if not FILE.search(named) or named.endswith(".py")} - {None}


def misnamed(text):
    """The sentences of `text` that call a module a table it does not define: the table
    of a module or a module's table names that module; a table of no one's names one of
    the sentence's modules, if it names any."""
    wrong = []
    for sentence in sentences(text):
        for table in TABLE.finditer(sentence):
            whose = (table["of"] or table["owner"] or "").strip("`")
            sources = named_modules(whose) or named_modules(sentence)
            if (not whose.endswith(".md") and sources
                    and not any(map(defines_a_table, sources))):
                wrong.append(sentence)
                break
    return wrong


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_the_table_is_a_table(page):
    assert misnamed(page.read_text()) == []


def test_a_module_called_the_table_is_seen():
    text = ("Its client (`boards/host/bomb.py`, in the table of boards/host/clients.py)\n"
            "takes over. The clients (boards/host/clients.py's table) play.\n\n"
            "| `boards/host/clients.py` | the one table from a game to its client |\n"
            "| `sim/backends/__init__.py` | the table of simulators |\n\n"
            "- `sim.backends`' table names them; `sim/catalogue.py` is the table of games.\n"
            "- A row in docs/layout.md's table of games; `tests/test_layout.py` reads it.\n"
            "- `hdl/eth/scan.py` defines the table below. `firmware_ref/table/rom.py`: the\n"
            "  table built from `choose`.\n\n"
            "```\nthe table of boards/host/clients.py\n```\n")
    assert misnamed(text) == [
        "Its client (`boards/host/bomb.py`, in the table of boards/host/clients.py) takes "
        "over.", "The clients (boards/host/clients.py's table) play.",
        "| `boards/host/clients.py` | the one table from a game to its client |"]
