"""A game of turns: the person and a machine take turns on one 3x3 board, as a cartridge.

Every machine of the museum (and first free) is this cartridge around an engine that
chooses the machine's move; the cartridge keeps the board, takes the person's keys,
judges, lights the lamps and says the machine's moves to the host. The rules, clock by
clock (firmware_ref/turns.py is the golden model written from this text):

- While ``start`` is high the board takes ``position``. The clock after it falls the
  game opens: a position with a line or no empty place is over at once; else the
  person moves first if switch 0 is on or the machine cannot begin (``can_begin``),
  else the machine thinks.
- Waiting (``ready``): a key on an empty place puts the person's stone there; a key on
  a taken place is ignored.
- The clock after a stone, the game is judged: a line of that colour or a full board
  ends it (``over``); else the other side moves.
- Thinking (``busy``): the engine's ``think`` is high; on the clock its ``done`` is
  high the machine's stone goes on its ``move``, and the place is said to the host as
  a line in the game's coordinates: its column ``A``-``C``, its row ``1``-``3`` (place 0
  is ``A1``, place 5 ``C2``) and a newline; the latest move only, if the host is slow.
- ``busy`` is high while judging and thinking: the console's think time of a move is
  the engine's clocks plus two.
- Lamps: your move (``ready``), over, the machine won, and the person won, or for a
  machine with ``blunder_lamp`` "blunder": lit from a move that is one of its
  ``blunders`` (a board and the place played on it that throw away a draw or a win,
  which its golden model finds by perfect play) until the machine's next move or a new
  game.
"""

from amaranth.hdl import Cat, Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from .blunder_lamp import BlunderLamp
from .cartridge import BOARD, Cartridge
from .move_line import MoveLine


__all__ = ["LINES", "EngineSignature", "Engine", "lines", "completes", "Turns"]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))


class EngineSignature(wiring.Signature):
    """What a game of turns asks of its engine, from the engine's side.

    - ``board`` (in): the board, steady while ``think`` is high (red: the machine).
    - ``think`` (in): high on every clock of a move's thinking; the first clock it is
      high is the engine's first. While it is low the engine gets ready for the next.
    - ``done``, ``move`` (out): on a clock with ``think`` and ``done`` high, ``move``
      (a place, 0..8, empty on ``board``) is the machine's move; thinking ends there.
    """

    def __init__(self):
        super().__init__({
            "board": In(BOARD),
            "think": In(1),
            "done": Out(1),
            "move": Out(range(9)),
        })


class Engine(wiring.Component):
    """An engine of a game of turns: a component of `EngineSignature`. Subclasses write
    ``elaborate``, and ``__init__`` only where the engine takes arguments."""

    def __init__(self):
        super().__init__(EngineSignature())


def lines(stones):
    """One bit per line of `LINES`: all three of `stones` (9 bits) are set."""
    return Cat(Cat(stones[k] for k in three).all() for three in LINES)


def completes(stones, empty):
    """One bit per place: it is `empty` and a stone of `stones` there completes a line."""
    return Cat(empty[k] & Cat(Cat(stones[j] for j in three if j != k).all()
                              for three in LINES if k in three).any()
               for k in range(9))


class Turns(Cartridge):
    """The game of turns around the engine that ``engine()`` builds (a component of
    `EngineSignature`). Subclasses set the cartridge's names and ``engine``: the
    engine's class, or a method where it takes arguments; and
    ``can_begin = False`` for a machine that only answers, ``blunder_lamp = True`` for
    lamp 3 to be the blunder lamp.

    blunders : iterable of (int, int)
        The machine's moves that are blunders: the board moved from (18 bits, as
        ``board``) and the place.
    """

    lamp_names = ("your move", "over", "machine won", "you won")
    switch_names = ("you begin",)
    switch_init = 0b1
    can_begin = True
    blunder_lamp = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.blunder_lamp:
            cls.lamp_names = (*Turns.lamp_names[:3], "blunder")

    def __init__(self, blunders=()):
        super().__init__()
        self.blunders = sorted(blunders)

    engine = None               # each machine's own

    def elaborate(self, platform):
        m = Module()
        m.submodules.engine = engine = self.engine()
        m.submodules.blunder_lamp = blunder_lamp = BlunderLamp(self.blunders)
        m.submodules.move_line = move_line = MoveLine()
        board = Signal(BOARD)

        red = Cat(place.red for place in board)
        green = Cat(place.green for place in board)
        full = (red | green).all()
        red_line, green_line = lines(red).any(), lines(green).any()
        own = blunder_lamp.lit if self.blunder_lamp else green_line

        m.d.comb += [
            self.board.eq(board),
            engine.board.eq(board),
            self.lamps.eq(Cat(self.ready, self.over, red_line, own)),
            self.rx.ready.eq(1),            # it has nothing to hear
            blunder_lamp.board.eq(board), blunder_lamp.move.eq(engine.move),
            blunder_lamp.moved.eq(engine.think & engine.done),
            blunder_lamp.clear.eq(self.start),
            move_line.move.eq(engine.move), move_line.hush.eq(self.start),
        ]
        wiring.connect(m, move_line.tx, wiring.flipped(self.tx))

        def restart():
            # From any state, last so that it wins.
            with m.If(self.start):
                m.d.sync += board.eq(self.position)
                m.next = "OPEN"

        def judge(line, then):
            # The clock after a stone: a line of its colour or a full board ends the game.
            m.d.comb += self.busy.eq(1)
            with m.If(line | full):
                m.next = "OVER"
            with m.Else():
                m.next = then

        with m.FSM(init="OPEN"):
            with m.State("OPEN"):
                with m.If(red_line | green_line | full):
                    m.next = "OVER"
                with m.Elif(self.switches[0] | (not self.can_begin)):
                    m.next = "WAIT"
                with m.Else():
                    m.next = "THINK"
                restart()
            with m.State("WAIT"):
                m.d.comb += self.ready.eq(1)
                for k in range(9):
                    with m.If(self.key[k] & ~board[k].red & ~board[k].green):
                        m.d.sync += board[k].green.eq(1)
                        m.next = "JUDGE_PERSON"
                restart()
            with m.State("JUDGE_PERSON"):
                judge(green_line, then="THINK")
                restart()
            with m.State("THINK"):
                m.d.comb += [self.busy.eq(1), engine.think.eq(1)]
                with m.If(engine.done):
                    m.d.comb += move_line.say.eq(1)
                    m.d.sync += board[engine.move].red.eq(1)
                    m.next = "JUDGE_MACHINE"
                restart()
            with m.State("JUDGE_MACHINE"):
                judge(red_line, then="WAIT")
                restart()
            with m.State("OVER"):
                m.d.comb += self.over.eq(1)
                restart()
        return m
