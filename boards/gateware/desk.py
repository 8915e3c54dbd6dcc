"""The desk: the chip with its front panel, switches and host link, as a person uses it."""

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.cdc import FFSynchronizer
from amaranth.lib.wiring import In, Out

from hdl.eth.chip import Chip

from .debounce import Debouncer
from .link import HostLink
from .panel import FrontPanel


__all__ = ["Desk"]

NO_KEY = 0b1_1111_1111
CYCLES_MAX = 0xFFFF


def occupied(stones):
    """The places of an 18-bit board (the chip's ``led`` order) that hold a stone."""
    return Cat(stones[2 * k] | stones[2 * k + 1] for k in range(9))


class Desk(wiring.Component):
    """Everything on the board but the pins: the 1990 chip, unchanged, and what a person
    or a host needs to play it.

    - The display shows the board the chip last latched with ``copyboard`` (§4), not its
      search; while the reset button is held it shows the position being entered.
    - A key, from the panel or the host, reaches the chip as one clock of ``keyboardN``,
      once the chip prompts; a held or bouncing key is one press.
    - Holding the reset button keeps the chip in reset; keys pressed meanwhile toggle
      stones of the position to enter (the chip's if the piN switch is on, else the
      user's). Releasing it replays the position to the chip one key per clock, as §4's
      test mode needs, and the game begins (docs/boards.md).
    - ``cycles``: the clocks the chip's last move took, from the clock that placed the
      user's stone until it waits again (the think time of docs/decisions.md).

    Parameters
    ----------
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
    reset_button, userbegins_button, piN_button : In(1)
        Buttons, 1 = pressed. The reset button is held to enter a position; the others
        toggle their switch at each press.
    prompt, fin, win : Out(1)
        The chip's pins, for LEDs.
    userbegins, piN : Out(1)
        The switches' positions, for LEDs.
    setup : Out(1)
        The reset button is held: keys enter a position.
    rx : In(1)
        Serial data from the host.
    tx : Out(1)
        Serial data to the host.
    """

    row: Out(3)
    red: Out(3)
    green: Out(3)
    sense: In(3)
    reset_button: In(1)
    userbegins_button: In(1)
    piN_button: In(1)
    prompt: Out(1)
    fin: Out(1)
    win: Out(1)
    userbegins: Out(1, init=1)
    piN: Out(1)
    setup: Out(1)
    rx: In(1, init=1)
    tx: Out(1, init=1)

    def __init__(self, *, bit_cycles, slot_cycles, stable):
        self._bit_cycles = bit_cycles
        self._slot_cycles = slot_cycles
        self._stable = stable
        super().__init__()
        self.chip = Chip()

    def elaborate(self, platform):
        m = Module()
        m.submodules.chip = chip = self.chip
        m.submodules.panel = panel = FrontPanel(slot_cycles=self._slot_cycles)
        m.submodules.keys = keys = Debouncer(9, stable=self._stable)
        m.submodules.buttons = buttons = Debouncer(3, stable=self._stable)
        m.submodules.link = link = HostLink(bit_cycles=self._bit_cycles)

        # The front panel and the buttons, debounced once per panel frame.
        button_pins = Cat(self.reset_button, self.userbegins_button, self.piN_button)
        button_raw = Signal(3)
        m.submodules.button_sync = FFSynchronizer(button_pins, button_raw)
        m.d.comb += [
            self.row.eq(panel.row), self.red.eq(panel.red), self.green.eq(panel.green),
            panel.sense.eq(self.sense),
            keys.raw.eq(panel.keys), keys.sample.eq(panel.frame),
            buttons.raw.eq(button_raw), buttons.sample.eq(panel.frame),
        ]
        reset_pressed, userbegins_pressed, piN_pressed = buttons.pressed
        reset_released = buttons.released[0]

        # One key event per clock at most: the host's, else a panel key pressed alone
        # (a chord is no key, as on the chip's own keyboard).
        event = Signal()
        event_key = Signal(4)
        panel_alone = (keys.pressed != 0) & ((keys.pressed & (keys.pressed - 1)) == 0)
        with m.If(link.press):
            m.d.comb += [event.eq(1), event_key.eq(link.key)]
        with m.Elif(panel_alone):
            m.d.comb += event.eq(1)
            for k in range(9):
                with m.If(keys.pressed[k]):
                    m.d.comb += event_key.eq(k)

        # The switches: toggled by their buttons, set by the host.
        with m.If(link.set_userbegins):
            m.d.sync += self.userbegins.eq(link.switch)
        with m.Elif(userbegins_pressed):
            m.d.sync += self.userbegins.eq(~self.userbegins)
        with m.If(link.set_piN):
            m.d.sync += self.piN.eq(link.switch)
        with m.Elif(piN_pressed):
            m.d.sync += self.piN.eq(~self.piN)

        preset = Signal(18)         # the position to enter at the next reset
        left = Signal(9)            # its places not yet given to the chip
        colour = Signal()           # the stone just given is the chip's: piN at its edge
        pending = Signal()          # a key waits for the chip's prompt
        pending_key = Signal(4)
        shown = Signal(18)          # the board as last latched by copyboard
        keyboardN = Signal(9, init=NO_KEY)

        # The lowest place of `left`, for replaying a position one key per clock.
        def first_of(places):
            first = Signal(4, init=15)
            for k in reversed(range(9)):
                with m.If(places[k]):
                    m.d.comb += first.eq(k)
            return first

        m.d.comb += [
            chip.keyboardN.eq(keyboardN),
            chip.userbegins.eq(self.userbegins),
            chip.scan.eq(0),
            chip.scanin.eq(0),
            self.prompt.eq(chip.prompt),
            self.fin.eq(chip.fin),
            self.win.eq(chip.win),
        ]

        def begin_again():
            # From any state, last so that it wins: the reset button, or the host.
            with m.If(reset_pressed):
                m.d.sync += preset.eq(0)
                m.next = "HOLD"
            with m.Elif(link.new_game):
                m.d.sync += preset.eq(link.position)
                m.next = "BURST_RESET"

        # Power-up begins with BURST_RESET: the chip's reset and an empty board.
        with m.FSM(init="BURST_RESET") as fsm:
            with m.State("HOLD"):
                m.d.comb += [chip.resetN.eq(0), self.setup.eq(1)]
                with m.If(event):
                    place = preset.word_select(event_key, 2)
                    with m.If(place != 0):
                        m.d.sync += place.eq(0)
                    with m.Else():
                        m.d.sync += place.eq(Cat(self.piN, ~self.piN))
                with m.If(reset_released):
                    m.next = "BURST_RESET"
                begin_again()

            with m.State("BURST_RESET"):
                # The reset edge takes the first key into the keyboard register.
                start = occupied(preset)
                first = first_of(start)
                m.d.comb += [chip.resetN.eq(0), chip.piN.eq(0)]
                m.d.sync += [left.eq(start), pending.eq(0)]
                with m.If(start != 0):
                    m.d.comb += keyboardN.eq(NO_KEY & ~(1 << first))
                    m.d.sync += [left.eq(start & ~(1 << first)),
                                 colour.eq(preset.word_select(first, 2)[0])]
                m.next = "BURST"
                begin_again()

            with m.State("BURST"):
                # Each edge places the key before and registers the next, so no clock in
                # between is without a key: such a clock would begin the game.
                first = first_of(left)
                m.d.comb += [chip.resetN.eq(1), chip.piN.eq(colour)]
                with m.If(left != 0):
                    m.d.comb += keyboardN.eq(NO_KEY & ~(1 << first))
                    m.d.sync += [left.eq(left & ~(1 << first)),
                                 colour.eq(preset.word_select(first, 2)[0])]
                with m.Else():
                    m.next = "RUN"
                begin_again()

            with m.State("RUN"):
                m.d.comb += [chip.resetN.eq(1), chip.piN.eq(self.piN)]
                with m.If(event):
                    m.d.sync += [pending.eq(1), pending_key.eq(event_key)]
                with m.Elif(pending & chip.prompt):
                    m.d.comb += keyboardN.eq(NO_KEY & ~(1 << pending_key))
                    m.d.sync += pending.eq(0)
                with m.Elif(pending & chip.fin):
                    m.d.sync += pending.eq(0)      # the game is over: the chip ignores keys
                begin_again()


        # Think time: busy clocks after a key has been given to the chip.
        given = (keyboardN != NO_KEY) & fsm.ongoing("RUN")
        busy = ~chip.prompt & ~chip.fin
        counting = Signal()
        count = Signal(16)
        quiet = Signal(2)           # clocks until the chip has shown whether it took the key
        cycles = Signal(16)
        with m.If(given):
            m.d.sync += [counting.eq(1), count.eq(0), quiet.eq(3)]
        with m.Elif(quiet != 0):
            m.d.sync += quiet.eq(quiet - 1)
        with m.If(counting & busy & (count != CYCLES_MAX)):
            m.d.sync += count.eq(count + 1)
        with m.If(counting & (quiet == 0) & ~busy):
            m.d.sync += counting.eq(0)
            with m.If(count != 0):
                m.d.sync += cycles.eq(count)
        with m.If(~fsm.ongoing("RUN")):
            m.d.sync += counting.eq(0)

        with m.If(chip.copyboard & ~fsm.ongoing("HOLD")):
            m.d.sync += shown.eq(chip.led)
        display = Signal(18)
        m.d.comb += display.eq(shown)
        with m.If(fsm.ongoing("HOLD")):
            m.d.comb += display.eq(preset)

        m.d.comb += [
            panel.stones.eq(display),
            link.rx.eq(self.rx), self.tx.eq(link.tx),
            link.board.eq(display),
            link.prompt.eq(chip.prompt), link.fin.eq(chip.fin), link.win.eq(chip.win),
            link.userbegins.eq(self.userbegins), link.piN.eq(self.piN),
            link.cycles.eq(cycles),
            link.ready.eq(fsm.ongoing("RUN") & ~pending & ~counting & (quiet == 0)
                          & (chip.prompt | chip.fin)),
        ]
        return m
