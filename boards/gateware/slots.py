"""The desk's cartridge slots: the one cartridge playing, among those the desk holds."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from hdl.cartridge import Signature


__all__ = ["Slots"]


class Slots(wiring.Component):
    """The console's side of every cartridge, switched to the one playing: ``playing``
    is a cartridge to the desk, and ``slots[n]`` the console to cartridge n.

    The cartridge playing shows its board, lamps and state, takes the keys and
    ``start``, and talks with the host; the others get no key, no ``start`` and no byte,
    and their lines wait. Every cartridge sees the position and the switches, so a
    chosen one begins from what the desk holds. With one cartridge ``game`` has no bits
    and this is wiring.

    Parameters
    ----------
    count : int
        The cartridges the desk holds.

    Members
    -------
    game : In(range(count))
        The cartridge playing.
    playing : Out(hdl.cartridge.Signature())
        The cartridge playing, as the desk sees it.
    slots : In(hdl.cartridge.Signature()) array of count
        Each cartridge, as the console's side of its signature.
    """

    def __init__(self, count):
        super().__init__({
            "game": In(range(count)),
            "playing": Out(Signature()),
            "slots": In(Signature()).array(count),
        })

    def elaborate(self, platform):
        m = Module()
        playing = self.playing
        for n, slot in enumerate(self.slots):
            with m.If(self.game == n):
                m.d.comb += [
                    playing.ready.eq(slot.ready), playing.busy.eq(slot.busy),
                    playing.over.eq(slot.over),
                    playing.board.eq(slot.board), playing.lamps.eq(slot.lamps),
                    playing.tx.payload.eq(slot.tx.payload),
                    playing.tx.valid.eq(slot.tx.valid),
                    slot.tx.ready.eq(playing.tx.ready),
                    slot.rx.payload.eq(playing.rx.payload),
                    slot.rx.valid.eq(playing.rx.valid),
                    playing.rx.ready.eq(slot.rx.ready),
                    slot.key.eq(playing.key), slot.start.eq(playing.start),
                ]
            m.d.comb += [slot.position.eq(playing.position),
                         slot.switches.eq(playing.switches)]
        return m
