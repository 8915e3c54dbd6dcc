"""The history of a watched chip (sim/watch/watch.py), kept bounded.

A session is the chip's input pins at every edge: given them, the chip and its golden
model are the same from power-up every time. So the history keeps for every edge only
its pins (two bytes) and, for the search trees, the seven registers a tree is read from
(two bytes: `MARKS`); every frame's whole values are kept in blocks of `BLOCK` frames,
the head's block and the `KEPT` last used besides it, and at each block's start a
`Checkpoint` of the golden model. A block that was let go is clocked again when asked
for (sim/watch/clock.py's `Clock`, made at the block's checkpoint), and a
session holds at most `CYCLES` cycles. Its columns and blocks are the standard
library's arrays (a browser's watch has no numpy).
"""

import collections
import dataclasses
import itertools
import sys
from array import array

from sim.watch.clock import (COLUMN, REGISTERS, SIGNED, SLICE, WAITS, WIDE, Clock,
                             compiled_chip, golden_row, share, widths)

__all__ = ["MARKS", "BLOCK", "KEPT", "CYCLES", "History", "Block", "Row", "marks_of"]

# The registers a search tree is read from (sim/chip/tree.py), packed in one column
# of 16 bits a frame: (name, lowest bit, width).
MARKS = (("controller.state", 0, 3), ("stack.sp", 3, 3), ("move.i", 6, 4),
         ("board.p", 10, 1), ("value.a", 11, 1), ("value.r", 12, 2), ("board.wins", 14, 1))
BLOCK = 4096            # frames a block holds
KEPT = 3                # blocks kept besides the head's
CYCLES = 250_000        # the longest session: some sixteen of the chip's longest searches
_STATE = COLUMN["controller.state"]
# The state of a frame from its marks' low byte, which holds it (MARKS' first), and
# where that byte is in an array('H')'s bytes.
_, _STATE_AT, _STATE_BITS = MARKS[0]
_STATE_OF = bytes(byte >> _STATE_AT & (1 << _STATE_BITS) - 1 for byte in range(256))
_LOW = 0 if sys.byteorder == "little" else 1


@dataclasses.dataclass
class Block:
    """Frames first .. first + BLOCK - 1 (`length` of them clocked): their values (a
    row of NAMES a frame), stack, golden model's packed rows and registers (a row of
    REGISTERS a frame), and what the outputs showed before an edge where the pins
    changed, by its row."""
    first: int
    values: array = dataclasses.field(
        default_factory=lambda: array("i", [0]) * (BLOCK * WIDE))
    stack: array = dataclasses.field(default_factory=lambda: array("q", [0]) * BLOCK)
    model_rows: array = dataclasses.field(default_factory=lambda: array("q", [0]) * BLOCK)
    model_registers: array = dataclasses.field(
        default_factory=lambda: array("i", [0]) * (BLOCK * len(REGISTERS)))
    before: dict = dataclasses.field(default_factory=dict)
    length: int = 0

    def add(self, chunk):
        at, end = self.length, self.length + chunk.edges
        self.values[at * WIDE:end * WIDE] = chunk.values
        self.stack[at:end] = chunk.stack
        if chunk.golden is not None:
            rows, registers = chunk.golden
            self.model_rows[at:end] = rows
            self.model_registers[at * len(REGISTERS):end * len(REGISTERS)] = registers
        if chunk.before is not None:
            self.before[at] = chunk.before
        self.length = end

    def golden(self, at):
        """Row `at`'s golden values, by GOLDEN."""
        return golden_row(self.model_rows[at], self.model_registers[
            at * len(REGISTERS):(at + 1) * len(REGISTERS)])

    def nbytes(self):
        arrays = (self.values, self.stack, self.model_rows, self.model_registers,
                  *self.before.values())
        return sum(len(kept) * kept.itemsize for kept in arrays)


@dataclasses.dataclass(frozen=True)
class Row:
    """One frame as kept: its values (a row of NAMES), stack, the golden model's values
    (a row of GOLDEN; None: not known) and what the outputs showed before its edge (None:
    as the last frame)."""
    values: array
    stack: int
    golden: object
    before: object


class History:
    """The frames of a session from power-up (`random`: the chip's random counter then),
    kept as the module's docstring says; the clock holds the head's state (its chip
    made by `chip`, as sim/watch/clock.py says). Frame n >= 1 is block
    (n - 1) // BLOCK's row (n - 1) % BLOCK; frame 0 is kept apart."""

    def __init__(self, random=0, chip=compiled_chip):
        self.random, self.chip = random, chip
        self.clock = Clock(chip, random)
        self.widths = widths()
        self.zero = Row(self.clock.power_up, 0, None, None)
        self.codes = array("H")         # the pins of edge n at n - 1
        self.marks = _marks(self.zero.values)   # frame n's MARKS at n
        self.checkpoints = [self.clock.checkpoint()]    # block k's at its cycle k * BLOCK
        self.blocks = collections.OrderedDict()         # the kept, the last used last
        self.stopped = None     # the edge where the golden model stopped, if it did
        self._spare = None      # the clock a block was last clocked again with

    @property
    def head(self):
        return len(self.codes)

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
            clocked += chunk.edges
            if until and chunk.values[_STATE - WIDE] in WAITS:
                break
        return clocked

    def _keep(self, chunk):
        index = self.head // BLOCK
        block = self.blocks.get(index)
        if block is None:
            block = self.blocks[index] = Block(index * BLOCK + 1)
        self.blocks.move_to_end(index)
        block.add(chunk)
        self.codes += array("H", [chunk.code]) * chunk.edges
        self.marks += _marks(chunk.values)
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
        del self.codes[cycle:], self.marks[cycle + 1:]
        del self.checkpoints[cycle // BLOCK + 1:]
        if self.stopped is not None and self.stopped > cycle:
            self.stopped = None
        for index in [k for k in self.blocks if k * BLOCK + 1 > cycle]:
            del self.blocks[index]
        self.clock.close()
        if cycle == 0:
            self.clock = Clock(self.chip, self.random)
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
        golden = block.golden(at) if self.stopped is None or n < self.stopped else None
        return Row(block.values[at * WIDE:(at + 1) * WIDE], block.stack[at], golden,
                   block.before.get(at))

    def values(self, first, last):
        """Frames `first` .. `last`'s values, array('i') of a row of NAMES a frame."""
        rows = self.zero.values[:] if first == 0 else array("i")
        n = max(first, 1)
        while n <= last:
            index, at = divmod(n - 1, BLOCK)
            end = min(last - n + 1, BLOCK - at)
            rows += self.block(index).values[at * WIDE:(at + end) * WIDE]
            n += end
        return rows

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
            clock = Clock(self.chip, self.random, self.checkpoints[index], self.codes)
        block = Block(start + 1)
        at = start
        for code, run in itertools.groupby(self.codes[start:last]):
            end = at + sum(1 for _ in run)
            for first in range(at, end, SLICE):
                block.add(clock.run(code, min(SLICE, end - first)))
                share()
            at = end
        return block, clock

    def nbytes(self):
        """The bytes the history's arrays hold (what it keeps, not the compiled chips)."""
        blocks = sum(block.nbytes() for block in self.blocks.values())
        return blocks + len(self.codes) * self.codes.itemsize + \
            len(self.marks) * self.marks.itemsize

    def states(self):
        """The chip's state at every frame, 0 to head: bytes, one a frame (found in at
        C's speed, as sim/chip/tree.py's `bounds` does)."""
        return self.marks.tobytes()[_LOW::2].translate(_STATE_OF)


_MARK_COLUMNS = [COLUMN[name] for name, _, _ in MARKS]
_MARK_MASKS = [(1 << width) - 1 for _, _, width in MARKS]
_MARK_SHIFTS = [lsb for _, lsb, _ in MARKS]


def _marks(values):
    """Each frame's MARKS, packed (array('H')), from values of a row of NAMES a frame:
    one expression of the seven (a loop over them costs a third more a frame)."""
    m0, m1, m2, m3, m4, m5, m6 = _MARK_MASKS
    s0, s1, s2, s3, s4, s5, s6 = _MARK_SHIFTS
    return array("H", [
        (a & m0) << s0 | (b & m1) << s1 | (c & m2) << s2 | (d & m3) << s3
        | (e & m4) << s4 | (f & m5) << s5 | (g & m6) << s6
        for a, b, c, d, e, f, g in zip(*(values[k::WIDE] for k in _MARK_COLUMNS))])


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
