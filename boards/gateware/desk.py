"""The desk: the console around its cartridges, as a person or a host uses it."""

from amaranth.hdl import Cat, Module, Mux, Signal
from amaranth.lib import wiring
from amaranth.lib.cdc import FFSynchronizer
from amaranth.lib.wiring import In, Out

from hdl.cartridge import BOARD, LAMPS, SETTLE, SETUP, SWITCHES, Signature

from .debounce import Debouncer
from .link import HostLink
from .panel import FrontPanel


__all__ = ["Desk", "BUTTONS", "CYCLES_MAX"]

BUTTONS = 2                 # switch buttons on a board: they toggle switches 0 and 1
CYCLES_MAX = 0xFFFF


class Desk(wiring.Component):
    """Everything on the board but the pins: one or more cartridges, unchanged, and what
    a person or a host needs to play them (docs/boards.md, docs/cartridge.md).

    - The display shows the cartridge's ``board``, which shows ``position`` while the
      cartridge is held at a new game: while the reset button is held, the position
      being entered.
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
    blink_cycles : int
        Clocks of one blink, given to each cartridge that ``blinks``
        (:func:`hdl.cartridge.blink_clocks` of the board's clock).

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

    def __init__(self, cartridges, *, bit_cycles, slot_cycles, stable, blink_cycles):
        if not 1 <= len(cartridges) <= 10:
            raise ValueError(f"a desk holds 1 to 10 cartridges, not {len(cartridges)}")
        # After start falls only an R frame changes the position: the link refuses its
        # letter until then, and its first place follows a byte (10 bits) later.
        if 10 * bit_cycles <= SETUP:
            raise ValueError(f"at {bit_cycles} clocks a bit the position would not hold "
                             f"for the cartridge's SETUP ({SETUP} clocks)")
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
        self.cartridges = [cartridge(blink=blink_cycles) if cartridge.blinks
                           else cartridge() for cartridge in cartridges]

    def elaborate(self, platform):
        m = Module()
        for n, cartridge in enumerate(self.cartridges):
            m.submodules[f"cartridge{n}"] = cartridge
        m.submodules.panel = panel = FrontPanel(slot_cycles=self.slot_cycles)
        # The keys and the buttons, debounced together once per panel frame: one counter.
        m.submodules.contacts = contacts = Debouncer(9 + 1 + BUTTONS, stable=self.stable)
        m.submodules.link = link = HostLink(
            bit_cycles=self.bit_cycles, codes="".join(c.code for c in self.cartridges))

        # The buttons pass a synchroniser; the debouncer samples them with the keys, at
        # the end of each panel frame, and keeps the sample (the panel keeps none).
        buttons = Signal(1 + BUTTONS)
        m.submodules.button_sync = FFSynchronizer(Cat(self.reset_button, self.buttons),
                                                  buttons)
        m.d.comb += [
            self.row.eq(panel.row), self.red.eq(panel.red), self.green.eq(panel.green),
            panel.sense.eq(self.sense),
            contacts.raw.eq(Cat(panel.keys, buttons)), contacts.sample.eq(panel.frame),
        ]
        reset_pressed, reset_released = contacts.pressed[9], contacts.released[9]
        buttons_pressed = contacts.pressed[10:]

        # The cartridge playing: what it shows, and what it is given. With one cartridge
        # `game` has no bits and this is wiring.
        game = Signal(range(len(self.cartridges)))
        playing = Signature().create(path=("playing",))
        position = Signal(BOARD)    # the one position: entered at the panel or by the host
        for n, cartridge in enumerate(self.cartridges):
            with m.If(game == n):
                m.d.comb += [
                    playing.ready.eq(cartridge.ready), playing.busy.eq(cartridge.busy),
                    playing.over.eq(cartridge.over),
                    playing.board.eq(cartridge.board), playing.lamps.eq(cartridge.lamps),
                    link.text_out.payload.eq(cartridge.tx.payload),
                    link.text_out.valid.eq(cartridge.tx.valid),
                    cartridge.tx.ready.eq(link.text_out.ready),
                    cartridge.rx.payload.eq(link.text_in.payload),
                    cartridge.rx.valid.eq(link.text_in.valid),
                    link.text_in.ready.eq(cartridge.rx.ready),
                    cartridge.key.eq(playing.key), cartridge.start.eq(playing.start),
                ]
            m.d.comb += [cartridge.position.eq(position),
                         cartridge.switches.eq(self.switches)]

        # A key event, one hot: the host's, else a panel key pressed alone (a chord is
        # none), on the clock the debouncer agrees. Alone: exactly one of the nine,
        # counted per row (some, two or more), then over the rows, each step registered:
        # the closing keys change only on the debouncer's strobes, a panel frame apart.
        closing = contacts.sampled[:9] & ~contacts.held[:9]
        some, many = Signal(3), Signal(3)       # a key of row r closes; two or more do
        alone = Signal()
        for r in range(3):
            row = closing[3 * r:3 * r + 3]
            m.d.sync += [some[r].eq(row.any()),
                         many[r].eq(row[0] & row[1] | row[0] & row[2] | row[1] & row[2])]
        one_row = Cat(some[r] & ~Cat(some[q] for q in range(3) if q != r).any()
                      for r in range(3)).any()
        m.d.sync += alone.eq(one_row & ~many.any())
        event = Mux(link.press, link.place_key, closing)
        any_event = link.press | contacts.agree & alone

        # The switches: toggled by their buttons, set by the host.
        with m.If(link.set_switch):
            m.d.sync += self.switches.bit_select(link.number, 1).eq(link.switch)
        for n in range(BUTTONS):
            with m.Elif(buttons_pressed[n]):
                m.d.sync += self.switches[n].eq(~self.switches[n])

        pending = Signal(9)         # the last key event, one hot
        fresh = Signal()            # it came a clock ago
        waiting = Signal()          # it waits for the cartridge
        start = Signal()            # registered: `position` is whole before it rises
        used = Signal()             # start was high a clock ago: position is still read
        give = Signal()             # the cartridge takes the pending key now
        # The SETTLE clocks after a key, as ones shifting out: quiet[0] is the last.
        quiet = Signal(SETTLE)
        settled = ~quiet[0]
        clear = Signal()            # the position becomes the empty board (registered)
        select = Signal()           # a cartridge was chosen a clock ago: it starts now
        stepping = Signal()         # a key event came while a position was entered
        m.d.sync += [used.eq(start), clear.eq(0), select.eq(link.select)]
        m.d.comb += [playing.start.eq(start), link.hold.eq(start | used),
                     playing.key.eq(Mux(give, pending, 0))]

        with m.FSM() as fsm:
            with m.State("RUN"):
                # A key SETTLE clocks after the last at the earliest: the cartridge
                # shows by then that it took that one.
                m.d.comb += give.eq(waiting & ~fresh & ~start & settled & playing.ready)
                # A chosen cartridge starts from the empty board, a clock after the
                # position is cleared (both registered, for short paths).
                m.d.sync += [clear.eq(link.clear | link.select),
                             start.eq(link.new_game | select)]
                with m.If(link.select):
                    m.d.sync += game.eq(link.key)
                with m.If(reset_pressed):
                    m.next = "HOLD"
            with m.State("HOLD"):
                m.d.comb += self.setup.eq(1)
                m.d.sync += start.eq(~reset_released)
                with m.If(reset_released):
                    m.next = "RUN"
        entering = fsm.ongoing("HOLD")
        m.d.sync += stepping.eq(any_event & entering)
        with m.If(reset_pressed):
            # From either state: a new position to enter, from the empty board.
            m.d.sync += [clear.eq(1), start.eq(1)]

        # A key waits until the cartridge takes it, or the game ends, or a new game.
        m.d.sync += fresh.eq(any_event)
        with m.If(any_event):
            m.d.sync += pending.eq(event)
        with m.If(fresh & ~entering):
            m.d.sync += waiting.eq(1)       # a clock after the event: short paths
        with m.Elif(give | playing.over | start | entering):
            m.d.sync += waiting.eq(0)

        # The position: the host's places shift in as an R frame arrives (nothing reads
        # them but a start, and the link refuses them while the position is in use); while
        # the reset button is held each key steps its place: empty, the person's, the
        # machine's, empty.
        for k in range(9):
            place = position[k]
            after = position[k + 1] if k < 8 else link.place
            with m.If(clear):
                m.d.sync += place.eq(0)
            with m.Elif(link.shift):
                m.d.sync += place.eq(after)
            with m.Elif(stepping & pending[k]):
                m.d.sync += [place.green.eq(~place.green & ~place.red),
                             place.red.eq(place.green)]

        # Think time: the busy clocks that follow a key the cartridge took. `count`
        # restarts at the first busy clock after a key, so a key it refused keeps the
        # last move's figure.
        armed = Signal()            # a key was given; its busy clocks are not yet counted
        counting = Signal()
        count = Signal(16)
        more = count + 1            # its carry out: count is CYCLES_MAX, where it stays
        assert CYCLES_MAX == (1 << len(count)) - 1
        with m.If(give):
            m.d.sync += [armed.eq(1), quiet.eq((1 << SETTLE) - 1)]
        with m.Else():
            m.d.sync += quiet.eq(quiet >> 1)
        with m.If(playing.busy):
            with m.If(armed):
                m.d.sync += [count.eq(1), armed.eq(0), counting.eq(1)]
            with m.Elif(counting & ~more[len(count)]):
                m.d.sync += count.eq(more)
        with m.Else():
            m.d.sync += counting.eq(0)
        with m.If(start):
            m.d.sync += armed.eq(0)

        m.d.comb += [
            self.lamps.eq(playing.lamps),
            panel.stones.eq(playing.board),
            link.rx.eq(self.rx), self.tx.eq(link.tx),
            link.board.eq(playing.board), link.lamps.eq(playing.lamps),
            link.switches.eq(self.switches), link.cycles.eq(count), link.game.eq(game),
        ]
        # Registered: the link looks at it only some clocks after its command's strobe.
        m.d.sync += link.ready.eq(fsm.ongoing("RUN") & ~start & ~waiting & settled
                                  & (playing.ready | playing.over))
        return m
