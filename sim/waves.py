"""Reading and writing waveform files: VCD (any simulator here, Amaranth's strings
included) and FST.

`read(path)` gives a `Waves`: every variable with its scope path, width and kind, and its
value changes in file time units. Values are kept as the file gives them: a bit string
('0101', 'x', ...) for wires, text for string variables (Amaranth writes enums so).
A Verilog escaped identifier (``\\stackregs[0].i``, as Amaranth and Icarus write it) is
read without its backslash, which is not part of the name, so every simulator's file
names a signal alike. VCD is parsed here; FST goes through pywellen, which has no x or z
for FST vectors (it gives them as unknown, written 'x').

A file that cannot be read whole (missing, a directory, not a waveform, cut short by an
interrupted run) raises `WavesError` saying which and where.

`write(path, variables, unit)` writes variables as a VCD, whole or not at all.
"""

import bisect
from dataclasses import dataclass, field
from fractions import Fraction
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
    kind: str               # "wire", "reg", "string", ...
    range: str = ""         # the bit range the file declares, as "[2:0]"
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
    """The waves in `path`: .fst through pywellen, anything else read here as VCD."""
    path = Path(path)
    if not path.exists():
        raise WavesError(f"{path}: no such file")
    if path.is_dir():
        raise WavesError(f"{path}: is a directory, not a waveform file")
    if path.suffix == ".fst":
        return _read_fst(path)
    try:
        text = path.read_text(errors="replace")
    except OSError as error:
        raise WavesError(f"{path}: cannot read it: {error.strerror}") from None
    return _read_vcd(path, text)


def _plain(name):
    return name[1:] if name.startswith("\\") else name


def _timescale(text, path):
    text = text.replace(" ", "")
    digits = text.rstrip("afpnumsAFPNUMS")
    unit = text[len(digits):]
    if digits not in ("1", "10", "100") or unit not in _UNITS:
        raise WavesError(f"{path}: cannot read the timescale {text!r}")
    return int(digits) * _UNITS[unit]


def _end_of(tokens, k, path):
    """The index of the ``$end`` that closes the command at `k`."""
    try:
        return tokens.index("$end", k)
    except ValueError:
        raise WavesError(f"{path}: {tokens[k]} has no $end: the file is cut short "
                         f"(an interrupted run?)") from None


def _read_vcd(path, text):
    tokens = text.split()
    scopes, by_code, variables = [], {}, []
    unit = None
    k = 0
    # The header: declarations up to $enddefinitions.
    while k < len(tokens):
        token = tokens[k]
        if not token.startswith("$"):
            raise WavesError(f"{path}: not a VCD file: {token[:40]!r} in its header")
        end = _end_of(tokens, k, path)
        if token == "$enddefinitions":
            k = end + 1
            break
        body = tokens[k + 1:end]
        if token == "$timescale":
            unit = _timescale("".join(body), path)
        elif token == "$scope":
            if not body:
                raise WavesError(f"{path}: a $scope without a name")
            scopes.append(_plain(body[-1]))
        elif token == "$upscope":
            if not scopes:
                raise WavesError(f"{path}: $upscope outside any scope")
            scopes.pop()
        elif token == "$var":
            if len(body) < 4 or not body[1].isdigit():
                raise WavesError(f"{path}: malformed $var {' '.join(body)!r}")
            kind, width, code, name = body[0], int(body[1]), body[2], _plain(body[3])
            var = Var(tuple(scopes) + (name,), width, kind, "".join(body[4:]))
            variables.append(var)
            by_code.setdefault(code, []).append(var)
        k = end + 1
    else:
        raise WavesError(f"{path}: no $enddefinitions: not a VCD file, or cut short")
    if unit is None:
        unit = _UNITS["s"]
    # The body: times and value changes.
    time = 0
    while k < len(tokens):
        token = tokens[k]
        head = token[0]
        if head == "#":
            if not token[1:].isdigit():
                raise WavesError(f"{path}: cannot read the time {token!r}")
            if int(token[1:]) < time:
                raise WavesError(f"{path}: time goes back from {time} to {token[1:]}: "
                                 f"the file is cut short or not one run's")
            time = int(token[1:])
        elif head in "bBrRsS":
            if k + 1 == len(tokens):
                raise _no_variable(path, token)
            value = token[1:] if head in "sS" else token[1:].lower()
            _change(by_code, tokens[k + 1], time, value, path)
            k += 1
        elif head in "01xXzZ":
            if len(token) == 1:
                raise _no_variable(path, token)
            _change(by_code, token[1:], time, head.lower(), path)
        elif token in ("$comment", "$version", "$date"):
            k = _end_of(tokens, k, path)
        elif head != "$":
            raise WavesError(f"{path}: cannot read {token[:40]!r} at time {time}")
        k += 1
    return Waves(path, unit, variables, time)


def _no_variable(path, token):
    return WavesError(f"{path}: the change {token!r} names no variable: the file is cut "
                      f"short (an interrupted run?)")


def _change(by_code, code, time, value, path):
    variables = by_code.get(code)
    if variables is None:
        raise WavesError(f"{path}: a change of the undeclared variable {code!r} at time "
                         f"{time} (a file cut short, or not one simulator's)")
    for var in variables:
        var.change(time, value)


def _read_fst(path):
    try:
        import pywellen
    except ImportError:
        raise WavesError(f"{path}: reading FST needs pywellen (pip install pywellen)")
    try:
        return _fst(path, pywellen.Waveform(str(path)))
    except WavesError:
        raise
    except BaseException as error:  # pywellen's errors name no class; a panic in its
        if isinstance(error, (KeyboardInterrupt, SystemExit)):  # Rust is BaseException
            raise
        said = " ".join(str(error).split())
        raise WavesError(f"{path}: cannot read it as FST (cut short?): {said}") from None


def _fst(path, waveform):
    unit = waveform.timescale.factor * _UNITS[str(waveform.timescale.unit)]
    variables, handles, by_signal = [], [], {}

    def walk(scope, scopes):
        scopes = scopes + (_plain(scope.name),)
        for handle in scope.vars():
            width = handle.bitwidth or 1
            name = _plain(handle.name)
            # pywellen reads Icarus's ``\stackregs[7]`` as an array scope ``stackregs``
            # with an element ``[7]``: the same name, put back together.
            path = scopes[:-1] + (scopes[-1] + name,) if name.startswith("[") else \
                scopes + (name,)
            var = Var(path, width,
                      "string" if handle.is_string else "wire",
                      f"[{width - 1}:0]" if width > 1 and not handle.is_string else "")
            variables.append(var)
            handles.append(handle)
            # Aliases (one signal under several names) share a signal, which pywellen
            # streams once.
            by_signal.setdefault(str(handle.signal_ref), []).append(var)
        for inner in scope.scopes():
            walk(inner, scopes)

    for scope in waveform.scopes():
        walk(scope, ())

    def record(time, signal, value):
        if value is None:
            value = "x"
        elif isinstance(value, int):
            value = format(value, "b")
        for var in by_signal[str(signal)]:
            var.change(time, value)

    waveform.stream_changes(record, handles)
    end = max((var.times[-1] for var in variables if var.times), default=0)
    return Waves(path, unit, variables, end)


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
