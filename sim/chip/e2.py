"""The sample session of Geiser and Marzetta's report (appendix E): its stimulus, its
trace, a replay.

`SESSION` is the E.1 simulation script as data, one entry per rising edge of cp.
`paper_rows` reads the E.2 trace from sim/chip/e2_trace.txt and repairs its
documented scan defects. `replay` runs the session on a chip model and prints rows in
the same format, so `compare` can check every column of every row.
"""

from dataclasses import dataclass
from pathlib import Path

from firmware_ref.eth.cycle import NO_KEY, Choose, CycleModel, Inputs, Probe, State, key_down

from firmware_ref.eth.pins import clocked

from sim.chip.signals import PERIOD_NS

__all__ = ["COLUMNS", "SESSION", "TRACE", "Row", "Difference", "paper_rows",
           "replay", "replaying", "row", "probe_from", "compare", "think_times",
           "format_table"]

TRACE = Path(__file__).with_name("e2_trace.txt")      # package data (pyproject.toml)

COLUMNS = ("time", "resetN", "cp", "keyboardN", "state", "wins", "choose", "toggleN",
           "usei", "nexti", "sp", "i", "fin", "win", "prompt", "led", "copyboard",
           "name")


def _edge(key=None, resetN=1, piN=0):
    keyboardN = NO_KEY if key is None else key_down(key)
    return Inputs(keyboardN=keyboardN, userbegins=1, piN=piN, resetN=resetN)


# E.1 as the edges see it: the inputs applied in the half period before each edge.
SESSION = (
    _edge(key=2, resetN=0),             # setup during and after reset: user at 2, 3
    _edge(key=3),
    _edge(key=1),                       # chip at 1, 4, 5: piN is high at the edges
    _edge(key=4, piN=1),                # that place them, one after the key is taken
    _edge(key=5, piN=1),
    _edge(piN=1),
    _edge(key=7),                       # the user's move
    *[_edge()] * 36,
    _edge(key=8),                       # and the user's second move
    *[_edge()] * 6,
)

# Scan defect 1: the key each keyboardN row held, as the board shows it.
_KEYS_SHOWN_BY_BOARD = {100: 2, 200: 2, 300: 3, 400: 3, 500: 1, 600: 1, 700: 4,
                        800: 4, 900: 5, 1000: 5, 1300: 7, 1400: 7, 8700: 8, 8800: 8}
# Scan defect 2: rows that lost one of their trailing zero columns.
_LOST_A_ZERO = (1800, 1900, 2000, 2100)


@dataclass(frozen=True)
class Row:
    """One line of the trace as strings, in `COLUMNS` order ('' for no name)."""
    fields: tuple

    @property
    def time(self):
        return int(float(self.fields[0]))

    def __getitem__(self, column):
        return self.fields[COLUMNS.index(column)]


@dataclass(frozen=True)
class Difference:
    time: int
    column: str
    paper: str
    ours: str

    def __str__(self):
        return (f"{self.time} ns, column {self.column}: the paper shows {self.paper!r}, "
                f"this run {self.ours!r}")


def paper_rows(path=TRACE):
    """The E.2 trace, its scan defects repaired (see the fixture's header)."""
    rows = []
    for line in Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        time = int(float(fields[0]))
        if time in _LOST_A_ZERO:
            if fields[11:14] != ["0", "0", "0"]:
                raise ValueError(f"row {time}: expected trailing zero columns, "
                                 f"got {fields[11:14]}")
            fields.insert(14, "0")
        scanned, key = fields[3], _KEYS_SHOWN_BY_BOARD.get(time)
        fields[3] = format(NO_KEY if key is None else key_down(key), "09b")
        if not _lost_a_one(fields[3], scanned):
            raise ValueError(f"row {time}: {scanned!r} is not {fields[3]!r} less a '1'")
        if len(fields) == len(COLUMNS) - 1:
            fields.append("")
        if len(fields) != len(COLUMNS):
            raise ValueError(f"row {time}: {len(fields)} columns, not {len(COLUMNS)}")
        rows.append(Row(tuple(fields)))
    return rows


def _lost_a_one(real, scanned):
    return any(real[:k] + real[k + 1:] == scanned for k in range(len(real)) if real[k] == "1")


def _fields(time, inputs, cp, probe):
    def bit(value):
        return "u" if value is None else str(int(value))
    return (f"{time}.0", bit(inputs.resetN), str(cp), format(inputs.keyboardN, "09b"),
            str(int(probe.state)), bit(probe.wins), bit(probe.choose), bit(probe.toggleN),
            bit(probe.usei), bit(probe.nexti), bit(probe.sp), bit(probe.i), bit(probe.fin),
            bit(probe.win), bit(probe.prompt), format(probe.led, "018b"),
            bit(probe.copyboard), probe.state.name.lower() if cp else "")


def replay(session=SESSION):
    """The rows of `session` on a fresh golden model (see `replaying`)."""
    chip = CycleModel()
    return clocked(chip, replaying(chip, session))


def replaying(chip, session=SESSION):
    """Protocol: run `session` on `chip` and return the rows it shows: before each
    edge the new inputs with the outputs they meet, after it the result."""
    rows = []
    for n, inputs in enumerate(session, start=1):
        chip.set(inputs)
        rows.append(row(n, inputs, chip.probe, after=False))
        yield
        rows.append(row(n, inputs, chip.probe, after=True))
    return rows


def row(n, inputs, probe, *, after):
    """The trace row of edge `n` (from 1): half a period before it, when E.1 has
    applied `inputs` (cp low), or at the edge itself (`after`, cp high)."""
    time = (2 * n - (0 if after else 1)) * PERIOD_NS // 2
    return Row(_fields(time, inputs, int(after), probe))


def probe_from(values):
    """A Probe from the integers a chip shows, by Probe field (None: unknown). A code
    no state or choice has (a netlist's x, read as all ones) stays an integer."""
    values = dict(values)
    for name, kind in (("state", State), ("choose", Choose)):
        if values[name] in set(kind):
            values[name] = kind(values[name])
    return Probe(**values)


def compare(ours, paper, *, hardware=False):
    """Every column of every row where `ours` and `paper` differ.

    The golden model knows what the 1990 simulator did not, and prints 'u' there too.
    A real chip holds some value in every flip-flop: with `hardware`, the paper's 'u'
    matches whatever it shows.
    """
    differences = [Difference(p.time, column, p[column], o[column])
                   for o, p in zip(ours, paper) for column in COLUMNS
                   if o[column] != p[column] and not (hardware and p[column] == "u")]
    if len(ours) != len(paper):
        differences.append(Difference(min(len(ours), len(paper)), "rows",
                                      str(len(paper)), str(len(ours))))
    return differences


def think_times(rows):
    """(state the chip ended in, cycles) for each chip move in a replay's rows: the
    edges from entering userjustmoved to entering waiting or finished."""
    moves, started = [], None
    for row in rows:
        if row["cp"] != "1":
            continue
        state = State(int(row["state"]))
        if state is State.USERJUSTMOVED:
            started = row.time
        elif started is not None and state in (State.WAITING, State.FINISHED):
            moves.append((state, (row.time - started) // PERIOD_NS))
            started = None
    return moves


_HEADER = ("time", "rN", "cp", "keyboardN", "st", "wins", "ch", "tN", "ui", "ni",
           "sp", "i", "fin", "win", "pr", "led[17:0]", "cb", "state")
_WIDTHS = (8, 2, 2, 9, 2, 4, 2, 2, 2, 2, 2, 2, 3, 3, 2, 18, 2, 0)


def format_table(rows, marks=()):
    """The rows as E.2 prints them, one line each; rows whose time is in `marks` are
    flagged with '!'."""
    def line(fields, flag=" "):
        cells = [f.rjust(w) if k == 0 else f.ljust(w)
                 for k, (f, w) in enumerate(zip(fields, _WIDTHS))]
        return (flag + " ".join(cells)).rstrip()
    return "\n".join([line(_HEADER)] + [line(r.fields, "!" if r.time in marks else " ")
                                        for r in rows])
