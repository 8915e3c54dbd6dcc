"""The table of verbs (boards/commands/): each verb one module with its whole self,
``ttt -h``, ``make help`` and docs/commands.md saying the same verbs, listing them
costing no heavy import, and the verbs at the top of boards/: the host's side plays the
stream a verb opened, and makes no board."""

import ast
import re
import subprocess
import sys

import pytest
from user import ROOT

from boards import commands
from boards.ttt import main

PACKAGE = ROOT / "boards" / "commands"
HELPERS = {"__init__", "options"}           # modules of the package that are no verb
# The make verbs that run no ttt subcommand, and what they run instead.
NOT_TTT = {"help": "make's own listing", "test": "pytest", "test-builds": "pytest",
           "test-slow": "pytest", "clean": "rm"}
HEAVY = ("amaranth", "numpy", "hdl", "sim.cartridges", "sim.verification", "sim.backends")


def make_verbs():
    """{make verb: (its line in make help, the ttt subcommands its recipe runs)}."""
    text = (ROOT / "Makefile").read_text()
    found = {}
    for target, line, recipe in re.findall(r"^([a-z-]+):.*?## (.*)\n((?:\t.*\n)*)", text,
                                           re.M):
        found[target] = (line, re.findall(r"\$\(TTT\) ([a-z0-9-]+)", recipe))
    return found


def listed(help_text):
    """{subcommand: its line} as ``ttt -h`` lists them, each line's wrapping undone."""
    section = help_text.split("  command\n", 1)[1].split("\noptions:", 1)[0]
    found, name = {}, None
    for line in section.splitlines():
        head = re.match(r"^    (\S+)(?:\s+(.*))?$", line)
        if head:
            name = head[1]
            found[name] = head[2] or ""
        elif line.strip():
            found[name] = f"{found[name]} {line.strip()}".strip()
    return found


def test_each_verb_is_one_module_with_its_whole_self():
    modules = {path.stem for path in PACKAGE.glob("*.py")} - HELPERS
    assert modules == {name.replace("-", "_") for name in commands.NAMES}
    for name, module in commands.verbs().items():
        assert module.SUMMARY and "\n" not in module.SUMMARY, name
        assert isinstance(module.MAKE, tuple), name
        assert module.ABOUT.strip(), name
        assert callable(module.arguments) and callable(module.run), name


def test_ttt_h_lists_the_table_with_each_summary(capsys):
    with pytest.raises(SystemExit) as done:
        main(["-h"])
    assert done.value.code == 0
    assert listed(capsys.readouterr().out) == {
        name: commands.summary(module) for name, module in commands.verbs().items()}


def test_make_help_and_the_table_name_the_same_verbs_in_the_same_words():
    found = make_verbs()
    for target, (_, runs) in found.items():
        if target in NOT_TTT:
            assert runs == [], f"make {target} runs ttt {runs}"
        else:
            assert len(runs) == 1, f"make {target} runs {len(runs)} ttt subcommands"
            assert runs[0] in commands.NAMES, f"make {target} runs no verb: {runs[0]}"
    for name, module in commands.verbs().items():
        running = {target for target, (_, runs) in found.items() if runs == [name]}
        assert running == set(module.MAKE), f"ttt {name}: MAKE says {module.MAKE}"
        if module.MAKE:
            line = found[module.MAKE[0]][0]
            assert line.startswith(module.SUMMARY), (
                f"make help's line of make {module.MAKE[0]} begins otherwise than ttt "
                f"{name}'s summary:\n  {line}\n  {module.SUMMARY}")


def test_the_manual_names_every_verb_and_no_other():
    text = (ROOT / "docs" / "commands.md").read_text()
    make_named = set(re.findall(r"`make ([a-z-]+)", text))
    ttt_named = set(re.findall(r"`(?:\.venv/bin/)?ttt ([a-z][a-z0-9-]*)", text))
    assert make_named == set(make_verbs()), "docs/commands.md and make help differ"
    assert ttt_named <= set(commands.NAMES), "docs/commands.md names no such subcommand"
    only_ttt = {name for name, module in commands.verbs().items() if not module.MAKE}
    assert only_ttt <= ttt_named, "docs/commands.md leaves out a subcommand of ttt alone"


def test_listing_the_verbs_imports_nothing_heavy():
    # In a fresh interpreter: this one has imported everything already.
    code = ("import sys; from boards import ttt; ttt.parser(); "
            f"print(' '.join(m for m in sys.modules if m.startswith({HEAVY!r})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.split() == []


def test_the_checks_see_a_verb_missing_from_a_listing():
    # make_verbs and listed read what they are given, not the table.
    assert "sim" in make_verbs() and make_verbs()["sim"][1] == ["e2"]
    text = "  command\n    e2        replay\n              it\n    boards    list\n\noptions:"
    assert listed(text) == {"e2": "replay it", "boards": "list"}


def reached(path):
    """The dotted modules that the module at `path` imports, relative imports resolved."""
    package = path.relative_to(ROOT).parent.parts
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else ()
            module = ".".join([*base, *([node.module] if node.module else [])])
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def test_only_the_dispatcher_reaches_the_verbs_and_the_host_makes_no_board():
    top = {ROOT / "boards" / "ttt.py", ROOT / "boards" / "__main__.py"}
    for path in (ROOT / "boards").rglob("*.py"):
        if path in top or PACKAGE in path.parents:
            continue
        wrong = {name for name in reached(path)
                 if name.startswith(("boards.commands", "boards.ttt"))}
        assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)}"
    for path in (ROOT / "boards" / "host").glob("*.py"):
        wrong = {name for name in reached(path)
                 if name.startswith(("boards.box", "boards.builds", "boards.web"))}
        assert not wrong, f"{path.relative_to(ROOT)} imports {sorted(wrong)}"


def test_the_import_reader_resolves_relative_imports():
    module = ROOT / "boards" / "host" / "console.py"
    assert "boards.host.link.Link" in reached(module)
    assert "sim.catalogue" in reached(module)
