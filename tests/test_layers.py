"""The packages stack in one order, firmware_ref < hdl < sim < boards: each imports only
the packages below it, except that a golden model (firmware_ref/) and a core (hdl/)
never import each other, so that checking one against the other means something.
Inside sim/ and boards/ the folders stack too (`LAYERS`, drawn in docs/architecture.md):
each imports only its own layer and those below it. Within all of them no two modules
import each other, however far round: a cycle would tie their order of import to which
is imported first. All are read from every module's import statements, wherever in the
module they stand (inside a function too)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAY_IMPORT = {
    "firmware_ref": set(),
    "hdl": set(),
    "sim": {"firmware_ref", "hdl"},
    "boards": {"firmware_ref", "hdl", "sim"},
}


def imported(path):
    """The project's top-level packages that the module at `path` imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & set(MAY_IMPORT) | ({"tests"} & found)


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_each_package_imports_only_those_below_it(package):
    wrong = {str(path.relative_to(ROOT)): sorted(imported(path) - MAY_IMPORT[package]
                                                 - {package})
             for path in sorted((ROOT / package).rglob("*.py"))}
    assert not {path: names for path, names in wrong.items() if names}


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from boards.builds import build\n    import tests.x\n")
    assert imported(module) == {"boards", "tests"}


# -- the modules each module imports, and cycles between them ---------------------------

def modules(root, packages):
    """{dotted name: path} of every module of `packages` under `root`; a package is its
    ``__init__.py``."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(name, path, known):
    """The modules of `known` that module `name` (at `path`) imports: for each import,
    the deepest module its dotted name reaches (``from sim.chip import games`` is
    sim.chip.games, ``from sim import BUILD`` is sim). Its own packages' ``__init__``
    are left out: Python runs them before the module anyway, and a package's
    ``__init__`` that gathers names from its modules is no cycle."""
    own = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:                  # relative: from its own package up
                base = ".".join(own[:len(own) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def cycles(root, packages):
    """Each set of modules of `packages` that import one another round, as one cycle
    through them (a list of names, the first again at its end), sorted."""
    known = modules(root, packages)
    graph = {name: imports(name, path, known) for name, path in known.items()}
    found = []
    for group in _strongly_connected(graph):
        if len(group) > 1:
            found.append(_cycle_through(min(group), group, graph))
    return sorted(found)


def _strongly_connected(graph):
    """Tarjan's strongly connected components of `graph` ({node: set of nodes})."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.add(other)
                if other == node:
                    break
            groups.append(group)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def _cycle_through(start, group, graph):
    """A shortest path within `group` from `start` back to it."""
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for other in sorted(graph[path[-1]] & group):
            if other == start:
                return path + [start]
            if other not in seen:
                seen.add(other)
                paths.append(path + [other])
    raise AssertionError(f"no cycle through {start}")


def test_no_two_modules_import_each_other():
    found = cycles(ROOT, MAY_IMPORT)
    assert not found, "modules that import each other:\n" + "\n".join(
        " -> ".join(cycle) for cycle in found)


def written(root, files):
    """A made-up package for a check's own test: `files` ({path: text}) under `root`."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_the_check_catches_a_cycle_and_leaves_a_package_and_its_modules_alone(tmp_path):
    written(tmp_path / "pkg", {
        # A package that gathers its modules' names, and a module that reads a name of
        # its package: no cycle.
        "__init__.py": "from pkg.c import NAME\n",
        "c.py": "from pkg import ROOT\nNAME = 1\n",
        # A cycle of three, one of its imports relative and one inside a function.
        "a.py": "from pkg import b\n",
        "b.py": "from .sub.d import f\n",
        "sub/__init__.py": "",
        "sub/d.py": "def f():\n    import pkg.a\n",
        # A module that imports itself is no cycle between modules.
        "e.py": "from pkg import e\n",
    })
    assert cycles(tmp_path, ["pkg"]) == [["pkg.a", "pkg.b", "pkg.sub.d", "pkg.a"]]


# -- the layers inside sim/ and boards/ -------------------------------------------------

# Bottom first. A layer is one or more groups, each a folder or the package's own modules
# (its files beside the folders): a module imports its own group and the layers below;
# two groups of one layer never import each other.
LAYERS = {
    "sim": [
        ["__init__.py tools.py cache.py catalogue.py yosys_json.py"],
        ["waves"],
        ["chip"],
        ["backends"],
        ["bench", "cartridges", "watch"],
        ["verification"],
        ["reports"],
    ],
    "boards": [
        ["__init__.py gateware"],
        ["builds", "box"],
        ["host"],
        ["web", "tinytapeout"],
        ["site"],
        ["commands ttt.py __main__.py"],
    ],
}


def upward(root, package, layers):
    """Each import in `package` (a folder under `root`) that `layers` forbids, as (the
    importing module's path, the module imported, why), sorted; a module in no layer is
    one too, with None for the module imported. A module's group is named by its folder
    under the package, or by its file name where it stands in the package itself."""
    place = {name: (rank, names) for rank, layer in enumerate(layers) for names in layer
             for name in names.split()}
    known = modules(root, [package])

    def where(name):
        return place.get(known[name].relative_to(root / package).parts[0])
    found = []
    for name, path in known.items():
        shown, mine = str(path.relative_to(root)), where(name)
        if mine is None:
            found.append((shown, None, "in no layer"))
            continue
        for target in sorted(imports(name, path, known)):
            theirs = where(target)
            if theirs is None or theirs[0] < mine[0] or theirs[1] == mine[1]:
                continue            # in no layer (found as such), below, or its own group
            why = "the other group of its layer" if theirs[0] == mine[0] else \
                f"layer {theirs[0]}, above its {mine[0]}"
            found.append((shown, target, why))
    return sorted(found, key=lambda row: (row[0], row[1] or ""))


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_each_layer_inside_a_package_imports_only_its_own_and_those_below(package):
    found = upward(ROOT, package, LAYERS[package])
    assert not found, "imports against the layers:\n" + "\n".join(
        f"{path} -> {target}: {why}" for path, target, why in found)


def test_the_layer_check_catches_an_import_upward_or_across_and_a_module_in_no_layer(
        tmp_path):
    written(tmp_path / "pkg", {
        **{f"{name}/__init__.py": "" for name in ("low", "left", "right", "high", "stray")},
        # Below, in its own group, and the package's own modules: all allowed.
        "__init__.py": "ROOT = 1\n",
        "base.py": "from pkg import ROOT\n",
        "low/a.py": "from pkg.base import ROOT\nfrom . import b\n",
        "low/b.py": "",
        "high/top.py": "from pkg.left import x\nfrom pkg.right import y\nimport pkg.low\n",
        "left/x.py": "from pkg.low import b\n",
        # Upward, inside a function; across to the other group of its layer.
        "right/y.py": "def f():\n    from pkg.high import top\n",
        "left/z.py": "from ..right import y\n",
        # A module whose folder has no layer.
        "stray/s.py": "",
    })
    layers = [["__init__.py base.py low"], ["left", "right"], ["high"]]
    assert upward(tmp_path, "pkg", layers) == [
        ("pkg/left/z.py", "pkg.right.y", "the other group of its layer"),
        ("pkg/right/y.py", "pkg.high.top", "layer 2, above its 1"),
        ("pkg/stray/__init__.py", None, "in no layer"),
        ("pkg/stray/s.py", None, "in no layer"),
    ]


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_the_layers_upside_down_are_caught_in_the_tree(package):
    # The tree's own imports break the order turned over: each layer above the first
    # imports one below it, so the order the test holds the tree to is no formality.
    found = upward(ROOT, package, LAYERS[package][::-1])
    assert {why for _, _, why in found if why.startswith("layer")}
