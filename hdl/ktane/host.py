"""The module's words with the host: edgework and labels in, one line out."""

from amaranth.hdl import Module, Signal, unsigned
from amaranth.lib import data, stream, wiring
from amaranth.lib.wiring import In, Out


__all__ = ["EDGE", "LINE", "HostPort"]

EDGE = data.StructLayout({"digit": 4, "port": 1, "lit": 4, "unlit": 4})
# The line, a character per entry: text, or a field shown as a digit.
LINE = ("E", "digit", "port", "lit", "unlit", " ", "L", *[("label", k) for k in range(9)],
        " ", "S", "strikes", "\n")


class HostPort(wiring.Component):
    """What the host says and is told (docs/ktane.md):

    - ``rx``: ``E`` and four digits set the edgework of the next modules (the serial
      number's last digit, a parallel port 0/1, lit, unlit indicators); ``E`` and
      anything else leaves it to be drawn at random; ``L1`` shuffles the labels of the
      next modules, ``L0`` keeps reading order. Other bytes are ignored.
    - ``tx``: after ``say`` (a strobe), the line ``E<digit><port><lit><unlit>
      L<labels> S<strikes>``, each label the one place 0..8 shows, read from the
      registers as it goes; a line is never cut, and one more follows when ``say``
      came during it, so the last line sent is the module as it is.
    """

    rx: In(stream.Signature(unsigned(8)))
    tx: Out(stream.Signature(unsigned(8)))
    host: Out(EDGE)
    host_set: Out(1)
    shuffle: Out(1)
    edge: In(EDGE)
    strikes: In(4)
    say: In(1)
    at: Out(range(9))
    label: In(range(9))

    def elaborate(self, platform):
        m = Module()
        m.d.comb += self.rx.ready.eq(1)

        # What the host says: one byte at a time.
        byte = self.rx.payload
        digit = (byte >= ord("0")) & (byte <= ord("9"))
        value = (byte - ord("0"))[:4]
        field = Signal(range(4))
        with m.FSM():
            with m.State("IDLE"):
                with m.If(self.rx.valid & (byte == ord("E"))):
                    m.d.sync += [self.host_set.eq(0), field.eq(0)]
                    m.next = "E"
                with m.If(self.rx.valid & (byte == ord("L"))):
                    m.next = "L"
            with m.State("E"):
                with m.If(self.rx.valid):
                    m.next = "IDLE"
                    with m.If(digit):
                        with m.Switch(field):
                            with m.Case(0):
                                m.d.sync += self.host.digit.eq(value)
                            with m.Case(1):
                                m.d.sync += self.host.port.eq(value != 0)
                            with m.Case(2):
                                m.d.sync += self.host.lit.eq(value)
                            with m.Case(3):
                                m.d.sync += self.host.unlit.eq(value)
                        m.d.sync += field.eq(field + 1)
                        with m.If(field == 3):
                            m.d.sync += self.host_set.eq(1)
                        with m.Else():
                            m.next = "E"
            with m.State("L"):
                with m.If(self.rx.valid):
                    m.next = "IDLE"
                    with m.If((byte == ord("0")) | (byte == ord("1"))):
                        m.d.sync += self.shuffle.eq(byte[0])

        # What the host is told.
        char = Signal(range(len(LINE)))
        dirty = Signal()
        with m.If(self.tx.valid & self.tx.ready):
            m.d.sync += char.eq(char + 1)
            with m.If(char == len(LINE) - 1):
                m.d.sync += [self.tx.valid.eq(0), char.eq(0)]
        with m.Elif(~self.tx.valid & dirty):
            m.d.sync += [self.tx.valid.eq(1), dirty.eq(0)]
        with m.If(self.say):
            m.d.sync += dirty.eq(1)
        fields = {"digit": self.edge.digit, "port": self.edge.port, "lit": self.edge.lit,
                  "unlit": self.edge.unlit, "strikes": self.strikes}
        with m.Switch(char):
            for n, entry in enumerate(LINE):
                with m.Case(n):
                    if isinstance(entry, tuple):
                        m.d.comb += [self.at.eq(entry[1]),
                                     self.tx.payload.eq(ord("1") + self.label)]
                    elif entry in fields:
                        m.d.comb += self.tx.payload.eq(ord("0") + fields[entry])
                    else:
                        m.d.comb += self.tx.payload.eq(ord(entry))
        return m
