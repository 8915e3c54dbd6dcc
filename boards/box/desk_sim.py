"""The desk in Amaranth simulation, with models of what a person wires to it.

``DeskBench`` advances the simulation one clock at a time and, after each edge, plays
the parts outside the FPGA: the key matrix (keys a test holds, bouncing if asked), the
LED display (decoded from the multiplexed rows), the buttons, and a host on the serial
line. Tests drive it through the same frames and status lines as a real host
(boards/host/protocol.py).
"""

from collections import deque

from amaranth.sim import Simulator

from firmware_ref.cartridge import board_bits
from hdl.eth.cartridge import EthCartridge

from boards.gateware.desk import Desk
from boards.gateware.answer_text import TEXT_MARK


__all__ = ["DeskBench", "sim_desk", "run"]

# Small timings so that a simulated game takes seconds, not minutes.
SIM_TIMINGS = dict(bit_cycles=8, slot_cycles=4, stable=2, blink_cycles=64)


def sim_desk(cartridges=(EthCartridge,)):
    return Desk(list(cartridges), **SIM_TIMINGS)


class DeskBench:
    def __init__(self, ctx, desk):
        self.ctx = ctx
        self.desk = desk
        self.bit_cycles = desk.bit_cycles
        self.frame_cycles = 3 * desk.slot_cycles
        self.cycle = 0
        self.closed = set()             # keys held down now
        self.rows = [None] * 3          # (red, green) last seen on each row
        self.lines = deque()            # lines the desk sent, CR LF stripped
        self.texts = []                 # the cartridge's lines, without their mark
        self._to_desk = deque()         # levels for rx, one per clock
        self._heard = None              # clocks since the start bit of a byte from the desk
        self._byte = 0
        self._line = bytearray()

    # The clock, and everything outside the FPGA that answers it.

    async def tick(self, count=1):
        for _ in range(count):
            await self.ctx.tick()
            self.cycle += 1
            self._outside()

    def _outside(self):
        ctx, desk = self.ctx, self.desk
        row = ctx.get(desk.row)
        if row not in (0b001, 0b010, 0b100):
            raise AssertionError(f"cycle {self.cycle}: the rows {row:03b} are active at once")
        r = row.bit_length() - 1
        self.rows[r] = (ctx.get(desk.red), ctx.get(desk.green))
        # A closed key joins its row to its column's sense line.
        ctx.set(desk.sense, sum(1 << c for c in range(3) if 3 * r + c in self.closed))
        if self._to_desk:
            ctx.set(desk.rx, self._to_desk.popleft())
        self._listen(ctx.get(desk.tx))

    def _listen(self, level):
        b = self.bit_cycles
        if self._heard is None:
            if not level:
                self._heard = 0
            return
        self._heard += 1
        bit, phase = divmod(self._heard - b // 2, b)
        if phase or bit < 1:
            return
        if bit <= 8:
            self._byte |= level << (bit - 1)
            return
        if not level:
            raise AssertionError(f"cycle {self.cycle}: the desk sent a byte without a stop bit")
        self._line.append(self._byte)
        if self._line.startswith(TEXT_MARK) and self._line.endswith(b"\n"):
            self.texts.append(bytes(self._line[1:-1]))
            self._line.clear()
        elif self._line.endswith(b"\r\n"):
            self.lines.append(bytes(self._line[:-2]))
            self._line.clear()
        self._heard, self._byte = None, 0

    # The display.

    async def shown(self):
        """The 18-bit board the LEDs show (the chip's led order), after a whole frame.
        A place may light both colours: the chip can put its stone on the user's after
        a position no game reaches (docs/decisions.md)."""
        self.rows = [None] * 3
        await self.tick(self.frame_cycles + 1)
        return board_bits([(red >> c & 1) | (green >> c & 1) << 1
                           for red, green in self.rows for c in range(3)])

    # A person at the panel.

    async def press(self, place, *, bounces=3, hold_frames=6):
        """Press and release a key as a finger does: it bounces for `bounces` frames
        each way and is held for `hold_frames` frames."""
        for n in range(bounces):
            self._set_key(place, n % 2 == 0)
            await self.tick(self.frame_cycles)
        self.closed.add(place)
        await self.tick(hold_frames * self.frame_cycles)
        for n in range(bounces):
            self._set_key(place, n % 2 == 1)
            await self.tick(self.frame_cycles)
        self.closed.discard(place)
        await self.tick(4 * self.frame_cycles)

    def _set_key(self, place, closed):
        (self.closed.add if closed else self.closed.discard)(place)

    async def button(self, which, *, down=True, frames=6):
        """Push (or let go of) a button, "reset" or the switch button `which` (0, 1),
        and wait `frames` frames."""
        if which == "reset":
            self.ctx.set(self.desk.reset_button, int(down))
        else:
            pins = self.ctx.get(self.desk.buttons)
            self.ctx.set(self.desk.buttons, pins & ~(1 << which) | int(down) << which)
        await self.tick(frames * self.frame_cycles)

    async def click(self, which):
        await self.button(which, down=True)
        await self.button(which, down=False)

    async def until(self, condition, *, limit=100_000, what="the condition"):
        for _ in range(limit):
            if condition():
                return
            await self.tick()
        raise AssertionError(f"{what} did not happen within {limit} clocks")

    # A host on the serial line.

    def send(self, data, *, broken=()):
        """Queue bytes for the desk's rx; bytes at the indices in `broken` get a low
        stop bit."""
        b = self.bit_cycles
        for n, byte in enumerate(data):
            bits = [0] + [byte >> i & 1 for i in range(8)] + [0 if n in broken else 1]
            for level in bits:
                self._to_desk.extend([level] * b)
            self._to_desk.extend([1] * b)       # idle between bytes, and after a break

    async def command(self, frame, *, broken=(), limit=100_000):
        """Send one frame and return the line the desk answers it with."""
        self.send(frame, broken=broken)
        await self.until(lambda: self.lines, limit=limit, what=f"an answer to {frame!r}")
        return self.lines.popleft()


def run(desk, bench_body):
    """Simulate `desk` with the async `bench_body(bench)`; its result is returned."""
    sim = Simulator(desk)
    sim.add_clock(1e-6)
    result = []

    async def testbench(ctx):
        result.append(await bench_body(DeskBench(ctx, desk)))

    sim.add_testbench(testbench)
    sim.run()
    return result[0]
