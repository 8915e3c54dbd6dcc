"""The desk: the console around its cartridges, as a person or a host uses it."""

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.cdc import FFSynchronizer
from amaranth.lib.wiring import In, Out

from hdl.cartridge import BOARD, LAMPS, SETTLE, SWITCHES, Signature

from .debounce import Debouncer
from .link import HostLink
from .panel import FrontPanel


__all__ = ["Desk", "BUTTONS", "CYCLES_MAX"]

BUTTONS = 2                 # switch buttons on a board: they toggle switches 0 and 1
CYCLES_MAX = 0xFFFF


class Desk(wiring.Component):
    """Everything on the board but the pins: one or more cartridges, unchanged, and what
    a person or a host needs to play them (docs/boards.md, docs/cartridge.md).

    - The display shows the cartridge's ``board``; while the reset button is held it
      shows the position being entered.
    - A key, from the panel or the host, reaches the cartridge for one clock once it is
      ``ready``; a held or bouncing key is one press, a chord is none. A key waiting when
      the game ends is dropped.
    - Holding the reset button holds the cartridge at a new game (``start``); each key
      pressed meanwhile steps its place of the position to enter: empty, the person's,
      the machine's, empty. Releasing it begins the game from that position.
    - ``cycles``: the clocks the machine's last move took (its ``busy`` clocks).
    - Several cartridges: the host's ``G`` command chooses one and begins a game on it;
      power-up plays the first.

    Parameters
    ----------
    cartridges : list of classes
        The cartridges (subclasses of :class:`hdl.cartridge.Cartridge`).
    bit_cycles : int
        Clocks per bit on the serial link.
    slot_cycles : int
        Clocks each row of the front panel is active.
    stable : int
        Front-panel frames a key or button must agree before a change counts.

    Members
    -------
    row, red, green : Out(3)
        The front panel's row and column lines, 1 = active (see :class:`FrontPanel`).
    sense : In(3)
        The key matrix's return lines, 1 = closed.
    reset_button : In(1)
        1 = pressed; held to enter a position.
    buttons : In(BUTTONS)
        1 = pressed; each toggles its switch at each press.
    lamps : Out(LAMPS)
        The cartridge's lamps, for LEDs.
    switches : Out(SWITCHES)
        The switches' positions, for LEDs.
    setup : Out(1)
        The reset button is held: keys enter a position.
    rx : In(1)
        Serial data from the host.
    tx : Out(1)
        Serial data to the host.
    """

    def __init__(self, cartridges, *, bit_cycles, slot_cycles, stable):
        if not 1 <= len(cartridges) <= 10:
            raise ValueError(f"a desk holds 1 to 10 cartridges, not {len(cartridges)}")
        self.bit_cycles = bit_cycles
        self.slot_cycles = slot_cycles
        self.stable = stable
        super().__init__({
            "row": Out(3), "red": Out(3), "green": Out(3), "sense": In(3),
            "reset_button": In(1), "buttons": In(BUTTONS),
            "lamps": Out(LAMPS),
            # The switches power up as the first cartridge wants them.
            "switches": Out(SWITCHES, init=cartridges[0].switch_init),
            "setup": Out(1),
            "rx": In(1, init=1), "tx": Out(1, init=1),
        })
        self.cartridges = [cartridge() for cartridge in cartridges]

    def elaborate(self, platform):
        m = Module()
        for n, cartridge in enumerate(self.cartridges):
            m.submodules[f"cartridge{n}"] = cartridge
        m.submodules.panel = panel = FrontPanel(slot_cycles=self.slot_cycles)
        m.submodules.keys = keys = Debouncer(9, stable=self.stable)
        m.submodules.buttons = buttons = Debouncer(1 + BUTTONS, stable=self.stable)
        m.submodules.link = link = HostLink(bit_cycles=self.bit_cycles,
                                            games=len(self.cartridges))

        # The front panel and the buttons, debounced once per panel frame.
        button_raw = Signal(1 + BUTTONS)
        m.submodules.button_sync = FFSynchronizer(Cat(self.reset_button, self.buttons),
                                                  button_raw)
        m.d.comb += [
            self.row.eq(panel.row), self.red.eq(panel.red), self.green.eq(panel.green),
            panel.sense.eq(self.sense),
            keys.raw.eq(panel.keys), keys.sample.eq(panel.frame),
            buttons.raw.eq(button_raw), buttons.sample.eq(panel.frame),
        ]
        reset_pressed, reset_released = buttons.pressed[0], buttons.released[0]

        # The cartridge playing: what it shows, and what it is given.
        game = Signal(range(len(self.cartridges)))
        playing = Signature().create(path=("playing",))
        for n, cartridge in enumerate(self.cartridges):
            with m.If(game == n):
                m.d.comb += [
                    playing.ready.eq(cartridge.ready), playing.busy.eq(cartridge.busy),
                    playing.over.eq(cartridge.over),
                    playing.board.eq(cartridge.board), playing.lamps.eq(cartridge.lamps),
                    link.code.eq(ord(cartridge.code)),
                    link.text_out.payload.eq(cartridge.tx.payload),
                    link.text_out.valid.eq(cartridge.tx.valid),
                    cartridge.tx.ready.eq(link.text_out.ready),
                    cartridge.rx.payload.eq(link.text_in.payload),
                    cartridge.rx.valid.eq(link.text_in.valid),
                    link.text_in.ready.eq(cartridge.rx.ready),
                    cartridge.key.eq(playing.key), cartridge.start.eq(playing.start),
                ]
            m.d.comb += [cartridge.position.eq(playing.position),
                         cartridge.switches.eq(self.switches)]

        # One key event per clock at most: the host's, else a panel key pressed alone.
        # The panel's is registered (a clock later than its debouncer says): one key
        # alone is one hot, so its number is an OR of its bits, no priority chain.
        event = Signal()
        event_key = Signal(4)
        panel_event = Signal()
        panel_key = Signal(4)
        pressed = keys.pressed
        ones = [Signal(name=f"ones{k}") for k in range(10)]   # exactly one of keys < k
        anys = [Signal(name=f"anys{k}") for k in range(10)]   # any of keys < k
        for k in range(9):
            m.d.comb += [anys[k + 1].eq(anys[k] | pressed[k]),
                         ones[k + 1].eq(Mux(pressed[k], ~anys[k], ones[k]))]
        m.d.sync += [panel_event.eq(ones[9]),
                     panel_key.eq(Cat(*(Cat(*(pressed[k] for k in range(9) if k >> j & 1)).any()
                                        for j in range(4))))]
        with m.If(link.press):
            m.d.comb += [event.eq(1), event_key.eq(link.key)]
        with m.Elif(panel_event):
            m.d.comb += [event.eq(1), event_key.eq(panel_key)]

        # The switches: toggled by their buttons, set by the host.
        with m.If(link.set_switch):
            m.d.sync += self.switches.bit_select(link.number, 1).eq(link.switch)
        for n in range(BUTTONS):
            with m.Elif(buttons.pressed[1 + n]):
                m.d.sync += self.switches[n].eq(~self.switches[n])

        preset = Signal(BOARD)      # the position to enter at the next start
        pending = Signal()          # a key waits for the cartridge
        pending_key = Signal(4)
        m.d.comb += playing.position.eq(preset)

        def begin_again():
            # From any state, last so that it wins.
            with m.If(reset_pressed):
                m.d.sync += [preset.eq(0), pending.eq(0)]
                m.next = "HOLD"

        with m.FSM() as fsm:
            with m.State("RUN"):
                with m.If(event):
                    m.d.sync += [pending.eq(1), pending_key.eq(event_key)]
                with m.Elif(pending & playing.ready):
                    m.d.comb += playing.key.eq(1 << pending_key)
                    m.d.sync += pending.eq(0)
                with m.Elif(pending & playing.over):
                    m.d.sync += pending.eq(0)      # the game is over: no key is taken
                with m.If(link.new_game):
                    m.d.comb += [playing.start.eq(1), playing.position.eq(link.position)]
                    m.d.sync += pending.eq(0)
                with m.If(link.select):
                    m.d.sync += [game.eq(link.number), pending.eq(0)]
                    m.next = "SELECT"
                begin_again()
            with m.State("SELECT"):
                # The new cartridge begins a game from the empty board.
                m.d.comb += [playing.start.eq(1), playing.position.eq(0)]
                m.next = "RUN"
                begin_again()
            with m.State("HOLD"):
                m.d.comb += [playing.start.eq(1), self.setup.eq(1)]
                with m.If(event):
                    # Empty, the person's, the machine's, empty.
                    place = preset[event_key]
                    m.d.sync += [place.green.eq(~place.green & ~place.red),
                                 place.red.eq(place.green)]
                with m.If(reset_released):
                    m.next = "RUN"
                begin_again()

        # Think time: busy clocks after a key has been given.
        given = playing.key != 0
        counting = Signal()
        count = Signal(16)
        quiet = Signal(range(SETTLE + 1))   # clocks until the cartridge has shown its answer
        cycles = Signal(16)
        with m.If(given):
            m.d.sync += [counting.eq(1), count.eq(0), quiet.eq(SETTLE)]
        with m.Elif(quiet != 0):
            m.d.sync += quiet.eq(quiet - 1)
        with m.If(counting & playing.busy & (count != CYCLES_MAX)):
            m.d.sync += count.eq(count + 1)
        with m.If(counting & (quiet == 0) & ~playing.busy):
            m.d.sync += counting.eq(0)
            with m.If(count != 0):
                m.d.sync += cycles.eq(count)
        with m.If(~fsm.ongoing("RUN")):
            m.d.sync += counting.eq(0)

        # The board shown, registered (a clock late, which no one sees): the paths from
        # the cartridge end here, not in the panel or the link's answer.
        display = Signal(BOARD)
        shown_lamps = Signal(LAMPS)
        m.d.sync += [display.eq(playing.board), shown_lamps.eq(playing.lamps)]
        with m.If(fsm.ongoing("HOLD")):
            m.d.sync += display.eq(preset)

        m.d.comb += [
            self.lamps.eq(playing.lamps),
            panel.stones.eq(display),
            link.rx.eq(self.rx), self.tx.eq(link.tx),
            link.board.eq(display), link.lamps.eq(shown_lamps),
            link.switches.eq(self.switches), link.cycles.eq(cycles),
            link.ready.eq(fsm.ongoing("RUN") & ~pending & ~counting & (quiet == 0)
                          & (playing.ready | playing.over)),
        ]
        return m
