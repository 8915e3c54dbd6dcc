"""The host on a design's serial lines in Amaranth's simulator, as the real host: the
tests talk through boards/host/link.py's ``Link`` and boards/host/protocol.py's frames
and status lines, the code ``ttt play-board`` runs, over a port whose other end is the
simulated ``rx`` and ``tx``.

``converse(dut, script)`` runs ``script(port)`` in a thread of its own while the
simulation waits: the simulation moves on only while the script waits for a line
(``port.readline()``), so the same frames give the same clocks, as on a board in a box.
Bytes written go out back to back at the design's bit time, each frame 8N1; bytes that
come back are sampled in the middle of each bit. A line is the bytes up to ``\\n``;
``readline`` gives what came, maybe nothing, once the line has stayed silent for
``patience`` clocks, as a serial port's timeout does.
"""

import queue
import threading
from collections import deque

from bench import frame_bits, simulate

__all__ = ["Port", "converse"]

WAIT_S = 600            # seconds a side waits for the other before the test fails


class Port:
    """The host's end of the line: ``write`` and ``readline``, as a serial port."""

    def __init__(self):
        self._requests, self._replies = queue.Queue(), queue.Queue()
        self.frames = 0                 # the writes so far: whose effects are seen now
        self.clock = 0                  # the simulation's clocks so far

    def write(self, data, *, broken=()):
        """Queue ``data`` to send; the bytes at the indices in ``broken`` go with a low
        stop bit (and a bit's idle after it, so the next start bit is seen)."""
        self.frames += 1
        self._requests.put(("write", bytes(data), frozenset(broken)))

    def readline(self):
        self._requests.put(("readline",))
        reply = self._replies.get(timeout=WAIT_S)
        if isinstance(reply, BaseException):
            raise reply
        return reply


class _Line:
    """The simulation's side: the levels to send, and a receiver for the design's tx."""

    def __init__(self, bit_cycles):
        self.bit_cycles = bit_cycles
        self.to_send = deque()          # rx levels, one per clock
        self.heard = bytearray()        # bytes received, not yet read as a line
        self._clock = None              # clocks since the start bit of the byte heard
        self._byte = 0

    def queue(self, data, broken):
        b = self.bit_cycles
        for n, byte in enumerate(data):
            for level in frame_bits(byte, stop=0 if n in broken else 1):
                self.to_send.extend([level] * b)
            if n in broken:
                self.to_send.extend([1] * b)

    def listen(self, level):
        """One clock of the design's tx line; True when a byte has just arrived."""
        if self._clock is None:
            if not level:
                self._clock, self._byte = 0, 0
            return False
        self._clock += 1
        bit, phase = divmod(self._clock - self.bit_cycles // 2, self.bit_cycles)
        if phase or bit < 1:
            return False
        if bit <= 8:
            self._byte |= level << bit - 1
            return False
        assert level == 1, "the design's stop bit"
        self.heard.append(self._byte)
        self._clock = None
        return True

    @property
    def receiving(self):
        return self._clock is not None

    def line(self):
        """A whole line heard, taken, or None."""
        end = self.heard.find(b"\n")
        if end < 0:
            return None
        line = bytes(self.heard[:end + 1])
        del self.heard[:end + 1]
        return line


def converse(dut, port, script, *, bit_cycles, patience, background=()):
    """Simulate ``dut`` (with ``rx`` and ``tx`` lines) while ``script(port)`` runs as
    its host on ``port`` (a `Port`); return what the script returned. ``background``:
    testbenches beside it (the rest of a design's world). ``patience``: silent clocks
    before a ``readline`` gives up."""
    requests, replies = port._requests, port._replies
    outcome = {}

    def host():
        try:
            outcome["result"] = script(port)
        except BaseException as error:      # re-raised in the test's own thread
            outcome["error"] = error
        requests.put(("done",))

    async def wire(ctx):
        line = _Line(bit_cycles)
        rx_pin, tx_pin = dut.rx, dut.tx     # looked up once: a member's lookup is slow
        ctx.set(rx_pin, rx := 1)
        thread = threading.Thread(target=host, name="test host", daemon=True)
        thread.start()
        try:
            while (request := requests.get(timeout=WAIT_S))[0] != "done":
                if request[0] == "write":
                    line.queue(*request[1:])
                    continue
                silent = 0
                while (got := line.line()) is None and silent < patience:
                    level = line.to_send.popleft() if line.to_send else 1
                    if level != rx:         # a set costs a settle: only on a change
                        ctx.set(rx_pin, rx := level)
                    *_, tx = await ctx.tick().sample(tx_pin)
                    port.clock += 1
                    heard = line.listen(tx)
                    busy = heard or line.to_send or line.receiving
                    silent = 0 if busy else silent + 1
                if got is None:
                    got, line.heard[:] = bytes(line.heard), b""
                replies.put(got)
        except BaseException as error:
            replies.put(AssertionError(f"the simulation failed: {error!r}"))
            raise
        thread.join(timeout=WAIT_S)

    simulate(dut, wire, background=background)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]
