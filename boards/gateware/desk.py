"""The desk: the console around its cartridges, as a person or a host uses it."""

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.cdc import FFSynchronizer
from amaranth.lib.wiring import In, Out

from hdl.cartridge import LAMPS, SETUP, SWITCHES

from .debounce import Debouncer
from .key_event import KeyEvent
from .link import HostLink
from .new_game import NewGame
from .panel import FrontPanel
from .pending_key import PendingKey
from .position import Position
from .slots import Slots
from .switches import Switches
from .think_time import CYCLES_MAX, ThinkTime


__all__ = ["Desk", "BUTTONS", "CYCLES_MAX"]

BUTTONS = 2                 # switch buttons on a board: they toggle switches 0 and 1


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
        m.submodules.slots = slots = Slots(len(self.cartridges))
        for slot, cartridge in zip(slots.slots, self.cartridges):
            wiring.connect(m, slot, cartridge)
        playing = slots.playing
        m.submodules.panel = panel = FrontPanel(slot_cycles=self.slot_cycles)
        # The keys and the buttons, debounced together once per panel frame: one counter.
        m.submodules.contacts = contacts = Debouncer(9 + 1 + BUTTONS, stable=self.stable)
        m.submodules.link = link = HostLink(
            bit_cycles=self.bit_cycles, codes="".join(c.code for c in self.cartridges))
        m.submodules.key_event = key_event = KeyEvent()
        m.submodules.pending_key = pending_key = PendingKey()
        m.submodules.position = position = Position()
        m.submodules.switches = switches = Switches(
            buttons=BUTTONS, init=self.cartridges[0].switch_init)
        m.submodules.think_time = think_time = ThinkTime()
        m.submodules.new_game = new_game = NewGame(len(self.cartridges))

        # The host's commands go to every block that acts on some: each takes its own.
        wiring.connect(m, link.commands, new_game.commands, key_event.commands,
                       position.commands, switches.commands)
        # The bytes between the host and the cartridge playing.
        wiring.connect(m, link.text_in, playing.rx)
        wiring.connect(m, playing.tx, link.text_out)
        m.d.comb += [link.rx.eq(self.rx), self.tx.eq(link.tx)]

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
        # New games: the reset button, the host's R and G frames.
        m.d.comb += [
            new_game.pressed.eq(contacts.pressed[9]),
            new_game.released.eq(contacts.released[9]),
            new_game.fired.eq(key_event.events.valid),
            self.setup.eq(new_game.setup), link.hold.eq(new_game.hold),
            slots.game.eq(new_game.game), playing.start.eq(new_game.start),
        ]
        # A key event, from the host or the panel, waits for the cartridge.
        wiring.connect(m, key_event.events, pending_key.events)
        m.d.comb += [
            key_event.closing.eq(contacts.sampled[:9] & ~contacts.held[:9]),
            key_event.agree.eq(contacts.agree),
            pending_key.setup.eq(new_game.setup), pending_key.start.eq(new_game.start),
            pending_key.ready.eq(playing.ready), pending_key.over.eq(playing.over),
            playing.key.eq(pending_key.key),
        ]
        # What every cartridge reads, and the think time of the one playing.
        m.d.comb += [
            position.clear.eq(new_game.clear),
            position.step.eq(new_game.stepping), position.key.eq(pending_key.pending),
            playing.position.eq(position.position),
            switches.toggle.eq(contacts.pressed[10:]),
            self.switches.eq(switches.switches), playing.switches.eq(switches.switches),
            think_time.give.eq(pending_key.give), think_time.busy.eq(playing.busy),
            think_time.start.eq(new_game.start),
        ]
        # What the person sees, and the status line the host reads.
        status = link.status
        m.d.comb += [
            self.lamps.eq(playing.lamps), panel.stones.eq(playing.board),
            status.board.eq(playing.board), status.lamps.eq(playing.lamps),
            status.switches.eq(switches.switches), status.cycles.eq(think_time.cycles),
            status.game.eq(new_game.game),
        ]
        # Registered: the link looks at it only some clocks after its command.
        m.d.sync += link.ready.eq(~new_game.setup & ~new_game.start & ~pending_key.waiting
                                  & pending_key.settled & (playing.ready | playing.over))
        return m
