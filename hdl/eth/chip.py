"""The whole chip (the report's figure 2, §4): five blocks, the keyboard register and the pins."""

from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from . import scan as scan_path
from .board import Board
from .controller import Controller
from .keyboard import Keyboard
from .move import Move
from .stack import Stack
from .value import Value


__all__ = ["Chip"]


class Chip(wiring.Component):
    """The tic-tac-toe chip, pin for pin (appendix D; power pins left out).

    The clock ``cp`` is the ``sync`` domain. ``resetN`` is a synchronous reset sampled at
    the rising edge (docs/decisions.md). ``Chip()`` is the 1990 chip; ``random_init`` only
    changes the random counter's power-up value.

    Members
    -------
    keyboardN : In(9)
        Keys, active low. Held at the end of a reset, they enter a position (§4).
    userbegins : In(1)
        The user makes the first move.
    piN : In(1)
        Normally low; high makes keys set the chip's stones (§4).
    resetN : In(1)
        Active-low synchronous reset.
    scan : In(1)
        Test mode: every flip-flop shifts one place along the scan path per clock.
    scanin : In(1)
        Scan path input.
    led : Out(18)
        The board register: place k lights ``led[2k]`` for the chip, ``led[2k+1]`` for
        the user.
    copyboard : Out(1)
        ``led`` shows a real position, not the chip's search.
    prompt : Out(1)
        The chip waits for the user's move.
    fin : Out(1)
        The game is finished.
    win : Out(1)
        The game is finished and the chip has won.
    i : Out(4)
        The i register.
    sp : Out(3)
        The stack pointer.
    scanout : Out(1)
        Scan path output.

    Attributes
    ----------
    board, move, value, stack, controller, keyboard
        The blocks, for testbenches to observe (``chip.controller.state``, ...).
    """

    keyboardN: In(9)
    userbegins: In(1)
    piN: In(1)
    resetN: In(1)
    scan: In(1)
    scanin: In(1)

    led: Out(18)
    copyboard: Out(1)
    prompt: Out(1)
    fin: Out(1)
    win: Out(1)
    i: Out(4)
    sp: Out(3)
    scanout: Out(1)

    def __init__(self, *, random_init=0):
        super().__init__()
        self.board = Board()
        self.move = Move(random_init=random_init)
        self.value = Value()
        self.stack = Stack()
        self.controller = Controller()
        self.keyboard = Keyboard()

    @property
    def scan_registers(self):
        """Every flip-flop of the chip by scan name (see :data:`hdl.eth.scan.SCAN_CHAIN`)."""
        registers = {}
        for name in scan_path.blocks():
            registers.update(getattr(self, name).scan_registers)
        return registers

    def elaborate(self, platform):
        # Kept whole: figure 2's wires between the paper's blocks, one group per block fed;
        # a part of its own here would be a block the paper does not draw.
        m = Module()

        m.submodules.board = board = self.board
        m.submodules.move = move = self.move
        m.submodules.value = value = self.value
        m.submodules.stack = stack = self.stack
        m.submodules.controller = controller = self.controller
        m.submodules.keyboard = keyboard = self.keyboard

        # No two blocks share a signature (each port is one wire of figure 2), so the
        # wires are plain assignments, grouped by the block they feed.
        reset = ~self.resetN

        m.d.comb += keyboard.keyboardN.eq(self.keyboardN)

        m.d.comb += [
            controller.keypressed.eq(keyboard.keypressed),
            controller.validkey.eq(board.validkey),
            controller.userbegins.eq(self.userbegins),
            controller.full.eq(board.full),
            controller.wins.eq(board.wins),
            controller.ground.eq(stack.ground),
            controller.lasti.eq(board.lasti),
            controller.rgea.eq(value.rgea),
            controller.rgbestr.eq(value.rgbestr),
            controller.reset.eq(reset),
        ]

        m.d.comb += [
            board.toggleN.eq(controller.toggleN),
            board.index.eq(move.index),
            board.choose.eq(controller.choose),
            # §4: piN low sets the user's stone (bit 2k+1), high the chip's (bit 2k).
            board.keylow.eq(~self.piN),
            # Appendix C.2: call and pop both invert p.
            board.flipp.eq(controller.call | controller.pop),
            board.reset.eq(reset),
            board.i.eq(move.i),
            board.usei.eq(controller.usei),
            board.key.eq(keyboard.key),
        ]

        m.d.comb += [
            move.nextfree.eq(board.nextfree),
            move.nexti.eq(controller.nexti),
            move.assignmove.eq(controller.assignmove),
            move.pop.eq(controller.pop),
            move.stacki.eq(stack.top.i),
            move.choose.eq(controller.choose),
            move.key.eq(keyboard.key),
        ]

        m.d.comb += [
            value.init.eq(controller.init),
            value.retbest.eq(controller.retbest),
            value.remember.eq(controller.remember),
            value.negr.eq(controller.negr),
            value.sno.eq(controller.sno),
            value.clearr.eq(controller.clearr),
            value.call.eq(controller.call),
            value.pop.eq(controller.pop),
            value.stacka.eq(stack.top.a),
            value.stackbestr.eq(stack.top.bestr),
            value.reset.eq(reset),
        ]

        m.d.comb += [
            stack.call.eq(controller.call),
            stack.pop.eq(controller.pop),
            stack.push.i.eq(move.i),
            stack.push.a.eq(value.a),
            stack.push.bestr.eq(value.bestr),
            stack.reset.eq(reset),
        ]

        m.d.comb += [
            self.led.eq(board.led),
            self.copyboard.eq(controller.copyboard),
            self.prompt.eq(controller.prompt),
            self.fin.eq(controller.fin),
            self.win.eq(controller.win),
            self.i.eq(move.i),
            self.sp.eq(stack.sp),
        ]

        # The scan path runs scanin -> last block -> ... -> first block -> scanout, in the
        # block order of hdl.eth.scan.SCAN_CHAIN (position 0 drives scanout).
        chain = [getattr(self, name) for name in scan_path.blocks()]
        m.d.comb += self.scanout.eq(chain[0].scanout)
        for downstream, upstream in zip(chain, chain[1:]):
            m.d.comb += downstream.scanin.eq(upstream.scanout)
        m.d.comb += chain[-1].scanin.eq(self.scanin)
        for block in chain:
            m.d.comb += block.scan.eq(self.scan)

        return m
