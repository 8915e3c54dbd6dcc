"""The packages stack in one order, firmware_ref < hdl < sim < boards: each imports only
the packages below it, except that a golden model (firmware_ref/) and a core (hdl/)
never import each other, so that checking one against the other means something.
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


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from boards.builds import build\n    import tests.x\n")
    assert imported(module) == {"boards", "tests"}
