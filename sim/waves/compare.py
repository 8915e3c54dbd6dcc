"""Compare two waveform files signal by signal at every clock edge.

    ttt compare EXPECTED ACTUAL [--signals PATTERN ...] [--clock NAME]   (make compare)

Each file's design is the scope that holds its clock (``cp``; ``clk`` in a file
Amaranth wrote itself): ``ttt_chip`` in every file this project writes. Scopes named
``$...`` are a simulator's own (Verilator's ``$rootio`` copies the pins) and are not read.
Signals are paired by their whole path below the design's scope, and by nothing
else: ``controller.state`` pairs with ``controller.state`` only, never with a ``state``
elsewhere. Expected signals with no partner are listed and not compared.

The files are sampled just before every rising and every falling edge of the expected
file's clock, and at its end; the actual file at the same instants (times are converted
through each file's timescale).

An x is a value its file does not know (the golden model's 'u', E.2's never-written
registers): x bits on either side are not compared, and the summary counts them. A
signal with no value yet in the actual file where the expected has one is a
difference, and so is one that is x throughout in the actual file while the expected
knows it (an undriven net checks nothing). A string against a number (Amaranth writes
enums as their names, a netlist as codes) is compared through the chip's enums (state,
choose).

Prints the first divergence (time, cycle, signal, expected, actual) and a summary.
Actual waves that end before the expected's last clock edge (a run cut short) are not
equal, even where they hold the same values.
Exit status: 0 equal, 1 different or ending early, 2 the files could not be compared
(missing, a directory, not a waveform, cut short, no clock, no signal in common), 130
interrupted. The last line says which, as make passes on only success or failure
(docs/decisions.md): ``no difference``, ``DIFFERENT: ...`` or ``error: cannot compare:
...``.
"""

import fnmatch
from dataclasses import dataclass, field

from firmware_ref import cli

from sim.waves.files import WavesError, read

__all__ = ["Difference", "Report", "compare", "chip_enums", "run"]

CLOCKS = ("cp", "clk")


@dataclass(frozen=True)
class Difference:
    seconds: object         # Fraction: when the values were sampled
    cycle: int              # rising edges of the expected clock before that
    edge: str               # the edge the sample is just before ("rising", "falling", "end")
    signal: str
    expected: str
    actual: str

    def __str__(self):
        when = "at the end" if self.edge == "end" else f"just before a {self.edge} edge"
        return (f"{_ns(self.seconds)} (cycle {self.cycle}, {when}): {self.signal} is "
                f"{self.actual} in the actual waves, {self.expected} in the expected")


@dataclass
class Report:
    expected: str
    actual: str
    pairs: list = field(default_factory=list)       # names compared, found in both
    unpaired: list = field(default_factory=list)    # expected names with no partner
    samples: int = 0
    cycles: int = 0
    differences: list = field(default_factory=list)  # every differing sample
    dont_care: int = 0          # samples with x bits in the expected waves
    unknown_actual: int = 0     # samples with x bits in the actual waves
    ends_early: object = None   # Fraction seconds: where the actual waves end, if early

    @property
    def equal(self):
        """No difference, over the whole of the expected waves."""
        return not self.differences and self.ends_early is None

    def summary(self):
        lines = [f"expected: {self.expected}", f"actual:   {self.actual}",
                 f"compared {len(self.pairs)} signals at {self.samples} instants "
                 f"({self.cycles} clock cycles, both edges)"]
        for count, which in ((self.dont_care, "expected"),
                             (self.unknown_actual, "actual")):
            if count:
                lines.append(f"{count} samples had unknown (x) bits in the {which} "
                             f"waves; those bits were not compared")
        if self.unpaired:
            shown = ", ".join(self.unpaired[:8]) + (" ..." if len(self.unpaired) > 8 else "")
            lines.append(f"{len(self.unpaired)} expected signals have no partner in the "
                         f"actual waves and were not compared: {shown}")
        if self.ends_early is not None:
            lines.append(f"the actual waves end at {_ns(self.ends_early)}, before the "
                         f"expected's last clock edge: later they hold their last values")
        if not self.differences:
            lines.append("no difference" if self.equal else
                         "DIFFERENT: no difference where both have values, but the actual "
                         "waves do not cover the expected's")
            return "\n".join(lines)
        lines.append(f"FIRST DIFFERENCE at {self.differences[0]}")
        by_signal = {}
        for difference in self.differences:
            by_signal.setdefault(difference.signal, []).append(difference)
        lines.append(f"{len(self.differences)} differing samples in "
                     f"{len(by_signal)} signals:")
        for signal, found in by_signal.items():
            cycles = sorted({d.cycle for d in found})
            lines.append(f"  {signal}: {len(cycles)} cycles, first cycle {cycles[0]} "
                         f"({_ns(found[0].seconds)})")
        # The verdict last, where it is seen under a long list (and above make's own
        # line, which says only that the command failed).
        first = self.differences[0]
        lines.append(f"DIFFERENT: {len(by_signal)} signal"
                     f"{' differs' if len(by_signal) == 1 else 's differ'}, the first "
                     f"({first.signal}) at cycle {first.cycle}")
        return "\n".join(lines)


def _ns(seconds):
    return f"{float(seconds * 10**9):g} ns"


def chip_enums():
    """The chip's enum-valued signals by name: code -> member name (hdl.eth.controller)."""
    from hdl.eth.controller import Choose, State
    return {"state": {m.value: m.name for m in State},
            "choose": {m.value: m.name for m in Choose}}


def _is_simulators(path):
    return any(scope.startswith("$") for scope in path[:-1])


def _clock(waves, names):
    """The design's clock: the shallowest variable named as a clock, outside any
    simulator's own scope."""
    found = [v for v in waves.vars if v.path[-1] in names and not v.is_string
             and not _is_simulators(v.path)]
    if not found:
        raise WavesError(f"{waves.path}: no clock: none of {', '.join(names)} is in it")
    return min(found, key=lambda v: len(v.path))


def _design(waves, clock):
    """Every variable below the clock's scope, by its path below that scope."""
    top = len(clock.path) - 1
    names = {}
    for var in waves.vars:
        if var.path[:top] == clock.path[:top] and not _is_simulators(var.path):
            names.setdefault(".".join(var.path[top:]), var)
    return names


def _samples(clock):
    """(time, edge) just before which the expected waves are sampled."""
    samples, last = [], None
    for time, value in zip(clock.times, clock.values):
        if last is not None and value != last and value in "01":
            samples.append((time, "rising" if value == "1" else "falling"))
        last = value
    return samples


def _bits(value, width):
    if value is None:
        return "x" * width
    pad = value[0] if value[0] in "xz" else "0"
    return value.rjust(width, pad)[-width:] if len(value) <= width else value


def _same(expected, e_string, actual, a_string, width, enums):
    """(equal, unknown bits in the expected, unknown bits in the actual) for two sampled
    values; `*_string`: the variable holds text. An x on either side is not compared;
    no value at all in the actual is a difference."""
    if actual is None:
        return expected is None, False, False
    if expected is None:
        return True, True, False
    if e_string or a_string:
        unknown = [not string and set(value) == {"x"}
                   for value, string in ((expected, e_string), (actual, a_string))]
        if any(unknown):
            return True, *unknown
        def name(value, is_string):
            if is_string:
                return value.lower()
            if set(value) <= set("01") and enums is not None:
                member = enums.get(int(value, 2))
                return member.lower() if member is not None else value
            return value
        return name(expected, e_string) == name(actual, a_string), False, False
    width = max(width, len(expected), len(actual))
    e, a = _bits(expected, width), _bits(actual, width)
    return all("x" in (x, y) or x == y for x, y in zip(e, a)), "x" in e, "x" in a


def _show(value, enums, width):
    if value is None:
        return "(no value)"
    if set(value) <= set("01"):
        value = _bits(value, width)
        text = f"{int(value, 2)} (0b{value})" if len(value) > 1 else value
        if enums and int(value, 2) in enums:
            text += f" = {enums[int(value, 2)]}"
        return text
    return value


def compare(expected_path, actual_path, *, signals=None, clocks=CLOCKS, enums=None):
    """Compare the waves in two files; returns a Report. `signals`: fnmatch patterns
    that the compared (expected) names must match. `enums`: leaf name -> {code: name}
    for string-against-number comparisons (default: the chip's, `chip_enums`)."""
    enums = chip_enums() if enums is None else enums
    expected, actual = read(expected_path), read(actual_path)
    e_clock, a_clock = _clock(expected, clocks), _clock(actual, clocks)
    e_names, a_names = _design(expected, e_clock), _design(actual, a_clock)
    wanted = [n for n in e_names if e_names[n] is not e_clock and
              (not signals or any(fnmatch.fnmatchcase(n, p) for p in signals))]
    if not wanted:
        raise WavesError(f"no signal of {expected_path} matches "
                         f"{' or '.join(signals or ['anything'])}")
    report = Report(str(expected_path), str(actual_path))
    report.pairs = [n for n in wanted if n in a_names]
    report.unpaired = [n for n in wanted if n not in a_names]
    if not report.pairs:
        raise WavesError(f"no signal of {expected_path} has a partner in {actual_path} "
                         f"(signals pair by their path below the clock's scope)")
    samples = _samples(e_clock) + [(expected.end, "end")]
    report.samples = len(samples)
    report.cycles = sum(edge == "rising" for _, edge in samples)
    cycle, known = 0, set()     # (side, signal): it had a known bit on that side
    for time, edge in samples:
        seconds = expected.seconds(time)
        a_time = actual.units(seconds)
        if a_time > actual.end and edge != "end" and report.ends_early is None:
            report.ends_early = actual.seconds(actual.end)
        before = edge != "end"
        for name in report.pairs:
            e_var, a_var = e_names[name], a_names[name]
            e_value = e_var.at(time, before=before)
            a_value = a_var.at(a_time, before=before)
            leaf_enums = enums.get(name.rsplit(".", 1)[-1])
            same, e_unknown, a_unknown = _same(e_value, e_var.is_string, a_value,
                                               a_var.is_string, e_var.width, leaf_enums)
            report.dont_care += e_unknown
            report.unknown_actual += a_unknown
            known.update((side, name) for side, value in (("e", e_value), ("a", a_value))
                         if value is not None and set(value.lower()) - set("xz"))
            if not same:
                report.differences.append(Difference(
                    seconds, cycle, edge, name, _show(e_value, leaf_enums, e_var.width),
                    _show(a_value, leaf_enums, e_var.width)))
        if edge == "rising":
            cycle += 1
    # An x in the actual waves is a value they do not know (the golden model's E.2 'u'),
    # not compared; but a signal they never know at all checks nothing, and is a
    # difference: an undriven net, or a file of x.
    seconds = expected.seconds(samples[0][0])
    for name in report.pairs:
        if ("e", name) in known and ("a", name) not in known:
            report.differences.append(Difference(seconds, 0, samples[0][1], name,
                                                 "a value", "x throughout"))
    return report


def run(expected, actual, *, signals=None, clocks=CLOCKS):
    """``ttt compare``: print the comparison's summary; 0 if the waves agree, 1 if
    they differ. A file that cannot be read is a UserError."""
    try:
        report = compare(expected, actual, signals=signals, clocks=clocks)
    except WavesError as error:
        raise cli.UserError(f"cannot compare: {error}") from None
    print(report.summary())
    return 0 if report.equal else 1
