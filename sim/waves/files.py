"""Reading and writing waveform files: VCD (any simulator here, Amaranth's strings
included) and FST.

`read(path)` gives a `Waves`: every variable with its scope path, width and kind, and its
value changes in file time units. Every file is read by one reader, pywellen, whatever its
format. Values are bit strings for wires ('101', 'x', 'xx01', ...; a value of 0s and 1s
without its leading zeros) and text for string variables (Amaranth writes enums so).
pywellen gives no x or z for FST vectors; what it gives as unknown is 'x'. A Verilog
escaped identifier (``\\stackregs[0].i``, as Amaranth and Icarus write it) is read
without its backslash, and pywellen's reading of ``stackregs[7]`` as an element ``[7]``
of an array scope is put back together, so every simulator's file names a signal alike.

A file that cannot be read whole (missing, a directory, not a waveform, cut short by an
interrupted run) raises `WavesError` saying which and where. pywellen reads a VCD cut in
the middle of a line as a shorter one, so the reader checks the end of a VCD itself: it
must end with a whole line, and its last time stamp is where the waves end. pywellen's
Rust prints its warnings and a panic's message on the process's stdout and stderr
itself; they are kept from the user and read instead: a time that goes back, which
pywellen skips with a warning, is a file cut short or not one run's.

`write(path, variables, unit)` writes variables as a VCD, whole or not at all.
"""

import bisect
import contextlib
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from heapq import merge
from pathlib import Path

from firmware_ref import cli

__all__ = ["Var", "Waves", "WavesError", "read", "write"]

_UNITS = {"s": Fraction(1), "ms": Fraction(1, 10**3), "us": Fraction(1, 10**6),
          "ns": Fraction(1, 10**9), "ps": Fraction(1, 10**12), "fs": Fraction(1, 10**15)}


class WavesError(ValueError):
    """A file that is not a whole waveform this reader understands."""


@dataclass
class Var:
    path: tuple             # scopes, then the variable's name
    width: int
    kind: str               # "wire", "reg", "string", ... (pywellen's type, lower case)
    times: list = field(default_factory=list)
    values: list = field(default_factory=list)

    @property
    def name(self):
        return ".".join(self.path)

    @property
    def is_string(self):
        return self.kind == "string"

    def at(self, time, *, before=False):
        """The value at `time` (file units), or just before it; None before the first."""
        k = (bisect.bisect_left if before else bisect.bisect_right)(self.times, time)
        return self.values[k - 1] if k else None

    def change(self, time, value):
        """Record a change; the last change at one time counts."""
        if self.times and self.times[-1] == time:
            self.values[-1] = value
        else:
            self.times.append(time)
            self.values.append(value)


@dataclass
class Waves:
    path: Path
    unit: Fraction          # seconds per file time unit
    vars: list
    end: int                # the last time in the file

    def seconds(self, time):
        return time * self.unit

    def units(self, seconds):
        return seconds / self.unit


def read(path):
    """The waves in `path`, a VCD or an FST file."""
    path = Path(path)
    if not path.exists():
        raise WavesError(f"{path}: no such file")
    if path.is_dir():
        raise WavesError(f"{path}: is a directory, not a waveform file")
    try:
        with path.open("rb") as file:
            vcd = file.read(4096).lstrip()[:1] == b"$"  # a VCD starts with a command
            end = _vcd_end(path, file) if vcd else None
    except OSError as error:
        raise WavesError(f"{path}: cannot read it: {error.strerror}") from None
    try:
        import pywellen
    except ImportError:
        raise WavesError(f"{path}: reading waves needs pywellen (pip install pywellen)")
    try:
        with _quiet() as printed:
            waves = _waves(path, pywellen.Waveform(str(path)), end)
    except WavesError:
        raise
    except BaseException as error:  # pywellen's errors name no class; a panic in its
        if isinstance(error, (KeyboardInterrupt, SystemExit)):  # Rust is BaseException
            raise
        raise _unreadable(path, vcd, " ".join(str(error).split())) from None
    # pywellen skips a time that goes back, with a warning.
    back = re.search(r"time decreased from (\d+) to (\d+)", "".join(printed))
    if back:
        raise WavesError(f"{path}: time goes back from {back[1]} to {back[2]}: the file "
                         f"is cut short or not one run's")
    return waves


def _vcd_end(path, file):
    """The last time stamp of the VCD `file` (0 if it has none), read from its end. A
    file cut in the middle of a line is cut short: pywellen would read the lines before."""
    size = file.seek(0, os.SEEK_END)
    block = 4096
    while True:
        start = max(0, size - block)
        file.seek(start)
        lines = file.read().splitlines(keepends=True)
        if lines and not lines[-1].endswith(b"\n"):
            raise WavesError(f"{path}: ends in the middle of a line, "
                             f"{lines[-1][-40:].decode(errors='replace')!r}: the file is "
                             f"cut short (an interrupted run?)")
        for line in reversed(lines[1 if start else 0:]):   # the first may be a part
            stamp = line.split()[0][1:] if line.startswith(b"#") else b""
            if stamp.isdigit():
                return int(stamp)
        if not start:
            return 0
        block *= 8


@contextlib.contextmanager
def _quiet():
    """Keep what is printed on the process's stdout and stderr while the block runs
    (pywellen's Rust writes its warnings and a panic's message there itself) out of the
    user's way; the list it gives holds that text once the block is over."""
    printed = []
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        saved = [os.dup(1), os.dup(2)]
    except OSError:             # no stdout or stderr to keep clean
        yield printed
        return
    with tempfile.TemporaryFile() as scratch:
        try:
            os.dup2(scratch.fileno(), 1)
            os.dup2(scratch.fileno(), 2)
            yield printed
        finally:
            for fd, copy in enumerate(saved, start=1):
                os.dup2(copy, fd)
                os.close(copy)
            scratch.seek(0)
            printed.append(scratch.read().decode(errors="replace"))


def _unreadable(path, vcd, said):
    """The WavesError for a file pywellen could not read, which said `said`; `vcd`: the
    file starts as a VCD does."""
    if vcd:
        with path.open("rb") as file:
            if b"$enddefinitions" not in file.read():
                return WavesError(f"{path}: no $enddefinitions: not a VCD file, or cut "
                                  f"short (an interrupted run?)")
        return WavesError(f"{path}: cannot read it as VCD ({said}): the file is cut short "
                          f"(an interrupted run?) or not one simulator's")
    if "unknown file format" not in said:
        return WavesError(f"{path}: cannot read it as FST (cut short?): {said}")
    empty = "" if path.stat().st_size else ": it is empty"
    if path.suffix == ".fst":
        return WavesError(f"{path}: cannot read it as FST, nor as VCD{empty}")
    return WavesError(f"{path}: not a VCD file, nor FST{empty}")


def _plain(name):
    return name[1:] if name.startswith("\\") else name


def _unit(path, timescale):
    """Seconds per time unit of pywellen's `timescale` (None: the file gives none)."""
    if timescale is None:
        return _UNITS["s"]
    unit = str(timescale.unit)
    if timescale.factor not in (1, 10, 100) or unit not in _UNITS:
        raise WavesError(f"{path}: cannot read the timescale {timescale}")
    return timescale.factor * _UNITS[unit]


def _index(signal):
    """pywellen's number of a signal (``SignalId(12)``): it numbers them in the order the
    file declares them, an alias under the number of its first name."""
    return int(str(signal)[9:-1])


def _declared(scope, scopes):
    """(path, pywellen's variable) of each variable of `scope` (whose path is `scopes`), in
    the file's order; pywellen reads ``name[k]`` as an element ``[k]`` of an array scope
    ``name``, put back here as ``name[k]``."""
    own = [(scopes + (_plain(handle.name),), handle) for handle in scope.vars()]
    for inner in scope.scopes():
        if inner.scope_type == "vhdl_array":
            array = scopes + (_plain(inner.name),)
            elements = [(array[:-1] + (array[-1] + handle.name,), handle)
                        for handle in inner.vars()]
            own = list(merge(own, elements, key=lambda item: _index(item[1].signal_ref)))
    return own


def _text(value):
    """A value pywellen gives as other than a number (a number is 0s and 1s): a bit
    string with x or z, or text, as it is; None (unknown) as 'x'; a real as its repr."""
    return "x" if value is None else value if value.__class__ is str else repr(value)


def _changes(times, values):
    """The times and values (text) of a signal's changes, as pywellen gives them; of
    several changes at one time, the last counts."""
    values = [bin(value)[2:] if value.__class__ is int else _text(value)
              for value in values]
    if len(set(times)) < len(times):
        last = dict(zip(times, values))
        times = sorted(last)
        values = [last[time] for time in times]
    return times, values


def _waves(path, waveform, end):
    """The Waves of a pywellen `waveform`; `end`: its last time (None: the last change)."""
    declared = []

    def walk(scope, scopes):
        scopes = scopes + (_plain(scope.name),)
        declared.extend(_declared(scope, scopes))
        for inner in scope.scopes():
            if inner.scope_type != "vhdl_array":
                walk(inner, scopes)

    for scope in waveform.scopes():
        walk(scope, ())
    # One pass over the file. Aliases (one signal under several names) share a signal,
    # which pywellen streams once.
    streamed = {str(handle.signal_ref): ([], []) for _, handle in declared}

    def record(time, signal, value):
        times, values = streamed[str(signal)]
        times.append(time)
        values.append(value)

    waveform.stream_changes(record, [handle for _, handle in declared])
    changes = {signal: _changes(*lists) for signal, lists in streamed.items()}
    variables = []
    for name, handle in declared:
        times, values = changes[str(handle.signal_ref)]
        variables.append(Var(name, handle.bitwidth or 1,
                             "string" if handle.is_string else handle.var_type.lower(),
                             list(times), list(values)))
    last = max((var.times[-1] for var in variables if var.times), default=0)
    return Waves(path, _unit(path, waveform.timescale), variables,
                 last if end is None else max(end, last))


def _timescale_text(unit, times):
    """The coarsest whole unit (s down to fs) in which `unit` * every time is whole."""
    for name, seconds in _UNITS.items():
        if all((time * unit / seconds).denominator == 1 for time in times):
            return name, seconds
    raise WavesError(f"times in units of {unit} s are finer than 1 fs")


def write(path, variables, unit, *, end, comment=""):
    """Write `variables` (Vars, with their changes in units of `unit` seconds) to the
    VCD `path`, in the coarsest unit that keeps every time whole, ending at `end`."""
    from vcd import VCDWriter
    times = {time for var in variables for time in var.times} | {end}
    name, seconds = _timescale_text(unit, times)
    scale = unit / seconds
    with cli.replacing(path) as file, \
            VCDWriter(file, timescale=f"1 {name}", date="", comment=comment) as vcd:
        registered = [vcd.register_var(var.path[:-1], var.path[-1],
                                       "string" if var.is_string else "wire",
                                       size=None if var.is_string else var.width)
                      for var in variables]
        changes = sorted((time, n, value) for n, var in enumerate(variables)
                         for time, value in zip(var.times, var.values))
        for time, n, value in changes:
            vcd.change(registered[n], int(time * scale), value)
        vcd.close(int(end * scale))
    return Path(path)
