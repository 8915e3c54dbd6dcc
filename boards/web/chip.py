"""The page's view of the chip's insides: a message of kind ``chip`` acts on the page's
chip session (sim.backends.watch: the compiled chip and its golden model, clocked one edge at
a time, with history) and is answered with a ``chip`` message holding the frame shown;
the answer to ``open`` holds the panel's words too (words.py).

The session is the page's own, kept beside its board, and closed with it. It is apart
from the board in a box the panel plays: the panel's game goes on while a person clocks
this chip by hand.
"""

from sim import BUILD
from sim.backends import BackendMissing
from sim.chip import e2, tree
from sim.chip.lockstep import probe_from
from sim.chip.signals import PERIOD_NS, PROBE_PATHS
from sim.backends.watch import LIMIT, Watch, write_waves

from . import words
from .messages import Invalid

__all__ = ["act", "DOES"]

NAME = "chip session"           # its name among the session's extra boards
DOES = ("open", "new", "step", "back", "forward", "jump", "until", "key", "pin", "tree",
        "e2", "waves")
# Where a page's waves are written (its session's own folder), and under what names.
WAVES = BUILD / "web" / "waves"
VCD, GTKW = "chip.vcd", "chip.gtkw"
# A node as the page takes it: a list in this order, not an object, since a search
# holds up to some 5,800 of them.
NODE = ("cycle", "place", "depth", "player", "bound", "parent", "value", "cut", "end")


class ChipSession:
    """A page's chip (sim.backends.watch) and the trees of its searches, kept as they are
    built: a finished search's tree does not change, so only the one running is
    built again as the clock goes on."""

    def __init__(self):
        self.watch = Watch()
        self._done, self._from, self._branches = [], 0, 0

    def close(self):
        self.watch.close()

    def searches(self):
        watch = self.watch
        if watch.branches != self._branches:
            self._done, self._from, self._branches = [], 0, watch.branches
        frames = [frame["values"] for frame in watch.frames]
        found = tree.searches(frames, self._from)
        for begun, nodes, end in found:
            if end is not None:
                self._done.append((begun, nodes, end))
                self._from = end
        return self._done + [s for s in found if s[2] is None]

    def search_at(self, cycle):
        """The search shown at `cycle`: the one running then, or the last before it."""
        shown = None
        for search in self.searches():
            if search[0] <= cycle:
                shown = search
        return shown

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
        probe = probe_from({name: values[_FRAME_NAME[name]] for name in PROBE_PATHS})
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
    the GTKWave save file finds them and its filters), and their text for the page
    to offer as downloads."""
    folder = WAVES / session.token[:16]
    folder.mkdir(parents=True, exist_ok=True)
    write_waves(watch, folder / VCD, folder / GTKW)
    return {"vcd": (folder / VCD).read_text(), "gtkw": (folder / GTKW).read_text(),
            "names": [VCD, GTKW], "folder": str(folder), "cycles": watch.head}


def _chip(session):
    chip = session.extra.get(NAME)
    if chip is None:
        try:
            chip = ChipSession()
        except BackendMissing as error:
            raise Invalid(f"the chip cannot be compiled here: {error}") from None
        session.extra[NAME] = chip
    return chip


def _count(message, field, default, low=0, high=LIMIT):
    value = message.get(field, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Invalid(f"chip: {field} is a whole number from {low} to {high}")
    return value


def act(session, message):
    """Do what `message` asks of `session`'s chip (on the session's thread); the view
    of the frame shown, with how many edges were clocked."""
    do = message["do"]
    if do not in DOES:
        raise Invalid(f"chip: do is one of {', '.join(DOES)}")
    if do in ("new", "e2"):
        old = session.extra.pop(NAME, None)
        if old is not None:
            old.close()
    chip = _chip(session)
    watch = chip.watch
    clocked = 0
    if do == "step":
        edges = _count(message, "edges", 1, 1)
        watch.step(edges)
        clocked = edges
    elif do == "back":
        watch.back(_count(message, "edges", 1, 1))
    elif do == "forward":
        watch.forward(_count(message, "edges", 1, 1))
    elif do == "jump":
        before = watch.head
        watch.jump(_count(message, "cycle", 0, 0, watch.head + LIMIT))
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
    return answer
