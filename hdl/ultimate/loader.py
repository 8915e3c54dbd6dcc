"""The position the host loads into Ultimate Tic-Tac-Toe's cartridge: ``P``, 81 of
``X O .`` and the last move (two digits or ``--``), taken or refused
(docs/ultimate.md, "The byte stream")."""

from amaranth.hdl import Array, Const, Module, Mux, Signal, signed
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

__all__ = ["Loader"]


class Loader(wiring.Component):
    """The states LOAD, CHECK and TAKE, from ``begin`` (a ``P`` came) on; ``abort``
    leaves them (``start``).

    - LOAD (``taking``): each byte with ``valid``. Each of the first 81 puts its
      cell's stone on the engine's board (``stone``, on small board ``at_b``, cell
      ``at_k``) at once, and the loader keeps what the checks need: X's less O's,
      whether a character no position has came, the last move's two characters.
    - CHECK: the last move's cell (``number``, looked at by the line writer: ``x_at``,
      ``o_at``) and the small boards, looked at a clock ahead of TAKE: the look at a
      cell is deep.
    - TAKE (``done``, a clock): ``refused``, for another character, a count of X's and
      O's no game gives (X moves first), a small board with a line of each, a last move
      past 80 or not on the last mover's stone. Else the last move and the player to
      move are ``put_b``, ``put_k``, ``put_has_last`` and ``put_x_turn``.

    Members
    -------
    begin : In(1)
        A ``P`` came: LOAD, from the first cell.
    abort : In(1)
        Leave the states.
    valid : In(1)
        ``byte`` is the host's next byte.
    byte : In(8)
        The host's byte.
    x_at, o_at : In(1)
        The cell ``number`` holds an X, an O.
    x_line, o_line : In(9)
        Each small board holds a line of X's, of O's.
    taking : Out(1)
        Combinational. In LOAD.
    loading : Out(1)
        Combinational. In LOAD or CHECK: the line writer's look at a cell is the
        loader's.
    stone, stone_x : Out(1)
        Combinational. The byte taken is an X or an O; an X.
    at_b, at_k : Out(4)
        Combinational. The byte's cell while it is one of the 81, else 0.
    number : Out(7)
        The last move's number, from its two characters.
    done : Out(1)
        Combinational. In TAKE.
    refused : Out(1)
        Combinational, in TAKE. The position is refused.
    put_b, put_k : Out(4)
        Combinational. The last move: small board, cell.
    put_has_last : Out(1)
        Combinational. The last move is two digits (not ``--``).
    put_x_turn : Out(1)
        Combinational. X is to move: as many X's as O's.
    """

    begin: In(1)
    abort: In(1)
    valid: In(1)
    byte: In(8)
    x_at: In(1)
    o_at: In(1)
    x_line: In(9)
    o_line: In(9)
    taking: Out(1)
    loading: Out(1)
    stone: Out(1)
    stone_x: Out(1)
    at_b: Out(4)
    at_k: Out(4)
    number: Out(7)
    done: Out(1)
    refused: Out(1)
    put_b: Out(4)
    put_k: Out(4)
    put_has_last: Out(1)
    put_x_turn: Out(1)

    def elaborate(self, platform):
        m = Module()
        loaded = Signal(range(84))          # bytes taken after the P
        bad = Signal()                      # a character no position has
        surplus = Signal(signed(8))         # X's less O's
        tens, units = Signal(8), Signal(8)  # the last move's characters
        load_b, load_k = Signal(4), Signal(4)   # the cell the next byte is for
        stone = Signal()                    # the last mover's stone is on the last move
        each = Signal()                     # a small board holds a line of each
        byte = self.byte

        def abort():
            with m.If(self.abort):
                m.next = "IDLE"

        with m.FSM():
            with m.State("IDLE"):
                with m.If(self.begin):
                    m.d.sync += [loaded.eq(0), bad.eq(0), surplus.eq(0), load_b.eq(0),
                                 load_k.eq(0)]
                    m.next = "LOAD"
                abort()
            with m.State("LOAD"):
                m.d.comb += [self.taking.eq(1), self.loading.eq(1)]
                with m.If(self.valid):
                    is_x, is_o = byte == ord("X"), byte == ord("O")
                    m.d.sync += loaded.eq(loaded + 1)
                    with m.If(loaded < 81):
                        m.d.comb += [self.stone.eq(is_x | is_o), self.stone_x.eq(is_x),
                                     self.at_b.eq(load_b), self.at_k.eq(load_k)]
                        m.d.sync += [surplus.eq(surplus + is_x - is_o),
                                     bad.eq(bad | ~(is_x | is_o | (byte == ord(".")))),
                                     load_k.eq(Mux(load_k == 8, 0, load_k + 1)),
                                     load_b.eq(load_b + (load_k == 8))]
                    with m.Elif(loaded == 81):
                        m.d.sync += tens.eq(byte)
                    with m.Else():
                        m.d.sync += [units.eq(byte),
                                     self.number.eq((tens - ord("0"))[:4] * 10
                                                    + (byte - ord("0"))[:4])]
                        m.next = "CHECK"
                abort()
            with m.State("CHECK"):
                m.d.comb += self.loading.eq(1)
                m.d.sync += [stone.eq(Mux(surplus == 0, self.o_at, self.x_at)),
                             each.eq((self.x_line & self.o_line).any())]
                m.next = "TAKE"
                abort()
            with m.State("TAKE"):
                m.d.comb += self.done.eq(1)
                m.next = "IDLE"

        none = (tens == ord("-")) & (units == ord("-"))
        digits = ((tens >= ord("0")) & (tens <= ord("8"))
                  & (units >= ord("0")) & (units <= ord("9")))
        x_moves = surplus == 0              # so O moved last
        ninths = Array(Const(v // 9, 4) for v in range(128))[self.number]
        m.d.comb += [
            self.refused.eq(bad | ~(none | digits & (self.number <= 80) & stone)
                            | ~(x_moves | (surplus == 1)) | each),
            self.put_b.eq(ninths), self.put_k.eq(self.number - ninths * 9),
            self.put_has_last.eq(digits), self.put_x_turn.eq(x_moves),
        ]
        return m
