"""The manual as a user reads it: README.md and docs/.

- Every ```python block runs. The blocks of one page run in order in one fresh namespace
  (a later block may use what an earlier one made); each page starts from nothing.
- Every relative link, and every docs/<page>.md named in prose, is a file that is there;
  a link's #anchor is a heading of its page.
- docs/index.md links every page of docs/ and explains the project's terms.
- docs/chip.svg draws the chip as hdl/eth/chip.py builds it: every block of `Chip` (read
  by elaborating it), every pin of its signature, every wire between them (read from
  the source), and the scan path in the order hdl/eth/scan.py gives it.
- No date, and no commit, in what a user reads: measured figures live in the files the
  commands write (BENCHMARKS.md, build reports).
- README.md stays one page: reference belongs in docs/.

Command lines are tests/test_journeys.py's: it runs every one the docs show; the files
docs/architecture.md and docs/layout.md name are tests/test_layout.py's; the modules the
prose names, tests/test_prose.py's.
"""

import ast
import contextlib
import io
import re
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
BLOCK = re.compile(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```", re.S | re.M)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
SVG = DOCS / "chip.svg"
BLOCKS = ("board", "move", "value", "stack", "controller", "keyboard")
# The terms the glossary must explain, besides any other the docs use.
TERMS = ("golden model", "cartridge", "console", "desk", "board in a box", "E.2", "lockstep",
         "backend", "museum", "netlist", "think time")


def name(page):
    return str(page.relative_to(ROOT))


# -- the Python examples -----------------------------------------------------------------

def examples(text):
    """The ```python blocks of a page, in order, dedented."""
    return [textwrap.dedent(body) for language, body in BLOCK.findall(text)
            if language == "python"]


def run_examples(page_name, blocks):
    """Run a page's blocks in order in one fresh namespace; what they printed."""
    namespace = {"__name__": "__doc_example__"}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for number, block in enumerate(blocks, start=1):
            exec(compile(block, f"{page_name}, python example {number}", "exec"), namespace)
    return printed.getvalue()


@pytest.mark.parametrize("page", [p for p in PAGES if examples(p.read_text())], ids=name)
def test_every_python_example_runs(page):
    run_examples(name(page), examples(page.read_text()))


def test_the_examples_are_found_and_a_broken_one_fails():
    found = {name(p): len(examples(p.read_text())) for p in PAGES}
    assert found["README.md"] >= 1 and found["docs/scan.md"] >= 1, found
    text = "Text.\n\n  ```python\n  x = 1\n  ```\n\n```python\nprint(x + 1)\n```\n"
    assert run_examples("page", examples(text)) == "2\n"          # one namespace a page
    with pytest.raises(ImportError):
        run_examples("page", ["from firmware_ref.eth.cycle import no_such_name\n"])


# -- links -------------------------------------------------------------------------------

def slug(heading):
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def broken_links(page):
    """The relative links of a page that lead nowhere, and the docs/<page>.md its prose
    names that are not there."""
    text = page.read_text()
    broken = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target):                   # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.is_file():
            broken.append(target)
        elif anchor and where.suffix == ".md":
            headings = re.findall(r"^#+ (.*)$", BLOCK.sub("", where.read_text()), re.M)
            if anchor not in {slug(h) for h in headings}:
                broken.append(target)
    broken += [named for named in re.findall(r"(?<![\w/.])docs/[\w-]+\.md", text)
               if not (ROOT / named).is_file()]
    return broken


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_every_link_leads_to_a_file(page):
    assert broken_links(page) == []


def test_a_broken_link_is_seen(tmp_path):
    (tmp_path / "there.md").write_text("# A heading\n")
    page = tmp_path / "page.md"
    page.write_text("[a](there.md) [b](gone.md) [c](there.md#a-heading) [d](there.md#nope) "
                    "![e](gone.svg) [f](https://example.org/x) docs/gone.md\n")
    assert broken_links(page) == ["gone.md", "there.md#nope", "gone.svg", "docs/gone.md"]


# -- the index and its glossary ----------------------------------------------------------

def index_links():
    return {target.partition("#")[0] for target in LINK.findall((DOCS / "index.md").read_text())}


def test_the_index_links_every_page():
    pages = {p.name for p in DOCS.glob("*.md")} - {"index.md"}
    assert sorted(pages - index_links()) == []
    assert "chip.svg" in index_links()


def test_the_glossary_explains_the_projects_terms():
    text = (DOCS / "index.md").read_text()
    glossary = text[text.index("## Terms"):]
    defined = {term.strip().lower() for entry in re.findall(r"^\*\*(.+?)\.\*\*", glossary, re.M)
               for term in entry.split(",")}
    assert sorted(t for t in TERMS if t.lower() not in defined) == []


# -- the picture of the chip -------------------------------------------------------------

def elaborated():
    """The blocks Chip elaborates into, by name, and its pins."""
    from amaranth.hdl import Fragment

    from hdl.eth.chip import Chip
    chip = Chip()
    blocks = {name for _, name, _ in Fragment.get(chip, None).subfragments}
    return blocks, set(chip.signature.members)


def dotted(node):
    """`controller.keypressed` as ["controller", "keypressed"]; None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return [node.id, *reversed(parts)] if isinstance(node, ast.Name) else None


def wires(source=None):
    """{(from, to): {port names}} of Chip.elaborate's assignments between blocks and pins
    ("pins" is the chip's own ports). A wire is named by the port it drives (the pin,
    when it drives one); a local name (``reset = ~self.resetN``) is followed to the pin."""
    source = source or (ROOT / "hdl/eth/chip.py").read_text()
    elaborate = next(node for node in ast.walk(ast.parse(source))
                     if isinstance(node, ast.FunctionDef) and node.name == "elaborate")
    local = {node.targets[0].id: node.value for node in ast.walk(elaborate)
             if isinstance(node, ast.Assign) and len(node.targets) == 1
             and isinstance(node.targets[0], ast.Name)}
    ends = {*BLOCKS, "self"}
    found = {}
    for call in ast.walk(elaborate):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "eq"):
            continue
        target = dotted(call.func.value)
        if not target or target[0] not in ends:
            continue                                   # the scan chain's loop: below
        value = call.args[0]
        if isinstance(value, ast.Name) and value.id in local:
            value = local[value.id]
        for node in ast.walk(value):
            origin = dotted(node) if isinstance(node, ast.Attribute) else None
            if not origin or origin[0] not in ends or len(origin) < 2:
                continue
            start = "pins" if origin[0] == "self" else origin[0]
            end = "pins" if target[0] == "self" else target[0]
            label = target[1] if end == "pins" else ".".join(target[1:])
            found.setdefault((start, end), set()).add(label)
    return found


def drawn():
    """What chip.svg draws: its blocks, its pins' words, its wires as {(from, to): words}
    and its scan caption."""
    root = ET.parse(SVG).getroot()
    text = lambda element: " ".join("".join(t.itertext()) for t in element.iter()
                                    if t.tag.endswith("text"))
    blocks = {g.get("data-block"): text(g) for g in root.iter() if g.get("data-block")}
    lines = {}
    for g in root.iter():
        if g.get("data-from"):
            key = g.get("data-from"), g.get("data-to")
            lines[key] = lines.get(key, set()) | set(re.findall(r"[\w.]+", text(g)))
    scan = " ".join(text(g) for g in root.iter() if g.get("data-scan"))
    return blocks, lines, scan, text(root)


def test_the_picture_draws_every_block_of_the_chip():
    blocks, _, _, _ = drawn()
    assert elaborated()[0] == set(BLOCKS) == set(blocks)
    for block, words in blocks.items():
        assert block in words.split()


def test_the_picture_names_every_pin_and_draws_every_wire():
    _, lines, scan, everything = drawn()
    words = set(re.findall(r"[\w.]+", everything))
    assert sorted(elaborated()[1] - words) == []
    code = wires()
    assert sorted(set(code) - set(lines)) == [], "wired in chip.py, not drawn"
    assert sorted(set(lines) - set(code)) == [], "drawn, not wired in chip.py"
    for key, labels in code.items():
        assert sorted(labels - lines[key]) == [], key
    from hdl.eth import scan as scan_path
    order = " → ".join(["scanin", *reversed(scan_path.blocks()), "scanout"])
    assert order in scan and "scan" in scan.split()


def test_a_wire_the_picture_lacks_is_seen():
    source = (ROOT / "hdl/eth/chip.py").read_text()
    assert ("move", "controller") not in wires(source)
    changed = source.replace("controller.full.eq(board.full),",
                             "controller.full.eq(board.full),\n"
                             "            controller.lasti.eq(move.i),")
    assert wires(changed)[("move", "controller")] == {"lasti"}
    assert ("pins", "board") in wires(source) and "keylow" in wires(source)[("pins", "board")]


# -- dated figures -----------------------------------------------------------------------

DATED = re.compile(r"\b20\d\d-\d\d-\d\d\b|\bcommits? \(?[0-9a-f]{7,40}\b|\([0-9a-f]{7,40}\)")


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_no_date_or_commit_in_what_a_user_reads(page):
    found = [f"{number}: {line.strip()}" for number, line
             in enumerate(page.read_text().splitlines(), start=1) if DATED.search(line)]
    assert found == [], "measured figures belong in BENCHMARKS.md or a build report"


# -- the README ------------------------------------------------------------------------

def test_the_readme_is_one_page():
    words = len(BLOCK.sub("", (ROOT / "README.md").read_text()).split())
    assert words <= 1200, f"README.md has {words} words of prose: move reference to docs/"
