"""The ETH chip as a cartridge: the paper's pins, unchanged, behind a thin adapter."""

from amaranth.hdl import Cat, Module, Mux, Signal

from ..cartridge import SETUP, Cartridge
from .chip import Chip


__all__ = ["EthCartridge", "CARTRIDGE"]

NO_KEY = 0b1_1111_1111      # keyboardN is active low
# After start falls: a clock to note the stones, the last reset edge with the first, then
# one a clock; the burst reads piN from the position, so it must end within SETUP.
assert 2 + 9 <= SETUP


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
        userbegins, piN = self.switches[0], self.switches[1]
        occupied = Cat(place.red | place.green for place in self.position)
        reds = Cat(place.red for place in self.position)
        # The lowest place still to give, one hot: a place with none below it (an or
        # of a few bits per place, two LUTs deep; a carry chain would be slower).
        first = Cat(left[k] & ~left[:k].any() if k else left[0] for k in range(9))

        # The states, one hot (each a flip-flop, so each decision is a LUT or two):
        # held at a new game (the position is read on the last clock); the first key on
        # the last reset edge; the others one per clock, piN high for the chip's stones;
        # then the game. Power-up begins a game from the empty board.
        load = Signal(init=1)
        opening = Signal()          # the last reset clock, with the first key
        burst = Signal()
        run = Signal()
        rest = left == 0
        with m.If(self.start):
            m.d.sync += [load.eq(1), opening.eq(0), burst.eq(0), run.eq(0)]
        with m.Else():
            m.d.sync += [load.eq(0), opening.eq(load), burst.eq(opening | burst & ~rest),
                         run.eq(run | burst & rest)]
        with m.If(load):
            m.d.sync += left.eq(occupied)
        with m.Elif(opening | burst):
            # Each edge places the key before and registers the next, so no clock in
            # between is without a key: such a clock would begin the game.
            m.d.sync += [left.eq(left & ~first), given.eq(first)]

        m.d.comb += [
            chip.keyboardN.eq(Mux(run, NO_KEY & ~self.key, Mux(load, NO_KEY, ~first))),
            chip.resetN.eq(~load & ~opening),
            # piN in the burst: the stone given last clock is the chip's (from a
            # register: no path from the priority logic through the wide or).
            chip.piN.eq(Mux(run, piN, burst & (given & reds).any())),
            chip.userbegins.eq(userbegins),
            chip.scan.eq(0),
            chip.scanin.eq(0),
            self.lamps.eq(Cat(chip.prompt, chip.fin, chip.win)),
            self.rx.ready.eq(1),        # the chip has nothing to say to the host
            # The chip drops prompt two clocks after a key, within the contract's SETTLE
            # clocks, during which the console does not look at ready.
            self.ready.eq(run & chip.prompt),
            self.busy.eq(run & ~chip.prompt & ~chip.fin),
            self.over.eq(run & chip.fin),
        ]

        # The board: the position while the console holds the chip at a new game, then
        # what the chip last latched with copyboard (never its search).
        with m.If(self.start):
            m.d.sync += self.board.eq(self.position)
        with m.Elif(chip.copyboard):
            m.d.sync += self.board.as_value().eq(chip.led)
        return m


CARTRIDGE = EthCartridge
