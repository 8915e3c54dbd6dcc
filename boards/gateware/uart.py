"""The host link's serial port: 8 data bits, no parity, one stop bit (8N1), its bytes
as streams."""

from amaranth.hdl import Module, Signal
from amaranth.lib import data, stream, wiring
from amaranth.lib.cdc import FFSynchronizer
from amaranth.lib.wiring import In, Out


__all__ = ["Received", "RECEIVED", "UartRx", "UartTx"]


class Received(data.Struct):
    """A byte from the line, and whether its stop bit was low (then it is not to be
    trusted)."""
    byte: 8
    broken: 1


# No back pressure: a receiver cannot ask the host to wait, so its reader takes every
# byte the clock it comes.
RECEIVED = stream.Signature(Received, always_ready=True)


class UartRx(wiring.Component):
    """Receives bytes on ``rx``; each bit lasts ``bit_cycles`` clocks.

    A byte is sampled in the middle of each bit, from a falling edge that is still low
    half a bit later (a glitch is not a start bit).

    Members
    -------
    rx : In(1)
        The line, idle high. Asynchronous: it is synchronised here.
    received : Out(RECEIVED)
        Each byte, ``valid`` for one clock. The payload holds longer, until the next
        start bit, so a reader may look at it on the clocks after ``valid``.
    """

    rx: In(1, init=1)
    received: Out(RECEIVED)

    def __init__(self, bit_cycles):
        if bit_cycles < 4:
            raise ValueError(f"a bit must last at least 4 clocks, not {bit_cycles}")
        self._bit_cycles = bit_cycles
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        rx = Signal(init=1)
        m.submodules.rx_sync = FFSynchronizer(self.rx, rx, init=1)

        # The data bits shift in from the top behind a marker bit: when the marker
        # reaches bit 0, the next bit is the last (no bit counter).
        shift = self.received.payload.byte
        m.d.sync += self.received.valid.eq(0)
        # The timer counts up every clock; `zero` (the time is up) is its top bit, a
        # flip-flop, so the state machine's decisions start at one and no comparator is
        # needed. `wait(n)` loads it to reach its top bit n clocks later. While idle it
        # is held at half a bit (a synchronous reset), so a start bit needs no load of
        # its own: each bit is one LUT.
        width = (self._bit_cycles - 1).bit_length()
        timer = Signal(width + 1)
        zero = timer[width]

        def wait(n):
            return timer.eq((1 << width) - n)
        m.d.sync += timer.eq(timer + 1)

        # The states, one hot (each a flip-flop: every decision is a LUT or two).
        idle = Signal(init=1)
        start = Signal()            # half a bit, to the start bit's middle
        data = Signal()
        stop = Signal()
        broken = Signal()           # a low stop bit: wait for the line to go idle
        with m.If((start | data) & zero):
            m.d.sync += wait(self._bit_cycles - 1)
        with m.If(idle):
            m.d.sync += wait(self._bit_cycles // 2 - 1)
        with m.If(idle & ~rx):
            m.d.sync += [idle.eq(0), start.eq(1)]
        with m.If(start & zero):
            m.d.sync += start.eq(0)
            with m.If(rx):
                m.d.sync += idle.eq(1)      # a glitch, not a start bit
            with m.Else():
                m.d.sync += [data.eq(1), shift.eq(0x80)]
        with m.If(data & zero):
            m.d.sync += shift.eq(shift >> 1 | rx << 7)     # least significant bit first
            with m.If(shift[0]):
                m.d.sync += [data.eq(0), stop.eq(1)]
        with m.If(stop & zero):
            m.d.sync += [self.received.valid.eq(1), self.received.payload.broken.eq(~rx),
                         stop.eq(0),
                         idle.eq(rx), broken.eq(~rx)]
        with m.If(broken & rx):
            m.d.sync += [broken.eq(0), idle.eq(1)]
        return m


class UartTx(wiring.Component):
    """Sends bytes on ``tx``; each bit lasts ``bit_cycles`` clocks.

    Members
    -------
    send : In(stream.Signature(8))
        The bytes to send; ``ready`` while idle, so a byte is taken whole or not at all.
    tx : Out(1)
        The line, idle high.
    """

    send: In(stream.Signature(8))
    tx: Out(1, init=1)

    def __init__(self, bit_cycles):
        if bit_cycles < 1:
            raise ValueError(f"a bit must last at least 1 clock, not {bit_cycles}")
        self._bit_cycles = bit_cycles
        super().__init__()

    def elaborate(self, platform):
        m = Module()
        # Stop bit, 8 data bits, start bit, shifted out LSB first with zeros behind:
        # the bits still to send are those of a frame not yet all zero (no bit counter).
        # `empty` says so, a register set from the bits the shift leaves.
        frame = Signal(10)
        empty = Signal(init=1)

        # ready is "timer and frame are zero", registered: computed from the values
        # they are given, so no path runs from the frame's wide or out of the block.
        # The timer counts up to its top bit, `zero` (the bit time is up), a flip-flop
        # and no comparator; its carry out says it will be up next clock.
        width = (self._bit_cycles - 1).bit_length()
        timer = Signal(width + 1, init=1 << width)
        zero = timer[width]
        more = timer + 1
        idle = Signal(init=1)
        m.d.comb += self.send.ready.eq(idle)
        with m.If(~zero):
            m.d.sync += [timer.eq(more), idle.eq(more[width] & empty)]
        with m.Elif(~empty):
            m.d.sync += [
                self.tx.eq(frame[0]),
                frame.eq(frame >> 1),
                empty.eq(frame[1:] == 0),
                timer.eq((1 << width) - (self._bit_cycles - 1)),
                idle.eq((self._bit_cycles == 1) & (frame[1:] == 0)),
            ]
        with m.Elif(self.send.valid):
            m.d.sync += [frame.eq(self.send.payload << 1 | 1 << 9), empty.eq(0), idle.eq(0)]
        return m
