"""The board in a box with no terminal and no thread: a compiled desk's serial line as a
stream with ``write`` and ``readline`` (what boards.host.link.Link reads), its clock run
by the reader, only while a line is awaited.

The page's Worker in a browser has neither a pseudo-terminal nor threads: it plays its
desks (compiled to WebAssembly, boards/site/) so. Any desk with `send(data)` and
`run(cycles) -> bytes` will do; box.py's `CompiledDesk` is one.
"""

from boards.gateware.rates import BOX_BAUD, CLOCK_HZ

__all__ = ["DeskStream", "CHUNK", "PATIENCE", "LINGER"]

CHUNK = round(CLOCK_HZ / 1000)      # clocks per run between looks for bytes: 1 ms
# An answer owed for longer than this is given up (the client reports it): the chip's
# worst move takes 15 007 clocks and a status line 34 bytes: some 4 ms in all.
PATIENCE = round(CLOCK_HZ)          # one second of the board's time
# After the desk's last byte the clock runs on for a byte's time: a cartridge's line
# that follows an answer (docs/boards.md) begins as the answer's last byte ends.
LINGER = round(10 * CLOCK_HZ / BOX_BAUD)


class DeskStream:
    """`desk`'s serial line. A line not whole after PATIENCE of the board's clocks with
    no byte comes back as far as it got, as a port's read times out."""

    def __init__(self, desk):
        self.desk = desk
        self._heard = bytearray()
        # The power-up lines (a cartridge's line) are dropped, as open_box drops them.
        while self._clock(LINGER):
            pass
        self._heard.clear()

    def _clock(self, cycles):
        """The desk clocked `cycles`; whether it said anything meanwhile."""
        said = self.desk.run(cycles)
        self._heard += said
        return bool(said)

    def write(self, data):
        self.desk.send(bytes(data))
        return len(data)

    def readline(self):
        waited = 0
        while b"\n" not in self._heard and waited < PATIENCE:
            waited = 0 if self._clock(CHUNK) else waited + CHUNK
        end = self._heard.find(b"\n") + 1 or len(self._heard)
        line = bytes(self._heard[:end])
        del self._heard[:end]
        return line

    def close(self):
        self.desk.close()
