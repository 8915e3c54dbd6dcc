"""The history of a watched chip (sim/backends/watch.py), kept bounded.

A session is the chip's input pins at every edge: given them, the chip and its golden
model are the same from power-up every time. So the history keeps for every edge only
its pins (two bytes) and, for the search trees, the seven registers a tree is read from
(two bytes: `MARKS`); every frame's whole values are kept in blocks of `BLOCK` frames,
the head's block and the `KEPT` last used besides it, and at each block's start a
`Checkpoint` of the golden model. A block that was let go is clocked again when asked
for (sim/backends/watch_clock.py's `Clock`, made at the block's checkpoint), and a
session holds at most `CYCLES` cycles.
"""

import collections
import dataclasses

import numpy as np

from sim.backends.watch_clock import (COLUMN, GOLDEN, NAMES, SIGNED, SLICE, UNKNOWN, WAITS,
                                      Clock, share)
from sim.chip.signals import INPUT_PINS

__all__ = ["MARKS", "BLOCK", "KEPT", "CYCLES", "History", "Block", "Row", "marks_of"]

# The registers a search tree is read from (sim/chip/tree.py), packed in one column
# of 16 bits a frame: (name, lowest bit, width).
MARKS = (("controller.state", 0, 3), ("stack.sp", 3, 3), ("move.i", 6, 4),
         ("board.p", 10, 1), ("value.a", 11, 1), ("value.r", 12, 2), ("board.wins", 14, 1))
BLOCK = 4096            # frames a block holds
KEPT = 3                # blocks kept besides the head's
CYCLES = 250_000        # the longest session: some sixteen of the chip's longest searches
_STATE = COLUMN["controller.state"]


class _Column:
    """A growing numpy column, at most `CYCLES` + 1 long."""

    def __init__(self, dtype):
        self.data, self.length = np.zeros(1024, dtype), 0

    def extend(self, values):
        end = self.length + len(values)
        if end > len(self.data):
            grown = np.zeros(min(max(end, 2 * len(self.data)), CYCLES + 1), self.data.dtype)
            grown[:self.length] = self.data[:self.length]
            self.data = grown
        self.data[self.length:end] = values
        self.length = end

    def view(self):
        return self.data[:self.length]


@dataclasses.dataclass
class Block:
    """Frames first .. first + BLOCK - 1 (`length` of them clocked): their values,
    stack, golden model's values, and what the outputs showed before an edge where the
    pins changed, by its row."""
    first: int
    values: np.ndarray = dataclasses.field(
        default_factory=lambda: np.zeros((BLOCK, len(NAMES)), np.int32))
    stack: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(BLOCK, np.int64))
    golden: np.ndarray = dataclasses.field(
        default_factory=lambda: np.full((BLOCK, len(GOLDEN)), UNKNOWN, np.int32))
    before: dict = dataclasses.field(default_factory=dict)
    length: int = 0

    def add(self, chunk):
        at, end = self.length, self.length + len(chunk.values)
        self.values[at:end], self.stack[at:end] = chunk.values, chunk.stack
        if chunk.golden is not None:
            self.golden[at:end] = chunk.golden
        if chunk.before is not None:
            self.before[at] = chunk.before
        self.length = end


@dataclasses.dataclass(frozen=True)
class Row:
    """One frame as kept: its values (len(NAMES),), stack, the golden model's values
    (None: not known) and what the outputs showed before its edge (None: as the last
    frame)."""
    values: np.ndarray
    stack: int
    golden: object
    before: object


class History:
    """The frames of a session from power-up (`random`: the chip's random counter then),
    kept as the module's docstring says; the clock holds the head's state. Frame n >= 1
    is block (n - 1) // BLOCK's row (n - 1) % BLOCK; frame 0 is kept apart."""

    def __init__(self, random=0):
        self.random = random
        self.clock = Clock(random)
        chips = self.clock.chips
        self.widths = {name: chips.width(name) for name in (*NAMES, *INPUT_PINS)}
        self.zero = Row(self.clock.power_up, 0, None, None)
        self.codes = _Column(np.uint16)         # the pins of edge n at n - 1
        self.marks = _Column(np.uint16)         # frame n's MARKS at n
        self.marks.extend(_marks(self.zero.values[None]))
        self.checkpoints = [self.clock.checkpoint()]    # block k's at its cycle k * BLOCK
        self.blocks = collections.OrderedDict()         # the kept, the last used last
        self.stopped = None     # the edge where the golden model stopped, if it did
        self._spare = None      # the clock a block was last clocked again with

    @property
    def head(self):
        return self.codes.length

    def close(self):
        for clock in (self.clock, self._spare):
            if clock is not None:
                clock.close()
        self.clock = self._spare = None
        self.blocks.clear()
        self.codes = self.marks = None

    # -- clocking at the head --------------------------------------------------------

    def clock_edges(self, code, count, until=False):
        """Clock up to `count` edges with `code` at the head (with `until`, until the
        chip waits); the edges clocked."""
        clocked = 0
        while clocked < count and self.head < CYCLES:
            room = BLOCK - self.head % BLOCK
            chunk = self.clock.run(code, min(SLICE, count - clocked, room,
                                             CYCLES - self.head), until)
            if self.stopped is None and chunk.golden is None:
                self.stopped = self.head + 1
            self._keep(chunk)
            share()
            clocked += len(chunk.values)
            if until and chunk.values[-1, _STATE] in WAITS:
                break
        return clocked

    def _keep(self, chunk):
        index = self.head // BLOCK
        block = self.blocks.get(index)
        if block is None:
            block = self.blocks[index] = Block(index * BLOCK + 1)
        self.blocks.move_to_end(index)
        block.add(chunk)
        self.codes.extend(np.full(len(chunk.values), chunk.code))
        self.marks.extend(_marks(chunk.values))
        if self.head % BLOCK == 0 and len(self.checkpoints) == self.head // BLOCK:
            self.checkpoints.append(self.clock.checkpoint())
        self._let_go()

    def _let_go(self):
        """Keep the head's block and the KEPT last used besides it."""
        head = (self.head - 1) // BLOCK
        while len(self.blocks) > KEPT + 1:
            oldest = next(k for k in self.blocks if k != head)
            del self.blocks[oldest]

    def cut(self, cycle):
        """Forget every frame after `cycle`: the head is there, and the clock too."""
        if self._spare is not None:
            self._spare.close()
            self._spare = None
        self.codes.length, self.marks.length = cycle, cycle + 1
        del self.checkpoints[cycle // BLOCK + 1:]
        if self.stopped is not None and self.stopped > cycle:
            self.stopped = None
        for index in [k for k in self.blocks if k * BLOCK + 1 > cycle]:
            del self.blocks[index]
        self.clock.close()
        if cycle == 0:
            self.clock = Clock(self.random)
            return
        block, clock = self._clocked_again((cycle - 1) // BLOCK, cycle)
        self.blocks[(cycle - 1) // BLOCK] = block
        self.clock, self._spare = clock, None

    # -- the frames ------------------------------------------------------------------

    def row(self, n):
        """Frame n (0 to head) as kept, clocked again if its block was let go."""
        if n == 0:
            return self.zero
        index, at = divmod(n - 1, BLOCK)
        block = self.block(index)
        golden = block.golden[at] if self.stopped is None or n < self.stopped else None
        return Row(block.values[at], int(block.stack[at]), golden, block.before.get(at))

    def values(self, first, last):
        """Frames `first` .. `last`'s values, (frames, len(NAMES)) int32."""
        rows = [self.zero.values[None]] if first == 0 else []
        n = max(first, 1)
        while n <= last:
            index, at = divmod(n - 1, BLOCK)
            end = min(last - n + 1, BLOCK - at)
            rows.append(self.block(index).values[at:at + end])
            n += end
        return np.concatenate(rows)

    def block(self, index, keep=True):
        """Block `index`, clocked again if it was let go (and then kept, if `keep`)."""
        block = self.blocks.get(index)
        if block is None:
            block, self._spare = self._clocked_again(index, min(self.head,
                                                                (index + 1) * BLOCK))
            if not keep:
                return block
            self.blocks[index] = block
        self.blocks.move_to_end(index)
        self._let_go()
        return block

    def _clocked_again(self, index, last):
        """Block `index` clocked again from its checkpoint up to frame `last`; the
        block and the clock at `last`."""
        start = index * BLOCK
        spare = self._spare
        if spare is not None and spare.cycle == start:
            clock, self._spare = spare, None
        else:
            clock = Clock(self.random, self.checkpoints[index], self.codes.view())
        block = Block(start + 1)
        codes = self.codes.view()[start:last]
        changes = np.flatnonzero(np.diff(codes)) + 1
        for first, end in zip([0, *changes.tolist()], [*changes.tolist(), len(codes)]):
            for at in range(first, end, SLICE):
                block.add(clock.run(int(codes[at]), min(SLICE, end - at)))
                share()
        return block, clock

    def nbytes(self):
        """The bytes the history's arrays hold (what it keeps, not the compiled chips)."""
        blocks = sum(block.values.nbytes + block.stack.nbytes + block.golden.nbytes
                     + sum(row.nbytes for row in block.before.values())
                     for block in self.blocks.values())
        return blocks + self.codes.data.nbytes + self.marks.data.nbytes

    def states(self):
        """The chip's state at every frame, 0 to head (uint16, a view)."""
        return self.marks.view() & 7


_MARK_COLUMNS = [COLUMN[name] for name, _, _ in MARKS]
_MARK_MASKS = np.array([(1 << width) - 1 for _, _, width in MARKS], np.int32)
_MARK_SHIFTS = np.array([lsb for _, lsb, _ in MARKS], np.int32)


def _marks(values):
    """Each frame's MARKS, packed (uint16)."""
    return ((values[:, _MARK_COLUMNS] & _MARK_MASKS) << _MARK_SHIFTS).sum(
        axis=1).astype(np.uint16)


def marks_of(packed):
    """The registers of MARKS from one frame's packed marks, by name."""
    packed = int(packed)
    out = {}
    for name, lsb, width in MARKS:
        value = packed >> lsb & (1 << width) - 1
        if name in SIGNED and value >> width - 1:
            value -= 1 << width
        out[name] = value
    return out
