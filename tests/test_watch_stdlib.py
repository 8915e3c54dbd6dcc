"""The page's chip without numpy and without ctypes (boards/web/chip.py, sim/backends/
watch*.py, sim/chip/tree.py, firmware_ref/eth/batch.py): a browser's Python (Pyodide)
has the standard library only, and reaches its compiled chip through JavaScript. So
they import nothing heavy, a watch's chip comes from the factory it is given, and it
asks of that chip only set, get, step and clocked (sim.backends.compiled's `Lanes`
offers them over the same C functions). Each check runs in a Python of its own, numpy's
import refused."""

import random
import subprocess
import sys
from array import array

import numpy as np

from sim import ROOT
from sim.backends import compiled
from sim.chip.signals import INPUT_PINS

# numpy's import refused, as in a browser's Python.
_REFUSED = "import sys; sys.modules['numpy'] = None\n"


def _run(script):
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_page_chips_modules_import_without_numpy_ctypes_or_the_compiled_chip():
    out = _run(_REFUSED + "sys.modules['ctypes'] = None\n" + """
import types
import boards.web.chip, sim.watch.watch, sim.chip.tree, firmware_ref.eth.batch
from boards.web import chip
chip._give_back()       # no libc to hand memory back to: nothing happens
print(sorted(m for m in ("sim.backends.compiled", "numpy", "ctypes")
             if sys.modules.get(m) is not None))
try:                    # given no chip, the compiled chip's is asked for, and is not here
    chip.act(types.SimpleNamespace(extra={}, token="none".ljust(16, "_")), {"do": "open"})
except chip.Invalid as said:
    print(said)
""")
    assert out.splitlines() == ["[]", "the chip cannot be compiled here: the compiled chip "
                                      "needs ctypes, which this Python has not"]


# A chip with only the methods a browser's chip offers, over the compiled chip.
_CONTRACT = """
from array import array
from sim.backends import compiled
compiled.chip()         # built and loaded (with numpy) before numpy is refused
""" + _REFUSED + """

class Contract:
    def __init__(self, lanes):
        self._lanes = lanes

    def set(self, lane, **pins):
        self._lanes.set(lane, **pins)

    def get(self, lane, name):
        return self._lanes.get(lane, name)

    def step(self, cycles=1):
        self._lanes.step(cycles)

    def clocked(self, inputs, outputs):
        assert type(inputs) is array and inputs.typecode == "I", inputs
        return self._lanes.clocked(inputs, list(outputs))


def contract(*, random=0):
    return Contract(compiled.chip(random=random))
"""


def test_a_watch_clocks_the_worst_move_with_its_tree_and_waves_without_numpy(tmp_path):
    """B3, the chip's longest search, clocked to its end on the compiled chip through
    `clocked`, checked against the golden model at every edge, its tree grown, its
    frames let go clocked again, E.2 replayed and the session's waves written, in a
    Python that cannot import numpy (the compiled chip loaded before it was refused)."""
    out = _run(_CONTRACT + f"""
import types
assert "sim.watch.watch" not in sys.modules
from boards.web import chip
from firmware_ref.eth import alg
from firmware_ref.places import HUMAN

session = types.SimpleNamespace(extra={{}}, token="stdlib".ljust(16, "_"))
session.extra[chip.NAME] = chip.ChipSession(__import__("pathlib").Path({str(tmp_path)!r}),
                                            chip=contract)
def act(do, **fields):
    return chip.act(session, {{"do": do, **fields}}, chip=contract)
act("open"); act("step"); act("pin", pin="resetN", value=1)
act("key", place=7); act("step", edges=2); act("key", place=None)
until = act("until")
tree = act("tree")["tree"]
watch = session.extra[chip.NAME].watch
board = [0] * 9
board[7] = HUMAN
assert tree["end"] - tree["begun"] == 15007 and len(tree["nodes"]) == alg.move(board).nodes
assert all(frame["differences"] == {{}} for frame in watch.frames)
act("step", edges=20000)
again = act("jump", cycle=until["cycle"])      # its block let go: clocked again
assert again["values"] == until["values"] and again["strip"] == until["strip"]
waves = chip.waves(session, watch)
assert waves["cycles"] == watch.head and waves["bytes"] > 1 << 20
head = watch.head
e2 = act("e2")["e2"]        # on a new chip, made by the same factory
assert len(e2["rows"]) == 100 and not any(row["differ"] for row in e2["rows"])
assert isinstance(session.extra[chip.NAME].watch._history.clock.chips, Contract)
print(until["clocked"], len(tree["nodes"]), head)
""")
    assert out.split() == ["15007", "5749", "35010"]


def test_clocked_is_lane_0s_batch_in_arrays():
    """`Lanes.clocked` gives what `Lanes.run` gives lane 0, from a flat array('I') of
    pins an edge; the other lanes keep still."""
    rng = random.Random(3)
    names = ["controller.state", "board.board", "value.r", "stack.top", "led"]
    pins = [[rng.randrange(512), rng.randrange(2), rng.randrange(2), rng.randrange(2)]
            for _ in range(3000)]
    pins[:2] = [[511, 0, 1, 0], [511, 0, 1, 1]]        # a reset edge first
    batch = compiled.chip(1, random=2).run(np.array([pins], np.uint32), outputs=names)[0]
    lanes = compiled.chip(2, random=2)
    rows = lanes.clocked(array("I", [v for edge in pins for v in edge]), names)
    assert type(rows) is array and rows.typecode == "I"
    assert rows.tolist() == batch.ravel().tolist()
    assert lanes.get(1, "board.board") == 0 and lanes.get(1, "controller.state") == \
        compiled.chip(1, random=2).get(0, "controller.state")
    assert len(lanes.clocked(array("I", [511, 0, 1, 1] * 5), ())) == 0
    assert len(INPUT_PINS) == 4
