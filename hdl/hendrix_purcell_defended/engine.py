"""The defended engine: Hendrix and Purcell's looks with six exception positions before
the order (rules: hdl/hendrix_purcell_defended/cartridge.py's text)."""

from amaranth.hdl import Const, Mux

from ..hendrix_purcell.engine import Looks


__all__ = ["EXCEPTIONS", "Defended"]

# Each exception: its board in rows (X machine, O person, . empty) and its cell 1..9.
EXCEPTIONS = (("O.. .XO ...", 2), ("..O .X. O..", 2), ("..O .X. .O.", 4),
              ("... .O. ...", 3), ("... .XO O..", 2), ("... .XO .O.", 3))
STONE = {".": 0b00, "X": 0b01, "O": 0b10}       # a place's bits: red, green


def board(rows):
    """The 18-bit board of `rows` (place k in bits 2k, red, and 2k + 1, green)."""
    return sum(STONE[mark] << 2 * k for k, mark in enumerate(rows.replace(" ", "")))


class Defended(Looks):
    def exception(self):
        board_bits = self.board.as_value()
        excepted, place = Const(0), Const(0, range(9))
        for rows, cell in EXCEPTIONS:
            here = board_bits == board(rows)
            excepted, place = excepted | here, Mux(here, cell - 1, place)
        return excepted, place
