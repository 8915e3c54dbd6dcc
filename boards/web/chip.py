"""The page's view of the chip's insides: a message of kind ``chip`` acts on the page's
chip session (sim.watch.watch: the compiled chip and its golden model, clocked one
edge at a time, with a bounded history) and is answered with a ``chip`` message holding
the frame shown; the answer to ``open`` holds the panel's words too (words.py).

The session is the page's own, kept beside its board, and closed with it. It is apart
from the board in a box the panel plays: the panel's game goes on while a person clocks
this chip by hand. Its chip is the one a factory makes (`act`'s and `ChipSession`'s
`chip`; None: the compiled chip, imported only then), and nothing here needs numpy or
ctypes, so that a browser runs it too, its chip given.
"""

import collections
import shutil

from sim import BUILD
from sim.backends import BackendMissing
from sim.chip import e2, tree
from sim.chip.signals import PERIOD_NS, PROBE_PATHS
from sim.watch.watch import CYCLES, LIMIT, Full, Watch, share, write_waves

from . import die as die_view, words
from .messages import Invalid

__all__ = ["act", "DOES", "WAVES", "WAVES_ROUTE", "FOLDER", "NAMES", "greediest"]

NAME = "chip session"           # its name among the session's extra boards
DOES = ("open", "new", "step", "back", "forward", "jump", "until", "key", "pin", "tree",
        "e2", "waves", "die")
# Where a page's waves are written (its session's own folder), and under what names.
WAVES = BUILD / "web" / "waves"
VCD, GTKW = "chip.vcd", "chip.gtkw"
NAMES = (VCD, GTKW)
# A session's folder is named by its token's first FOLDER characters (secret, as the
# token is: its path is the page's alone), and the server serves its files under
# WAVES_ROUTE/<folder>/<name> (server.py).
FOLDER = 16
WAVES_ROUTE = "/waves"
# A node as the page takes it: a list in this order, not an object, since a search
# holds up to some 5,800 of them.
NODE = ("cycle", "place", "depth", "player", "bound", "parent", "value", "cut", "end")
TREES = 2                       # search trees kept: the one shown, and one more
GROWN = 256                     # cycles a tree grows by between two shares of the server


class ChipSession:
    """A page's chip (sim.watch.watch, its chip made by `chip`) and the trees of the
    searches last shown, each grown as its cycles come (a finished search's tree does
    not change)."""

    def __init__(self, folder, chip=None):
        self.watch = Watch(chip=chip)
        self.folder = folder                        # where its session's waves go
        self.die = None                             # the die following it (die.py)
        self._trees = collections.OrderedDict()     # (branches, begun): tree.Growing

    def close(self, waves=True):
        """Free the chip; with `waves`, its session's waves too (the session ends: a
        new chip in the same session keeps what was offered for download)."""
        self.watch.close()
        self._trees.clear()
        self.die = None
        _give_back()
        if waves:
            shutil.rmtree(self.folder, ignore_errors=True)

    def search_at(self, cycle):
        """The search shown at `cycle`: the one running then, or the last before it."""
        watch = self.watch
        found = tree.bounds(watch.states(), cycle)
        if found is None:
            return None
        begun, end = found
        key = (watch.branches, begun)
        growing = self._trees.pop(key, None) or tree.Growing(begun)
        self._trees[key] = growing
        while len(self._trees) > TREES:
            self._trees.popitem(last=False)
        last, marks = watch.head if end is None else end, watch.marks
        for upto in range(growing.next + GROWN - 1, last + GROWN, GROWN):
            growing.feed(marks, min(upto, last))
            share()
        return begun, growing.nodes, end

    def summary(self, cycle):
        search = self.search_at(cycle)
        if search is None:
            return None
        begun, nodes, end = search
        return {"begun": begun, "end": end, "count": len(nodes),
                "path": tree.path_at(nodes, cycle)}

    def tree(self, cycle):
        search = self.search_at(cycle)
        if search is None:
            return None
        begun, nodes, end = search
        return {"begun": begun, "end": end, "fields": NODE,
                "nodes": [[getattr(n, f) for f in NODE] for n in nodes]}


def _give_back():
    """Hand the pages a closed chip freed back to the system: glibc's malloc keeps a
    freed heap's pages for the process (some 10 MB of a page's chip) until asked."""
    try:
        import ctypes
        trim = ctypes.CDLL(None).malloc_trim
    except (ImportError, OSError, AttributeError):  # not glibc (its malloc gives back
        return                                      # itself), or no libc (a browser)
    trim(0)


def greediest():
    """The messages of a page that asks the most of the server's memory: its chip
    clocked as far as a session goes (CYCLES), the longest search run and its tree,
    its waves, then shown from its start. The most RSS one page can add is what they
    add to a server's peak (tests/test_chip_memory.py measures it in its process)."""
    yield {"do": "open"}
    yield {"do": "step"}
    yield {"do": "pin", "pin": "resetN", "value": 1}
    # B3 (place 7) opens the chip's longest search, and its largest tree.
    for message in ({"do": "key", "place": 7}, {"do": "step", "edges": 2},
                    {"do": "key", "place": None}, {"do": "until"}, {"do": "tree"}):
        yield message
    for _ in range(-(-CYCLES // LIMIT)):
        yield {"do": "step", "edges": LIMIT}
    for message in ({"do": "waves"}, {"do": "jump", "cycle": 0}, {"do": "tree"}):
        yield message


def e2_rows(watch):
    """The paper's E.2 beside the HDL chip's replay of it, two rows an edge as the paper
    prints them: half a period before the edge (cp low: the new inputs meeting the old
    registers, as the chip's outputs show them then) and at the edge (cp high: the
    registers taken). Each is checked as make sim checks it (a 'u' in the paper is a
    value nobody knew in 1990, and any value of a real chip's flip-flop matches it)."""

    rows = []
    for want in e2.paper_rows():
        after = want["cp"] == "1"
        n = (want.time + (0 if after else PERIOD_NS // 2)) // PERIOD_NS
        if n > watch.head:
            break
        frame = watch.frames[n]
        values = frame["values"] if after else (frame["before"]
                                                 or watch.frames[n - 1]["values"])
        probe = e2.probe_from({name: values[_FRAME_NAME[name]] for name in PROBE_PATHS})
        ours = e2.row(n, watch.applied[n - 1], probe, after=after)
        differences = e2.compare([ours], [want], hardware=True)
        rows.append({"cycle": n, "after": after, "paper": list(want.fields),
                     "hdl": list(ours.fields), "differ": [d.column for d in differences]})
    return {"columns": e2.COLUMNS, "rows": rows}


# The frame's name of each probe field (sim.chip.signals.PROBE_PATHS' paths, whose
# pins sp and i are the stack's and the move block's registers).
_FRAME_NAME = {**{name: path for name, path in PROBE_PATHS.items()},
               "sp": "stack.sp", "i": "move.i"}


def waves(session, watch):
    """The session so far as waves: written to the page's folder under WAVES (where
    the GTKWave save file finds them and its filters), and the paths the server serves
    them at, for the page to offer as downloads whatever their size."""
    written = _chip(session).folder
    written.mkdir(parents=True, exist_ok=True)
    write_waves(watch, written / VCD, written / GTKW)
    return {"urls": [f"{WAVES_ROUTE}/{written.name}/{name}" for name in NAMES],
            "bytes": sum((written / name).stat().st_size for name in NAMES),
            "names": list(NAMES), "folder": str(written), "cycles": watch.head}


def _chip(session, chip=None):
    """`session`'s ChipSession; where it has none, a new one whose chip `chip` makes."""
    held = session.extra.get(NAME)
    if held is None:
        try:
            held = ChipSession(WAVES / session.token[:FOLDER], chip)
        except BackendMissing as error:
            raise Invalid(f"the chip cannot be compiled here: {error}") from None
        session.extra[NAME] = held
    return held


def _count(message, field, default, low=0, high=None):
    """A whole number of `message`; with no `high`, any above `low` (the watch clocks
    LIMIT edges a message at most: a larger step is clamped, and `clocked` says so)."""
    value = message.get(field, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < low or \
            high is not None and value > high:
        raise Invalid(f"chip: {field} is a whole number from {low}"
                      + (f" to {high}" if high is not None else " up"))
    return value


def act(session, message, chip=None, die=None):
    """Do what `message` asks of `session`'s chip (on the session's thread); the view
    of the frame shown, with how many edges were clocked. A new chip is made by `chip`
    (sim/watch/clock.py says what it offers: a browser gives its own; None,
    the compiled chip); the die shown beside it (asked with do "die", or "die": true
    on any message) comes from `die`, a die.Source."""
    do = message["do"]
    if do not in DOES:
        raise Invalid(f"chip: do is one of {', '.join(DOES)}")
    if do in ("new", "e2"):
        old = session.extra.pop(NAME, None)
        if old is not None:
            old.close(waves=False)
    chip = _chip(session, chip)
    try:
        clocked = _clock(chip.watch, do, message)
    except Full as full:
        raise Invalid(f"chip: {full}") from None
    watch = chip.watch
    answer = {**watch.view(), "clocked": clocked,
              "search": chip.summary(watch.cursor)}
    if do == "tree":
        answer["tree"] = chip.tree(watch.cursor)
    if do == "e2":
        answer["e2"] = e2_rows(watch)
    if do == "waves":
        answer["waves"] = waves(session, watch)
    if do == "new":
        answer["do_new"] = True         # the page forgets what it drew of the old chip
    if do == "open":
        answer["words"] = words.chip()  # the panel draws with them
    if do == "die" or message.get("die") is True:
        answer["die"] = die_view.view(chip, watch, die or die_view.Source(), message)
    return answer


def _clock(watch, do, message):
    """What `do` does to the clock and the pins; the edges clocked."""
    clocked = 0
    if do == "step":
        before = watch.cursor
        watch.step(_count(message, "edges", 1, 1))
        clocked = watch.cursor - before
    elif do == "back":
        watch.back(_count(message, "edges", 1, 1))
    elif do == "forward":
        watch.forward(_count(message, "edges", 1, 1))
    elif do == "jump":
        before = watch.head
        watch.jump(_count(message, "cycle", 0))
        clocked = watch.head - before
    elif do == "until":
        clocked = watch.run_until_waiting()
    elif do == "key":
        place = message.get("place")
        if place is not None and (not isinstance(place, int) or isinstance(place, bool)
                                  or not 0 <= place <= 8):
            raise Invalid("chip: place is a place from 0 to 8, or null to let go")
        watch.press(place)
    elif do == "e2":
        # E.1's session clocked whole, then shown from its first edge: each step
        # forward replays one row of it.
        for pins in e2.SESSION:
            watch.pins = pins
            watch.step()
        watch.jump(0)
    elif do == "pin":
        pin = message.get("pin")
        if pin not in words.PINS:
            raise Invalid(f"chip: pin is one of {', '.join(words.PINS)}")
        watch.set(**{pin: _count(message, "value", 0, 0, 1)})
    return clocked
