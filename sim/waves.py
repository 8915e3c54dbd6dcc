"""Reading waveform files: VCD (any simulator here, Amaranth's strings included) and FST.

`read(path)` gives a `Waves`: every variable with its scope path, width and kind, and its
value changes in file time units. Values are kept as the file gives them: a bit string
('0101', 'x', ...) for wires, text for string variables (Amaranth writes enums so).
VCD is parsed here; FST goes through pywellen, which has no x or z for FST vectors
(it gives them as unknown, written 'x').
"""

import bisect
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

__all__ = ["Var", "Waves", "WavesError", "read"]

_UNITS = {"s": Fraction(1), "ms": Fraction(1, 10**3), "us": Fraction(1, 10**6),
          "ns": Fraction(1, 10**9), "ps": Fraction(1, 10**12), "fs": Fraction(1, 10**15)}


class WavesError(ValueError):
    """A file that is not a waveform this reader understands."""


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
    """The waves in `path`: .vcd read here, .fst through pywellen."""
    path = Path(path)
    if not path.exists():
        raise WavesError(f"{path}: no such file")
    if path.suffix == ".fst":
        return _read_fst(path)
    return _read_vcd(path)


def _timescale(text, path):
    text = text.replace(" ", "")
    digits = text.rstrip("afpnumsAFPNUMS")
    unit = text[len(digits):]
    if digits not in ("1", "10", "100") or unit not in _UNITS:
        raise WavesError(f"{path}: cannot read the timescale {text!r}")
    return int(digits) * _UNITS[unit]


def _read_vcd(path):
    text = path.read_text(errors="replace")
    tokens = text.split()
    scopes, by_code, variables = [], {}, []
    unit = None
    k = 0
    # The header: declarations up to $enddefinitions.
    while k < len(tokens):
        token = tokens[k]
        if token == "$enddefinitions":
            k = tokens.index("$end", k) + 1
            break
        end = tokens.index("$end", k) if token.startswith("$") else None
        if end is None:
            raise WavesError(f"{path}: not a VCD file: {token!r} in its header")
        body = tokens[k + 1:end]
        if token == "$timescale":
            unit = _timescale("".join(body), path)
        elif token == "$scope":
            scopes.append(body[-1])
        elif token == "$upscope":
            scopes.pop()
        elif token == "$var":
            if len(body) < 4:
                raise WavesError(f"{path}: malformed $var {' '.join(body)!r}")
            kind, width, code, name = body[0], int(body[1]), body[2], body[3]
            var = Var(tuple(scopes) + (name,), width, kind, "".join(body[4:]))
            variables.append(var)
            by_code.setdefault(code, []).append(var)
        k = end + 1
    else:
        raise WavesError(f"{path}: no $enddefinitions: not a VCD file")
    if unit is None:
        unit = _UNITS["s"]
    # The body: times and value changes.
    time = 0
    while k < len(tokens):
        token = tokens[k]
        head = token[0]
        if head == "#":
            time = int(token[1:])
        elif head in "bBrR":
            _change(by_code, tokens[k + 1], time, token[1:].lower(), path)
            k += 1
        elif head in "sS":
            _change(by_code, tokens[k + 1], time, token[1:], path)
            k += 1
        elif head in "01xXzZ":
            _change(by_code, token[1:], time, head.lower(), path)
        elif head != "$":
            raise WavesError(f"{path}: cannot read {token!r} at time {time}")
        k += 1
    return Waves(path, unit, variables, time)


def _change(by_code, code, time, value, path):
    variables = by_code.get(code)
    if variables is None:
        raise WavesError(f"{path}: a change of the undeclared variable {code!r}")
    for var in variables:
        if var.times and var.times[-1] == time:
            var.values[-1] = value          # the last change at a time counts
        else:
            var.times.append(time)
            var.values.append(value)


def _read_fst(path):
    try:
        import pywellen
    except ImportError:
        raise WavesError(f"{path}: reading FST needs pywellen (pip install pywellen)")
    try:
        waveform = pywellen.Waveform(str(path))
    except Exception as error:
        raise WavesError(f"{path}: cannot read it as FST: {error}")
    unit = waveform.timescale.factor * _UNITS[str(waveform.timescale.unit)]
    variables, end = [], 0
    for handle in waveform.all_vars():
        kind = "string" if handle.is_string else "wire"
        width = handle.bitwidth or 1
        var = Var(tuple(handle.full_name.split(".")), width, kind,
                  f"[{width - 1}:0]" if width > 1 and not handle.is_string else "")

        def record(time, _signal, value, var=var):
            if value is None:
                value = "x"
            elif isinstance(value, int):
                value = format(value, "b")
            var.times.append(time)
            var.values.append(value)
        waveform.stream_changes(record, [handle])
        if var.times:
            end = max(end, var.times[-1])
        variables.append(var)
    return Waves(path, unit, variables, end)
