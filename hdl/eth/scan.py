"""The chip's scan path: its order, and the bits a testbench shifts through it.

The report's §4 gives the chip a ``scan`` pin ("puts the chip into test-mode") and a scan path
from ``scanin`` to ``scanout``, but not its order. This module fixes the order, in one place:
:data:`SCAN_CHAIN`. The blocks build their shift logic from it, the chip chains the blocks
in its order, ``docs/scan.md`` is printed from it (``python -m hdl.eth.scan``) and the tests
check all three against it.

:class:`Scanned` is the base of the six blocks on the path: it owns their ``scan``,
``scanin`` and ``scanout`` members and builds their shift logic. :func:`encode` and
:func:`decode` are plain Python (no simulator), so any testbench or tool can use them.

How the path shifts
-------------------
The flip-flops form one chain of :data:`SCAN_LENGTH` positions. Position 0 drives
``scanout``. On every clock edge with ``scan`` high, position ``k`` takes the value of
position ``k + 1`` and the last position takes ``scanin``. Hence a stream of bits is
always in position order, both ways:

* shifting in: present ``encode(values)[t]`` at ``scanin`` before edge ``t``; after
  :data:`SCAN_LENGTH` edges the chip holds ``values``;
* shifting out: the bit at ``scanout`` before edge ``t`` is position ``t`` of the state
  the chip held when the shift began; ``decode`` turns the stream back into values.

Both can be done in the same :data:`SCAN_LENGTH` edges.

Registers are listed block by block, in the order of the paper's section 3 (board, move,
value, stack, controller), then the keyboard register of the interface (§4). Within a
register the least significant bit comes first.
"""

from dataclasses import dataclass

from amaranth.hdl import Cat
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out


__all__ = [
    "ScanRegister", "SCAN_CHAIN", "SCAN_LENGTH",
    "blocks", "block_chain", "position", "encode", "decode",
    "pack_entry", "unpack_entry", "markdown_table", "Scanned",
]


@dataclass(frozen=True)
class ScanRegister:
    """One register on the scan path.

    Members
    -------
    block : str
        Name of the block (and of the chip's submodule) that holds the register.
    name : str
        Register name, from the paper where it names it; unique on the chip.
    width : int
        Number of flip-flops.
    signed : bool
        Whether :func:`encode` and :func:`decode` treat the value as two's complement.
    meaning : str
        One line for ``docs/scan.md``.
    """
    block: str
    name: str
    width: int
    signed: bool = False
    meaning: str = ""


# The one definition of the scan order. Position 0 (next to scanout) is the first bit of
# the first register.
SCAN_CHAIN = (
    # The report's §3.1: the board block, the 18-bit board register and p.
    ScanRegister("board", "board", 18,
                 meaning="place k: bit 2k chip's stone, bit 2k+1 user's stone"),
    ScanRegister("board", "p", 1, meaning="player to move: 0 chip, 1 user"),
    # §3.2: the move block, i, m and the 3-bit random counter.
    ScanRegister("move", "i", 4, meaning="move being tried"),
    ScanRegister("move", "m", 4, meaning="best move found"),
    ScanRegister("move", "random", 3, meaning="free-running counter"),
    # §3.3: the value block; r in -1..1, bestr in -1..0, a in 0..1.
    ScanRegister("value", "r", 2, signed=True,
                 meaning="value of the move, -1..1, two's complement"),
    ScanRegister("value", "bestr", 1, signed=True,
                 meaning="best value so far: 1 is -1, 0 is 0"),
    ScanRegister("value", "a", 1, meaning="cut-off bound, 0..1"),
    # §3.4: the stack, its pointer and its 8 x 6 register file.
    ScanRegister("stack", "sp", 3, meaning="stack pointer"),
    *(ScanRegister("stack", f"stack[{k}]", 6,
                   meaning=f"stack entry {k}: i in bits 0-3, a in bit 4, bestr in bit 5")
      for k in range(8)),
    # §3.5: the controller's state register, appendix C codes.
    ScanRegister("controller", "state", 3,
                 meaning="controller state, appendix C code (justreset 3)"),
    # §4: the registered keyboardN lines (active low; 1 = key not pressed).
    ScanRegister("keyboard", "keyboard", 9, meaning="registered keyboardN[0..8], active low"),
)

SCAN_LENGTH = sum(register.width for register in SCAN_CHAIN)


def blocks():
    """Block names in scan order; the first one drives ``scanout``."""
    names = []
    for register in SCAN_CHAIN:
        if not names or names[-1] != register.block:
            # A block's registers must be contiguous, or it could not be one chain segment.
            assert register.block not in names, f"block {register.block} is split"
            names.append(register.block)
    return tuple(names)


def block_chain(block):
    """The registers of ``block``, in scan order (its segment of the chain)."""
    chain = tuple(register for register in SCAN_CHAIN if register.block == block)
    if not chain:
        raise KeyError(f"no block {block!r} on the scan path")
    return chain


def position(name):
    """Position of the least significant bit of register ``name``."""
    offset = 0
    for register in SCAN_CHAIN:
        if register.name == name:
            return offset
        offset += register.width
    raise KeyError(f"no register {name!r} on the scan path")


def encode(values):
    """Map ``{register name: value}`` to the bit stream, position 0 first.

    Every register of :data:`SCAN_CHAIN` must be given. Values are integers (signed ones
    for ``r`` and ``bestr``) or anything with an integer ``.value`` (an enum member such
    as a controller state).
    """
    missing = {register.name for register in SCAN_CHAIN} - set(values)
    extra = set(values) - {register.name for register in SCAN_CHAIN}
    if missing or extra:
        raise KeyError(f"missing {sorted(missing)}, unknown {sorted(extra)}")
    bits = []
    for register in SCAN_CHAIN:
        value = values[register.name]
        value = int(getattr(value, "value", value))
        low, high = (-(1 << (register.width - 1)), (1 << (register.width - 1)) - 1) \
            if register.signed else (0, (1 << register.width) - 1)
        if not low <= value <= high:
            raise ValueError(f"{register.name}={value} does not fit {register.width} bits")
        bits.extend((value >> bit) & 1 for bit in range(register.width))
    return bits


def decode(bits):
    """Map a bit stream, position 0 first, back to ``{register name: int}``."""
    bits = list(bits)
    if len(bits) != SCAN_LENGTH:
        raise ValueError(f"expected {SCAN_LENGTH} bits, got {len(bits)}")
    values = {}
    offset = 0
    for register in SCAN_CHAIN:
        field = bits[offset:offset + register.width]
        value = sum(bit << index for index, bit in enumerate(field))
        if register.signed and field[-1]:
            value -= 1 << register.width
        values[register.name] = value
        offset += register.width
    return values


def pack_entry(i, a, bestr):
    """A stack entry as its 6 flip-flops hold it: i bits 0-3, a bit 4, bestr bit 5."""
    assert 0 <= i < 16 and a in (0, 1) and bestr in (-1, 0)
    return i | a << 4 | (bestr & 1) << 5


def unpack_entry(entry):
    """Inverse of :func:`pack_entry`: ``(i, a, bestr)``."""
    return entry & 0xf, (entry >> 4) & 1, -((entry >> 5) & 1)


def markdown_table():
    """The position table of ``docs/scan.md``."""
    lines = ["| positions | block | register | bits | meaning |",
             "|---|---|---|---|---|"]
    for register in SCAN_CHAIN:
        first = position(register.name)
        last = first + register.width - 1
        span = f"{first}" if first == last else f"{first}-{last}"
        lines.append(f"| {span} | {register.block} | {register.name} | "
                     f"{register.width} | {register.meaning} |")
    lines.append(f"| | | **total** | **{SCAN_LENGTH}** | |")
    return "\n".join(lines)


class Scanned(wiring.Component):
    """Base of the blocks on the scan path: their scan members and their shift logic.

    A subclass names its segment in :attr:`scan_block` and calls :meth:`add_scan` at the
    end of its ``elaborate``. Its signature is these three members, then its own.

    Members
    -------
    scan : In(1)
        Scan mode: at every edge while it is high, the block's flip-flops shift one place
        along the path instead of their normal update.
    scanin : In(1)
        The scan data coming in: the next block's ``scanout``, or the chip's ``scanin``.
    scanout : Out(1)
        The block's first scan position.

    Attributes
    ----------
    scan_block : str
        Set by the subclass: its block's name in :data:`SCAN_CHAIN`.
    """

    scan: In(1)
    scanin: In(1)
    scanout: Out(1)

    scan_block = None

    @property
    def scan_registers(self):
        """The block's flip-flops by scan name, in scan order: the attributes named as its
        registers in :data:`SCAN_CHAIN`. A block whose flip-flops have other names
        overrides this."""
        return {register.name: getattr(self, register.name)
                for register in block_chain(self.scan_block)}

    def add_scan(self, m):
        """Add the block's segment of the scan path to module ``m``.

        Call this after all of the block's other ``sync`` assignments: the last assignment
        wins in Amaranth, which is how scan takes priority over reset and normal operation
        (§4: "puts the chip into test-mode").
        """
        registers = self.scan_registers
        assert list(registers) == [register.name for register in block_chain(self.scan_block)]
        chain = Cat(*registers.values())
        m.d.comb += self.scanout.eq(chain[0])
        with m.If(self.scan):
            m.d.sync += chain.eq(Cat(chain[1:], self.scanin))


if __name__ == "__main__":
    print(markdown_table())
