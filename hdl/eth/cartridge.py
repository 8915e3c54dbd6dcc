"""The ETH chip as a cartridge: the paper's pins, unchanged, behind a thin adapter."""

from amaranth.hdl import Cat, Module, Signal

from ..cartridge import Cartridge
from .chip import Chip


__all__ = ["EthCartridge", "CARTRIDGE"]

NO_KEY = 0b1_1111_1111      # keyboardN is active low


class EthCartridge(Cartridge):
    """The 1990 chip on the console.

    - ``start`` holds the chip in reset; when it falls, the position (which the console
      holds) is replayed to the chip one key per clock, as §4's test mode needs (the
      first key on the last reset edge, piN high for the chip's stones), and the game
      begins. Meanwhile ``board`` shows the position.
    - A key reaches ``keyboardN`` for one clock; ``ready`` is the chip's ``prompt`` (it
      falls two clocks after a key, within the contract's ``SETTLE``).
    - ``board`` is the board the chip last latched with ``copyboard``, not its search.
    - Lamps: prompt, fin, win. Switches: userbegins, piN.
    """

    code = "E"
    title = "the ETH chip (Geiser & Marzetta, 1990)"
    lamp_names = ("prompt", "fin", "win")
    switch_names = ("userbegins", "piN")
    switch_init = 0b01      # the user begins
    machine = "the chip"

    def __init__(self):
        super().__init__()
        self.chip = Chip()

    def elaborate(self, platform):
        m = Module()
        m.submodules.chip = chip = self.chip

        left = Signal(9)                        # places of the position not yet given
        given = Signal(9)                       # the place just given, one hot
        keyboardN = Signal(9, init=NO_KEY)
        userbegins, piN = self.switches[0], self.switches[1]
        occupied = Cat(place.red | place.green for place in self.position)
        reds = Cat(place.red for place in self.position)
        # The lowest place still to give, one hot: a place with none below it (an or
        # of a few bits per place, two LUTs deep; a carry chain would be slower).
        first = Cat(left[k] & ~left[:k].any() if k else left[0] for k in range(9))

        def give():
            # Each edge places the key before and registers the next, so no clock in
            # between is without a key: such a clock would begin the game.
            m.d.comb += keyboardN.eq(~first)
            m.d.sync += [left.eq(left & ~first), given.eq(first)]

        m.d.comb += [
            chip.keyboardN.eq(keyboardN),
            chip.userbegins.eq(userbegins),
            chip.scan.eq(0),
            chip.scanin.eq(0),
            self.lamps.eq(Cat(chip.prompt, chip.fin, chip.win)),
            self.rx.ready.eq(1),        # the chip has nothing to say to the host
        ]

        def restart():
            # From any state, last so that it wins.
            with m.If(self.start):
                m.next = "LOAD"

        # Power-up begins a game from the empty board.
        with m.FSM(init="LOAD") as fsm:
            with m.State("LOAD"):
                # The console holds the position until the clock after start falls.
                m.d.comb += [chip.resetN.eq(0), chip.piN.eq(0)]
                m.d.sync += left.eq(occupied)
                with m.If(~self.start):
                    m.next = "FIRST"
                restart()
            with m.State("FIRST"):
                # The last reset edge takes the first key into the keyboard register.
                m.d.comb += [chip.resetN.eq(0), chip.piN.eq(0)]
                give()
                m.next = "BURST"
                restart()
            with m.State("BURST"):
                # piN: the stone given last clock is the chip's (from a register: no
                # path from the priority logic through the wide or).
                m.d.comb += [chip.resetN.eq(1), chip.piN.eq((given & reds).any())]
                give()
                with m.If(left == 0):
                    m.next = "RUN"
                restart()
            with m.State("RUN"):
                m.d.comb += [chip.resetN.eq(1), chip.piN.eq(piN),
                             keyboardN.eq(NO_KEY & ~self.key)]

                restart()
        # In RUN, a clock late and a register: the paths to the console start at
        # flip-flops. The chip drops prompt two clocks after a key, within the
        # contract's SETTLE clocks, during which the console does not look at ready.
        running = Signal()
        m.d.sync += running.eq(fsm.ongoing("RUN") & ~self.start)
        m.d.comb += [
            self.ready.eq(running & chip.prompt),
            self.busy.eq(running & ~chip.prompt & ~chip.fin),
            self.over.eq(running & chip.fin),
        ]

        # The board: the position while the console holds the chip at a new game, then
        # what the chip last latched with copyboard (never its search).
        with m.If(self.start):
            m.d.sync += self.board.eq(self.position)
        with m.Elif(chip.copyboard):
            m.d.sync += self.board.as_value().eq(chip.led)
        return m


CARTRIDGE = EthCartridge
