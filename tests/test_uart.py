"""The host link's UART alone (boards/gateware/uart.py), on Amaranth's simulator.

The desk's tests (test_desk_sim.py) send whole frames through it; here each direction is
measured on the line, clock by clock: TX's bit timing, RX's sampling instant, its
tolerance to a sender whose clock is off, its stop-bit check and its glitch filter.

A testbench's cycle ``n`` is the time between the simulator's edges ``n`` and ``n + 1``:
what a testbench sets in cycle ``n`` is on the line until edge ``n + 1`` samples it.
"""

import pytest
from amaranth.hdl import Module
from bench import elaborated, frame_bits, hold, refuses, simulate, until

from boards.gateware.uart import UartRx, UartTx


def line(bits, period):
    """One level per clock for ``bits`` sent at ``period`` clocks a bit (any real number:
    a sender whose clock is off)."""
    return [bits[int(n / period)] for n in range(int(len(bits) * period))]


def runs(levels):
    """Run-length code: [(level, clocks), ...]."""
    out = []
    for level in levels:
        if out and out[-1][0] == level:
            out[-1][1] += 1
        else:
            out.append([level, 1])
    return out


def receive(bit_cycles, levels, *, idle=None):
    """Drive UartRx's line with ``levels`` (then ``idle`` clocks high, 3 bits by default)
    and return what it received: (cycle, data, error) for each clock ``valid`` was high."""
    rx = UartRx(bit_cycles)
    levels = list(levels) + [1] * (3 * bit_cycles if idle is None else idle)
    got = []

    async def drive(ctx):
        for level, clocks in runs(levels):
            await hold(ctx, rx, clocks=clocks, rx=level)

    async def listen(ctx):
        n = 0
        received = rx.received
        async for _, _, valid, payload in ctx.tick().sample(received.valid, received.payload):
            if valid:
                got.append((n, payload.byte, payload.broken))
            n += 1

    simulate(rx, drive, background=[listen])
    return got


def test_the_constructors_refuse_bits_too_short_for_them():
    refuses(UartRx, 3, match="at least 4 clocks")
    refuses(UartTx, 0, match="at least 1 clock")
    elaborated(UartRx(4))
    elaborated(UartTx(1))


# TX

def transmit(bit_cycles, data, *, start_cycles):
    """Offer ``data`` to UartTx, the next byte as soon as one is taken, ``valid`` high
    in ``start_cycles`` clocks before each. Return the line, one level per clock, and
    the cycles at whose end a byte was taken."""
    tx = UartTx(bit_cycles)
    send = tx.send
    levels, taken = [], []

    async def testbench(ctx):
        pending = list(data)
        n = 0
        wait = start_cycles
        assert ctx.get(tx.tx) == 1 and ctx.get(send.ready) == 1     # idle after reset
        while pending or not ctx.get(send.ready):
            offer = bool(pending) and wait == 0
            ctx.set(send.valid, offer)
            ctx.set(send.payload, pending[0] if offer else 0xFF ^ (n & 0xFF))   # noise
            took = offer and ctx.get(send.ready)
            levels.append(ctx.get(tx.tx))
            await ctx.tick()
            if took:
                taken.append(n)
                pending.pop(0)
                wait = start_cycles
                assert not ctx.get(send.ready), "ready high the clock after a byte was taken"
            elif pending and wait:
                wait -= 1
            n += 1
            assert n < 20 * bit_cycles * (len(data) + 1) + 100, "TX never finished"
        for _ in range(3 * bit_cycles):                             # it stays idle
            levels.append(ctx.get(tx.tx))
            await ctx.tick()

    simulate(tx, testbench)
    return levels, taken


def frame_starts(levels, bit_cycles):
    """The cycles in which frames start on a line: a fall from high, and the next one
    looked for only after the whole frame (a byte's own bits fall too)."""
    starts, n = [], 1
    while n < len(levels):
        if levels[n - 1] == 1 and levels[n] == 0:
            starts.append(n)
            n += 10 * bit_cycles
        else:
            n += 1
    return starts


@pytest.mark.parametrize("bit_cycles", [1, 4, 8, 104])
def test_tx_bit_timing_on_the_line(bit_cycles):
    # One byte at a time: from the falling edge on, every bit is exactly bit_cycles long,
    # start bit low, data least significant bit first, stop bit high; then the line idles.
    b = bit_cycles
    data = [0x00, 0xFF, 0x01, 0x80, 0x55, 0xA3]
    levels, taken = transmit(b, data, start_cycles=2 * b)
    starts = frame_starts(levels, b)
    assert len(taken) == len(starts) == len(data)
    for byte, took, fall in zip(data, taken, starts):
        # The frame starts within 2 clocks of the byte being taken.
        assert 1 <= fall - took <= 2, f"byte {byte:#04x}: start bit {fall - took} clocks late"
        assert all(levels[took + 1:fall]), f"byte {byte:#04x}: the line dipped early"
        expected = [level for bit in frame_bits(byte) for level in [bit] * b]
        assert levels[fall:fall + 10 * b] == expected, f"byte {byte:#04x} at {b} clocks/bit"
    # Between frames, and after the last, the line idles high.
    for fall, after in zip(starts, starts[1:] + [len(levels)]):
        assert all(levels[fall + 10 * b:after])


@pytest.mark.parametrize("bit_cycles", [1, 4, 13])
def test_tx_back_to_back_keeps_every_stop_bit_and_the_byte_it_took(bit_cycles):
    # valid held high: each byte is taken the moment TX is ready, and the payload changes
    # right after (the noise in transmit()); each frame must still be the byte taken, whole,
    # and its stop bit at least a bit long before the next start bit.
    b = bit_cycles
    data = [0x00, 0x00, 0xFF, 0x3C, 0x81, 0x00]
    levels, taken = transmit(b, data, start_cycles=0)
    starts = frame_starts(levels, b)
    assert len(taken) == len(starts) == len(data)
    for byte, fall in zip(data, starts):
        expected = [level for bit in frame_bits(byte) for level in [bit] * b]
        assert levels[fall:fall + 10 * b] == expected, f"byte {byte:#04x} at {b} clocks/bit"
    gaps = [s2 - s1 for s1, s2 in zip(starts, starts[1:])]
    assert all(10 * b <= gap <= 10 * b + 2 for gap in gaps), gaps


# RX on its own line

@pytest.mark.parametrize("bit_cycles", [4, 8, 9, 16])
def test_rx_samples_each_bit_in_its_middle(bit_cycles):
    # A frame whose data and stop bits are high for one clock only, at the same place j
    # in every bit, and low for the rest: RX reads 1 in a bit exactly when it samples
    # that bit at j. Scanning j over the bit finds the clock each bit is sampled on.
    b = bit_cycles
    sampled = {k: [] for k in range(9)}        # bit 0-7: data, 8: stop
    for j in range(b):
        probe = [1 if i == j else 0 for i in range(b)]
        levels = [1] * (2 * b) + [0] * b + probe * 9
        got = receive(b, levels)
        assert len(got) == 1, f"probe at {j}: {got}"
        _, data, error = got[0]
        for k in range(8):
            if data >> k & 1:
                sampled[k].append(j)
        if not error:
            sampled[8].append(j)
    middle = (b - 1) / 2
    for k, js in sampled.items():
        assert len(js) == 1, f"bit {k} sampled at {js} of 0..{b - 1}"
        assert abs(js[0] - middle) <= 0.5, f"bit {k} sampled at {js[0]} of 0..{b - 1}"
    assert len(set(js[0] for js in sampled.values())) == 1   # the same place in every bit


# Each bit alone set and alone clear, the two alternations, all clear and all set: every
# bit next to either level, for the tests that cannot afford all 256.
PATTERNS = ([1 << k for k in range(8)] + [0xFF ^ 1 << k for k in range(8)]
            + [0x00, 0xFF, 0x55, 0xAA])


@pytest.mark.parametrize("bit_cycles", [16, 104])
@pytest.mark.parametrize("skew", [+0.03, -0.03])
def test_rx_takes_a_sender_whose_clock_is_3_percent_off(bit_cycles, skew):
    # Back to back, no idle between frames: a slow sender's stop bit is sampled early, a
    # fast sender's next start bit comes before RX's stop bit would have ended.
    period = bit_cycles / (1 + skew)          # a fast sender's bits are shorter
    bits = [bit for byte in PATTERNS for bit in frame_bits(byte)]
    got = receive(bit_cycles, line(bits, period))
    assert [(d, e) for _, d, e in got] == [(byte, 0) for byte in PATTERNS]

    if bit_cycles == 16:
        # The control: the same stream 7 % off is not received whole (the skew is real).
        period = bit_cycles / (1 + 7 / 3 * skew)
        got = receive(bit_cycles, line(bits, period))
        assert [(d, e) for _, d, e in got] != [(byte, 0) for byte in PATTERNS]


def test_rx_reports_a_broken_stop_bit_and_recovers():
    b = 8
    levels = (line(frame_bits(0x3C, stop=0), b) + [1] * b
              + line(frame_bits(0xC3), b)
              + line(frame_bits(0x00, stop=0), b) + [0] * (30 * b) + [1] * b     # a break
              + line(frame_bits(0x5A), b))
    got = receive(b, levels)
    assert [(d, e) for _, d, e in got] == [(0x3C, 1), (0xC3, 0), (0x00, 1), (0x5A, 0)]


@pytest.mark.parametrize("bit_cycles", [8, 9])
def test_rx_valid_is_one_clock_per_byte_three_clocks_after_the_stop_bit(bit_cycles):
    # The line first falls in cycle 0, so RX samples the stop bit on the line in cycle
    # 9 b + b // 2 (test_rx_samples_each_bit_in_its_middle); the level takes two clocks
    # through the synchroniser and one into valid.
    b = bit_cycles
    data = [0x12, 0x34, 0x56]
    got = receive(b, line([bit for byte in data for bit in frame_bits(byte)], b))
    assert [(d, e) for _, d, e in got] == [(byte, 0) for byte in data]
    assert [n for n, _, _ in got] == [10 * b * i + 9 * b + b // 2 + 3 for i in range(3)]


@pytest.mark.parametrize("bit_cycles", [8, 9, 104])
def test_rx_ignores_glitches_shorter_than_half_a_bit(bit_cycles):
    # UartRx's docstring: a start is a falling edge still low half a bit later. A low
    # pulse on the idle line shorter than half a bit gives nothing, and leaves RX ready
    # for a real byte; one still low at half a bit is a start bit (the line then idles
    # high, so the byte is 0xFF with a good stop bit).
    b = bit_cycles
    levels = []
    for width in range(1, (b + 1) // 2):            # every width < b / 2
        levels += [1] * b + [0] * width
    levels += [1] * b
    glitched = len(levels)
    levels += line(frame_bits(0xA5), b)
    got = receive(b, levels)
    assert [(d, e) for _, d, e in got] == [(0xA5, 0)], f"glitches < {b / 2} clocks"
    assert got[0][0] > glitched

    # The threshold: b // 2 + 1 clocks low covers the start bit's sampling clock.
    got = receive(b, [1] * (2 * b) + [0] * (b // 2 + 1), idle=12 * b)
    assert [(d, e) for _, d, e in got] == [(0xFF, 0)]


# TX into RX

def loopback(bit_cycles, data):
    tx, rx = UartTx(bit_cycles), UartRx(bit_cycles)
    m = Module()
    m.submodules.tx, m.submodules.rx = tx, rx
    m.d.comb += rx.rx.eq(tx.tx)
    # A broken block may never answer: each wait gives up after a frame and some.
    frame = 10 * bit_cycles + 10
    got = []

    async def testbench(ctx):
        for n, byte in enumerate(data):
            ctx.set(tx.send.payload, byte)
            ctx.set(tx.send.valid, 1)
            # ready and valid at this edge: taken.
            await until(ctx, tx.send.ready, within=frame, what=f"TX taking byte {n}")
            ctx.set(tx.send.valid, 0)
            ctx.set(tx.send.payload, ~byte & 0xFF)      # TX must have kept its own copy
            await until(ctx, rx.received.valid, within=frame, what=f"RX receiving byte {n}")
            payload = ctx.get(rx.received.payload)
            got.append((payload.byte, payload.broken))

    simulate(m, testbench)
    return got


@pytest.mark.parametrize("bit_cycles", [4, 8])
def test_loopback_every_byte(bit_cycles):
    data = list(range(256))
    assert loopback(bit_cycles, data) == [(byte, 0) for byte in data]


def test_loopback_at_the_boards_bit_time():
    # 104 clocks a bit: 115 200 baud at 12 MHz. All 256 bytes would be 270 000 clocks.
    assert loopback(104, PATTERNS) == [(byte, 0) for byte in PATTERNS]
