"""The packages stack in one order, firmware_ref < hdl < sim < boards: each imports only
the packages below it, except that a golden model (firmware_ref/) and a core (hdl/)
never import each other, so that checking one against the other means something.
Within the golden models and the cores no module imports itself through others, so
that what two modules share lives in a third below both (firmware_ref/cartridge.py).
Read from every module's import statements, wherever in the module they stand."""

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


def modules(package, root=ROOT):
    """{module name: the package's modules it imports}, a relative ``from . import x``
    read as module ``x`` where there is one."""
    paths = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    imports = {}
    for name, path in paths.items():
        here = name.split(".")[:None if path.name == "__init__.py" else -1]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = here[:len(here) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                found |= {f"{module}.{alias.name}" if f"{module}.{alias.name}" in paths
                          else module for alias in node.names}
        imports[name] = found & set(paths) - {name}
    return imports


def cycle(imports):
    """A list of modules each importing the next, the last the first; or None."""
    done, path = set(), []

    def visit(name):
        path.append(name)
        for other in sorted(imports[name]):
            if other in path:
                return path[path.index(other):] + [other]
            if other not in done and (found := visit(other)):
                return found
        done.add(path.pop())
        return None

    return next(filter(None, (visit(name) for name in sorted(imports) if name not in done)),
                None)


@pytest.mark.parametrize("package", ["firmware_ref", "hdl"])
def test_no_module_imports_itself_through_others(package):
    assert cycle(modules(package)) is None


def test_the_cycle_check_sees_a_cycle_through_a_function(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from .b import x\n")
    (tmp_path / "pkg" / "b.py").write_text("def x():\n    from . import a\n")
    assert cycle(modules("pkg", tmp_path)) == ["pkg.a", "pkg.b", "pkg.a"]


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from boards.builds import build\n    import tests.x\n")
    assert imported(module) == {"boards", "tests"}
