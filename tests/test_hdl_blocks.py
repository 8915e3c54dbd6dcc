"""Block-level tests of the Amaranth chip (hdl/), against brute-force definitions.

These tests use no golden model: each block is checked against a direct Python statement
of what the report (§3, appendix C) and docs/decisions.md say it does.
"""

import itertools
import pathlib
import random
import re

import pytest
from amaranth.back import rtlil
from amaranth.hdl import Module, Shape, Value as HDLValue
from amaranth.lib import wiring
from bench import elaborated, hold, pulse, simulate, until

from firmware_ref.cartridge import board_bits
from hdl.eth import scan
from hdl.eth.board import LINES, Board, FindFree, Full, Wins
from hdl.eth.chip import Chip
from hdl.eth.controller import Choose, Controller, State
from hdl.eth.keyboard import Keyboard
from hdl.eth.move import Move
from hdl.eth.stack import Stack
from hdl.eth.value import Value


ROOT = pathlib.Path(__file__).resolve().parent.parent

EMPTY, CHIP, USER, BOTH = 0, 1, 2, 3  # a place's two bits: bit 2k chip, bit 2k+1 user


# -- shared helpers ---------------------------------------------------------------------



def ref_nextfree(places, i, usei):
    li = i if usei else -1
    free = [k for k in range(9) if k > li and places[k] == EMPTY]
    return free[0] if free else None


def ref_lasti(places, i):
    return not any(places[k] == EMPTY for k in range(i + 1, 9))


def ref_wins(places, p):
    bit = 1 << p
    return any(all(places[k] & bit for k in line) for line in LINES)


def ref_full(places):
    return all(code != EMPTY for code in places)


def keys_low(*keys):
    """keyboardN with the given keys pressed (active low)."""
    return 0x1ff & ~sum(1 << key for key in keys)


# -- board: findfree, lasti, wins, full ------------------------------------------------

def occupancy_boards(rng):
    """For each of the 512 empty/occupied patterns, boards that realise it three ways."""
    for pattern in range(512):
        occupied = [pattern >> k & 1 for k in range(9)]
        yield [CHIP if o else EMPTY for o in occupied]
        yield [USER if o else EMPTY for o in occupied]
        yield [rng.choice((CHIP, USER, BOTH)) if o else EMPTY for o in occupied]


def test_findfree_every_occupancy_and_i():
    # findfree only sees empty or not, so the 512 patterns (each with chip, user and mixed
    # stones, 11 included) and every i cover the cell; a random sample of raw codes too.
    rng = random.Random(2)
    boards = list(occupancy_boards(rng))
    boards += [[rng.randrange(4) for _ in range(9)] for _ in range(300)]
    dut = FindFree()

    async def testbench(ctx):
        checked = 0
        for places in boards:
            ctx.set(dut.board, board_bits(places))
            for i, usei in [(i, 1) for i in range(9)] + [(rng.randrange(9), 0)]:
                ctx.set(dut.i, i)
                ctx.set(dut.usei, usei)
                expected = ref_nextfree(places, i, usei)
                if expected is not None:  # don't-care when nothing is free
                    assert ctx.get(dut.nextfree) == expected, (places, i, usei)
                # lasti always looks after i, whatever usei says (appendix C.1).
                assert ctx.get(dut.lasti) == ref_lasti(places, i), (places, i, usei)
                checked += 1
        assert checked == len(boards) * 10

    simulate(dut, testbench)


def test_wins_full_every_valid_board():
    rng = random.Random(3)
    boards = [list(places) for places in itertools.product((EMPTY, CHIP, USER), repeat=9)]
    boards += [[rng.randrange(4) for _ in range(9)] for _ in range(500)]
    win, full = Wins(), Full()

    async def testbench(ctx):
        for places in boards:
            code = board_bits(places)
            ctx.set(win.board, code)
            ctx.set(full.board, code)
            assert ctx.get(full.full) == ref_full(places), places
            for p in (0, 1):
                ctx.set(win.p, p)
                assert ctx.get(win.wins) == ref_wins(places, p), (places, p)

    top = Module()
    top.submodules.win = win
    top.submodules.full = full
    simulate(top, testbench)


def test_board_toggle_addressing_and_reset():
    dut = Board()

    async def testbench(ctx):
        await pulse(ctx, dut, reset=1)
        assert ctx.get(dut.board) == 0 and ctx.get(dut.p) == 0

        # p = 0: choose i toggles the chip's bit 2*index.
        ctx.set(dut.choose, Choose.i)
        ctx.set(dut.index, 4)
        ctx.set(dut.toggleN, 0)
        await ctx.tick()
        assert ctx.get(dut.board) == 1 << 8
        # Toggling again removes it (the "undo" of returned).
        await ctx.tick()
        assert ctx.get(dut.board) == 0
        # flipp inverts p; now the same choose sets the user's bit 2*index+1.
        ctx.set(dut.toggleN, 1)
        await pulse(ctx, dut, flipp=1)
        assert ctx.get(dut.p) == 1
        ctx.set(dut.toggleN, 0)
        ctx.set(dut.index, 7)
        await ctx.tick()
        assert ctx.get(dut.board) == 1 << 15
        # A key placement takes its low bit from keylow, not from p.
        for choose, low in [(Choose.key, 0), (Choose.random, 1), (Choose.m, 1)]:
            ctx.set(dut.choose, choose)
            ctx.set(dut.keylow, 0)
            ctx.set(dut.index, 2)
            before = ctx.get(dut.board)
            await ctx.tick()
            assert ctx.get(dut.board) == before ^ (1 << (4 + low)), choose
            await ctx.tick()  # undo
        # toggleN high toggles nothing; indices 9..15 address no bit.
        before = ctx.get(dut.board)
        ctx.set(dut.toggleN, 1)
        await ctx.tick()
        assert ctx.get(dut.board) == before
        ctx.set(dut.toggleN, 0)
        ctx.set(dut.choose, Choose.i)
        for index in range(9, 16):
            ctx.set(dut.index, index)
            await ctx.tick()
            assert ctx.get(dut.board) == before, index
        # Reset wins over a toggle and a flip in the same cycle.
        await hold(ctx, dut, flipp=1, reset=1)
        assert ctx.get(dut.board) == 0 and ctx.get(dut.p) == 0

    simulate(dut, testbench)


def test_board_validkey():
    dut = Board()
    places = [CHIP, EMPTY, USER, EMPTY, BOTH, EMPTY, EMPTY, USER, CHIP]

    async def testbench(ctx):
        ctx.set(dut.toggleN, 1)
        ctx.set(dut.scan, 1)  # load the board through the block's own scan segment
        bits = [board_bits(places) >> b & 1 for b in range(18)] + [0]  # board, then p
        for bit in bits:
            await hold(ctx, dut, scanin=bit)
        ctx.set(dut.scan, 0)
        assert ctx.get(dut.board) == board_bits(places)
        for key in range(16):
            ctx.set(dut.key, key)
            assert ctx.get(dut.validkey) == (key < 9 and places[key] == EMPTY), key

    simulate(dut, testbench)


# -- move ------------------------------------------------------------------------------

def test_move_registers_and_choose_mux():
    dut = Move(random_init=5)

    async def testbench(ctx):
        async def tick():
            # The counter counts on every edge, whatever the controls say (§3.2).
            before = ctx.get(dut.random)
            await ctx.tick()
            assert ctx.get(dut.random) == (before + 1) % 8

        assert ctx.get(dut.random) == 5  # its power-up value
        ctx.set(dut.choose, Choose.random)
        for expected in [5, 6, 7, 0, 1]:
            assert ctx.get(dut.random) == expected
            assert ctx.get(dut.index) == expected  # zero-extended
            await tick()
        # Power-up: i = m = 0.
        assert ctx.get(dut.i) == 0 and ctx.get(dut.m) == 0
        # nexti loads nextfree.
        ctx.set(dut.nextfree, 6)
        ctx.set(dut.nexti, 1)
        await tick()
        ctx.set(dut.nexti, 0)
        assert ctx.get(dut.i) == 6
        # assignmove copies the old i while nexti loads the new one (returned case 5).
        ctx.set(dut.nextfree, 8)
        ctx.set(dut.nexti, 1)
        ctx.set(dut.assignmove, 1)
        await tick()
        ctx.set(dut.nexti, 0)
        ctx.set(dut.assignmove, 0)
        assert ctx.get(dut.i) == 8 and ctx.get(dut.m) == 6
        # pop loads i from the stack.
        ctx.set(dut.stacki, 3)
        ctx.set(dut.pop, 1)
        await tick()
        ctx.set(dut.pop, 0)
        assert ctx.get(dut.i) == 3 and ctx.get(dut.m) == 6
        # No control: i and m hold.
        await tick()
        assert ctx.get(dut.i) == 3 and ctx.get(dut.m) == 6
        # The mux.
        ctx.set(dut.key, 7)
        for choose, expected in [(Choose.i, 3), (Choose.m, 6), (Choose.key, 7)]:
            ctx.set(dut.choose, choose)
            assert ctx.get(dut.index) == expected, choose

    simulate(dut, testbench)


def test_move_random_init_default():
    assert elaborated(Move()).random.init == 0
    assert elaborated(Chip()).move.random.init == 0


# -- value -----------------------------------------------------------------------------

def ref_value(r, bestr, a, controls, stacka=0, stackbestr=0):
    """Appendix C.2 on (r, bestr, a); pop wins over remember for bestr (returned case 4)."""
    new_r, new_bestr, new_a = r, bestr, a
    if "negr" in controls:
        new_r = -r
    if "sno" in controls:
        new_r = -1
    if "clearr" in controls:
        new_r = 0
    if "retbest" in controls:
        new_r = -bestr
    if "remember" in controls:
        new_bestr = 0
    if "init" in controls:
        new_bestr = -1
    if "call" in controls:
        new_a, new_bestr = -bestr, -1
    if "pop" in controls:
        new_a, new_bestr = stacka, stackbestr
    if "reset" in controls:
        new_a = 1
    return new_r, new_bestr, new_a


# The combinations the controller issues (appendix C.2 and the nine returned cases), and
# reset.
VALUE_CONTROLS = [
    (), ("init",), ("retbest",), ("remember",), ("negr",), ("sno",), ("clearr",),
    ("call",), ("pop",), ("sno", "pop"), ("clearr", "pop"), ("negr", "pop"),
    ("remember", "negr", "pop"), ("retbest", "pop"), ("reset",), ("call", "reset"),
    ("pop", "reset"),
]


def test_value_controls_and_comparisons():
    dut = Value()
    registers = list(itertools.product((-1, 0, 1), (-1, 0), (0, 1)))

    async def testbench(ctx):
        assert ctx.get(dut.a) == 1  # power-up equals reset
        for r, bestr, a in registers:
            ctx.set(dut.r, r)
            ctx.set(dut.bestr, bestr)
            ctx.set(dut.a, a)
            assert ctx.get(dut.rgea) == (r >= a), (r, a)
            assert ctx.get(dut.rgbestr) == (r > bestr), (r, bestr)
        for controls in VALUE_CONTROLS:
            for (r, bestr, a), (stacka, stackbestr) in itertools.product(
                    registers, [(0, -1), (1, 0)]):
                ctx.set(dut.r, r)
                ctx.set(dut.bestr, bestr)
                ctx.set(dut.a, a)
                ctx.set(dut.stacka, stacka)
                ctx.set(dut.stackbestr, stackbestr)
                for control in ("init", "retbest", "remember", "negr", "sno", "clearr",
                                "call", "pop", "reset"):
                    ctx.set(getattr(dut, control), control in controls)
                await ctx.tick()
                expected = ref_value(r, bestr, a, controls, stacka, stackbestr)
                got = ctx.get(dut.r), ctx.get(dut.bestr), ctx.get(dut.a)
                assert got == expected, (controls, (r, bestr, a), (stacka, stackbestr))

    simulate(dut, testbench)


# -- stack -----------------------------------------------------------------------------

def test_stack_push_pop_sequences():
    dut = Stack()
    rng = random.Random(4)

    async def testbench(ctx):
        await pulse(ctx, dut, reset=1)
        model = []
        for step in range(400):
            assert ctx.get(dut.sp) == len(model)
            assert ctx.get(dut.ground) == (not model)
            if model:
                top = ctx.get(dut.top)
                assert (top.i, top.a, top.bestr) == model[-1], step
            # The search nests at most 7 calls (2 to 8 stones on the board), so the
            # random walk stays within sp = 0..7.
            action = rng.choice(["call", "pop", "idle"] if 0 < len(model) < 7
                                else ["call", "idle"] if not model else ["pop", "idle"])
            entry = rng.randrange(16), rng.randrange(2), rng.choice((-1, 0))
            ctx.set(dut.push, {"i": entry[0], "a": entry[1], "bestr": entry[2]})
            ctx.set(dut.call, action == "call")
            ctx.set(dut.pop, action == "pop")
            await ctx.tick()
            if action == "call":
                model.append(entry)
            elif action == "pop":
                model.pop()
        # All eight entries are flip-flops that a push reaches; sp has 3 bits, so an
        # eighth push (never made in play) wraps it to 0.
        ctx.set(dut.pop, 0)
        while len(model) < 8:
            entry = len(model) + 8, len(model) & 1, -(len(model) >> 1 & 1)
            ctx.set(dut.push, {"i": entry[0], "a": entry[1], "bestr": entry[2]})
            ctx.set(dut.call, 1)
            await ctx.tick()
            model.append(entry)
        ctx.set(dut.call, 0)
        assert ctx.get(dut.sp) == 0 and ctx.get(dut.ground) == 1
        assert [scan.unpack_entry(ctx.get(HDLValue.cast(dut.stackregs[k])))
                for k in range(8)] == model
        # Reset sets sp = 0 and keeps the register file.
        await pulse(ctx, dut, call=1)
        assert ctx.get(dut.sp) == 1
        kept = [ctx.get(HDLValue.cast(dut.stackregs[k])) for k in range(8)]
        await pulse(ctx, dut, reset=1)
        assert ctx.get(dut.sp) == 0 and ctx.get(dut.ground) == 1
        assert [ctx.get(HDLValue.cast(dut.stackregs[k])) for k in range(8)] == kept

    simulate(dut, testbench)


def test_stack_entry_layout_matches_scan_helper():
    dut = Stack()

    async def testbench(ctx):
        ctx.set(dut.push, {"i": 9, "a": 1, "bestr": -1})
        ctx.set(dut.call, 1)
        await ctx.tick()
        packed = ctx.get(HDLValue.cast(dut.stackregs[0]))
        assert packed == scan.pack_entry(9, 1, -1)
        assert scan.unpack_entry(packed) == (9, 1, -1)

    simulate(dut, testbench)


# -- keyboard --------------------------------------------------------------------------

def test_keyboard_encoder_every_pattern():
    dut = Keyboard()

    async def testbench(ctx):
        assert ctx.get(dut.keyboard) == 0x1ff  # power-up: no key
        for keyboardN in range(512):
            ctx.set(dut.keyboardN, keyboardN)
            pressed = [k for k in range(9) if not keyboardN >> k & 1]
            await ctx.tick()
            # Exactly one key counts; none or a chord is no key.
            assert ctx.get(dut.keypressed) == (len(pressed) == 1), pressed
            if len(pressed) == 1:
                assert ctx.get(dut.key) == pressed[0]

    simulate(dut, testbench)


def test_keyboard_is_registered_and_never_reset():
    dut = Keyboard()
    # The block has no reset input at all: it samples at every edge, reset included.
    assert "reset" not in dut.signature.members

    async def testbench(ctx):
        ctx.set(dut.keyboardN, keys_low(6))
        assert ctx.get(dut.keypressed) == 0  # not before the edge
        await ctx.tick()
        assert ctx.get(dut.keypressed) == 1 and ctx.get(dut.key) == 6
        ctx.set(dut.keyboardN, keys_low())
        assert ctx.get(dut.keypressed) == 1  # still the sampled key
        await ctx.tick()
        assert ctx.get(dut.keypressed) == 0

    simulate(dut, testbench)


# -- controller ------------------------------------------------------------------------

CONTROLLER_INPUTS = ("keypressed", "validkey", "userbegins", "full", "wins", "ground",
                     "lasti", "rgea", "rgbestr")
CONTROLLER_OUTPUTS = ("init", "retbest", "remember", "negr", "sno", "clearr", "toggleN",
                      "assignmove", "call", "pop", "copyboard", "choose", "nexti", "usei",
                      "fin", "win", "prompt")
# Inputs each state looks at; the others are randomised to show they do not matter.
RELEVANT = {
    State.justreset: ("keypressed", "validkey", "userbegins"),
    State.waiting: ("keypressed", "validkey"),
    State.userjustmoved: ("full",),
    State.setboardi: (),
    State.rating: ("wins", "full", "ground"),
    State.returned: ("rgea", "rgbestr", "lasti", "ground"),
    State.doingbestmove: (),
    State.finished: ("wins",),
}
DEFAULT_OUTPUTS = {name: 0 for name in CONTROLLER_OUTPUTS} | {
    "toggleN": 1, "choose": Choose.random}


def toggling(choose, **outputs):
    return {"choose": choose, "toggleN": 0, **outputs}


def returned_case(rgea, rgbestr, lasti, ground):
    """The nine cases of returned, numbered as in the brief (seed §3.5 gives nine)."""
    if rgea:
        return 1 if ground else 2
    if rgbestr:
        return {(1, 1): 3, (1, 0): 4, (0, 1): 5, (0, 0): 6}[lasti, ground]
    if lasti:
        return 7 if ground else 8
    return 9


RETURNED = {
    1: ({"assignmove": 1}, State.doingbestmove),
    2: ({"negr": 1, "pop": 1}, State.returned),
    3: ({"remember": 1, "assignmove": 1}, State.doingbestmove),
    4: ({"remember": 1, "negr": 1, "pop": 1}, State.returned),
    5: ({"remember": 1, "assignmove": 1, "nexti": 1}, State.setboardi),
    6: ({"remember": 1, "nexti": 1}, State.setboardi),
    7: ({}, State.doingbestmove),
    8: ({"retbest": 1, "pop": 1}, State.returned),
    9: ({"nexti": 1}, State.setboardi),
}

CONTROLLER_CASES = [
    # (state, relevant inputs, outputs other than the defaults, next state)
    (State.justreset, dict(keypressed=1, validkey=1), toggling(Choose.key), State.justreset),
    (State.justreset, dict(keypressed=1, validkey=1, userbegins=1), toggling(Choose.key),
     State.justreset),
    (State.justreset, dict(userbegins=1), {}, State.waiting),
    (State.justreset, dict(keypressed=1, userbegins=1), {}, State.waiting),
    (State.justreset, dict(validkey=1, userbegins=1), {}, State.waiting),
    (State.justreset, dict(), toggling(Choose.random), State.waiting),
    (State.justreset, dict(keypressed=1), toggling(Choose.random), State.waiting),
    (State.waiting, dict(), dict(prompt=1, copyboard=1), State.waiting),
    (State.waiting, dict(keypressed=1), dict(prompt=1, copyboard=1), State.waiting),
    (State.waiting, dict(validkey=1), dict(prompt=1, copyboard=1), State.waiting),
    (State.waiting, dict(keypressed=1, validkey=1), toggling(Choose.key, prompt=1),
     State.userjustmoved),
    (State.userjustmoved, dict(full=1), dict(copyboard=1), State.finished),
    (State.userjustmoved, dict(), dict(copyboard=1, init=1, nexti=1), State.setboardi),
    (State.setboardi, dict(), toggling(Choose.i), State.rating),
    (State.rating, dict(wins=1, ground=1), {}, State.finished),
    (State.rating, dict(full=1, ground=1), {}, State.finished),
    (State.rating, dict(wins=1, full=1, ground=1), {}, State.finished),
    (State.rating, dict(wins=1), toggling(Choose.i, sno=1, pop=1), State.returned),
    (State.rating, dict(wins=1, full=1), toggling(Choose.i, sno=1, pop=1), State.returned),
    (State.rating, dict(full=1), toggling(Choose.i, clearr=1, pop=1), State.returned),
    (State.rating, dict(), dict(call=1, nexti=1), State.setboardi),
    (State.rating, dict(ground=1), dict(call=1, nexti=1), State.setboardi),
    *((State.returned, dict(rgea=rgea, rgbestr=rgbestr, lasti=lasti, ground=ground),
       toggling(Choose.i, usei=1,
                **RETURNED[returned_case(rgea, rgbestr, lasti, ground)][0]),
       RETURNED[returned_case(rgea, rgbestr, lasti, ground)][1])
      for rgea, rgbestr, lasti, ground in itertools.product((0, 1), repeat=4)),
    (State.doingbestmove, dict(), toggling(Choose.m), State.waiting),
    (State.finished, dict(), dict(copyboard=1, fin=1), State.finished),
    (State.finished, dict(wins=1), dict(copyboard=1, fin=1, win=1), State.finished),
]


def test_controller_cases_cover_every_state_and_returned_case():
    assert {case[0] for case in CONTROLLER_CASES} == set(State)
    assert {returned_case(*bits) for bits in itertools.product((0, 1), repeat=4)} == \
        set(range(1, 10))


@pytest.mark.parametrize("reset", [0, 1], ids=["run", "reset"])
def test_controller_transitions(reset):
    dut = Controller()
    rng = random.Random(5)

    async def testbench(ctx):
        assert ctx.get(dut.state) == State.justreset  # power-up equals reset
        for state, inputs, outputs, after in CONTROLLER_CASES:
            for trial in range(3):
                ctx.set(dut.state, state)
                ctx.set(dut.reset, reset)
                for name in CONTROLLER_INPUTS:
                    if name in RELEVANT[state]:
                        ctx.set(getattr(dut, name), inputs.get(name, 0))
                    else:
                        assert name not in inputs
                        ctx.set(getattr(dut, name), rng.randrange(2))
                # Mealy outputs for the cycle spent in the state (reset does not mask
                # them: it only forces the next state).
                expected = DEFAULT_OUTPUTS | outputs
                got = {name: ctx.get(getattr(dut, name)) for name in CONTROLLER_OUTPUTS}
                assert got == expected, (state, inputs)
                await ctx.tick()
                assert ctx.get(dut.state) == (State.justreset if reset else after), \
                    (state, inputs)

    simulate(dut, testbench)


def test_state_codes_are_the_papers():
    assert {state.name: state.value for state in State} == {
        "waiting": 0, "returned": 1, "rating": 2, "justreset": 3, "finished": 4,
        "userjustmoved": 5, "doingbestmove": 6, "setboardi": 7}
    assert {choose.name: choose.value for choose in Choose} == {
        "random": 0, "i": 1, "m": 2, "key": 3}


# -- the chip: pins, netlist, scan path ------------------------------------------------

CHIP_PINS = {
    "keyboardN": (wiring.In, 9), "userbegins": (wiring.In, 1), "piN": (wiring.In, 1),
    "resetN": (wiring.In, 1), "scan": (wiring.In, 1), "scanin": (wiring.In, 1),
    "led": (wiring.Out, 18), "copyboard": (wiring.Out, 1), "prompt": (wiring.Out, 1),
    "fin": (wiring.Out, 1), "win": (wiring.Out, 1), "i": (wiring.Out, 4),
    "sp": (wiring.Out, 3), "scanout": (wiring.Out, 1),
}


def test_chip_ports_are_the_papers_pins():
    members = elaborated(Chip()).signature.members
    assert set(members) == set(CHIP_PINS)
    for name, (flow, width) in CHIP_PINS.items():
        assert members[name].flow == flow, name
        assert Shape.cast(members[name].shape).width == width, name


def test_chip_rtlil_and_flip_flop_count():
    netlist = rtlil.convert(Chip())
    # Every flip-flop of the netlist is on the scan path: their widths add up to it.
    widths = [int(width) for width in re.findall(
        r"cell \$dff \S+\n\s+parameter \\WIDTH (\d+)", netlist)]
    assert sum(widths) == scan.SCAN_LENGTH == 97


def test_chip_scan_registers_follow_the_chain():
    chip = elaborated(Chip())
    registers = chip.scan_registers
    assert list(registers) == [register.name for register in scan.SCAN_CHAIN]
    for register in scan.SCAN_CHAIN:
        shape = HDLValue.cast(registers[register.name]).shape()
        assert shape.width == register.width, register.name
    assert [block for block in scan.blocks()] == [
        "board", "move", "value", "stack", "controller", "keyboard"]


def test_every_block_on_the_path_is_scanned():
    # The scan members and the segment come from one base, scan.Scanned.
    chip = Chip()
    for name in scan.blocks():
        block = getattr(chip, name)
        assert isinstance(block, scan.Scanned) and block.scan_block == name
        members = block.signature.members
        assert (members["scan"], members["scanin"], members["scanout"]) == (
            wiring.In(1), wiring.In(1), wiring.Out(1)), name
        assert list(block.scan_registers) == [r.name for r in scan.block_chain(name)]
    elaborated(chip)                    # and the chip they make elaborates


def random_scan_state(rng):
    values = {}
    for register in scan.SCAN_CHAIN:
        if register.signed:
            values[register.name] = rng.randrange(-(1 << register.width - 1),
                                                  1 << register.width - 1)
        else:
            values[register.name] = rng.randrange(1 << register.width)
    return values


async def shift(ctx, chip, bits):
    """Shift ``bits`` in (position order) while reading the old state out."""
    out = []
    ctx.set(chip.scan, 1)
    for bit in bits:
        out.append(ctx.get(chip.scanout))
        await hold(ctx, chip, scanin=bit)
    ctx.set(chip.scan, 0)
    return out


def read_registers(ctx, chip):
    return {name: ctx.get(HDLValue.cast(signal))
            for name, signal in chip.scan_registers.items()}


def test_scan_shift_in_and_out():
    chip = Chip()
    rng = random.Random(6)
    states = [random_scan_state(rng) for _ in range(3)]

    async def testbench(ctx):
        # Scan has priority over reset and normal operation: hold reset low and a key
        # pressed throughout.
        ctx.set(chip.resetN, 0)
        ctx.set(chip.keyboardN, keys_low(4))
        ctx.set(chip.userbegins, 1)
        power_up = read_registers(ctx, chip)
        previous = power_up
        for values in states:
            out = await shift(ctx, chip, scan.encode(values))
            assert scan.decode(out) == previous
            assert read_registers(ctx, chip) == values
            previous = values
        # Shift out once more; the last state comes out unchanged.
        assert scan.decode(await shift(ctx, chip, [0] * scan.SCAN_LENGTH)) == previous

    simulate(chip, testbench)


def test_scan_power_up_values():
    chip = Chip()

    async def testbench(ctx):
        values = scan.decode(await shift(ctx, chip, [0] * scan.SCAN_LENGTH))
        assert values["state"] == State.justreset.value
        assert values["board"] == 0 and values["p"] == 0 and values["a"] == 1
        assert values["sp"] == 0 and values["m"] == 0 and values["random"] == 0
        assert values["keyboard"] == 0x1ff

    simulate(chip, testbench)


def test_scan_then_run_resumes_from_the_loaded_state():
    # Load "setboardi, i = 4, chip to move" on a board with a user stone at 0, then run
    # one normal edge: the chip's stone appears at place 4 and the state is rating.
    chip = Chip()
    values = {register.name: 0 for register in scan.SCAN_CHAIN}
    values |= {"board": board_bits([USER] + [EMPTY] * 8), "i": 4, "a": 1,
               "state": State.setboardi, "keyboard": 0x1ff}

    async def testbench(ctx):
        ctx.set(chip.resetN, 1)
        ctx.set(chip.keyboardN, keys_low())
        await shift(ctx, chip, scan.encode(values))
        assert ctx.get(chip.controller.state) == State.setboardi
        await ctx.tick()
        assert ctx.get(chip.led) == board_bits([USER, EMPTY, EMPTY, EMPTY, CHIP] +
                                               [EMPTY] * 4)
        assert ctx.get(chip.controller.state) == State.rating

    simulate(chip, testbench)


def test_scan_helper_round_trip_and_errors():
    rng = random.Random(7)
    for _ in range(20):
        values = random_scan_state(rng)
        bits = scan.encode(values)
        assert len(bits) == scan.SCAN_LENGTH and set(bits) <= {0, 1}
        assert scan.decode(bits) == values
    values = random_scan_state(rng)
    values["state"] = State.finished  # enum members are accepted
    assert scan.decode(scan.encode(values))["state"] == 4
    # Position 0 is the least significant bit of the first register (board).
    assert scan.encode(values | {"board": 1})[:2] == [1, 0]
    assert scan.position("p") == 18 and scan.position("keyboard") == 88
    with pytest.raises(ValueError):
        scan.encode(values | {"r": 2})
    with pytest.raises(KeyError):
        scan.encode({"board": 0})


def test_scan_docs_match_the_chain():
    text = (ROOT / "docs" / "scan.md").read_text()
    assert scan.markdown_table() in text
    assert f"**{scan.SCAN_LENGTH} flip-flops**" in text


# -- the chip, end to end (from the paper's text and the decisions, no model) ----------

@pytest.mark.parametrize("random_init", [0, 6])
def test_chip_opens_at_the_random_counter(random_init):
    chip = Chip(random_init=random_init)

    async def testbench(ctx):
        # The reset edge; the counter has counted once.
        await hold(ctx, chip, keyboardN=keys_low(), userbegins=0, resetN=0)
        ctx.set(chip.resetN, 1)
        place = (random_init + 1) % 8
        assert ctx.get(chip.controller.state) == State.justreset
        assert ctx.get(chip.controller.choose) == Choose.random
        await ctx.tick()
        assert ctx.get(chip.controller.state) == State.waiting
        assert ctx.get(chip.led) == 1 << (2 * place)  # the chip's bit of that place
        assert ctx.get(chip.prompt) == 1 and ctx.get(chip.copyboard) == 1

    simulate(chip, testbench)


def test_chip_blocks_an_open_row():
    # Set up user 0 and chip 4; the user then plays 1 and threatens 2. The chip has no
    # win of its own, so it must take 2 or lose: a fact of the game, not a model's answer.
    chip = Chip()

    async def testbench(ctx):
        ctx.set(chip.userbegins, 1)
        ctx.set(chip.resetN, 0)
        ctx.set(chip.piN, 0)
        setup = [(0, 0), (4, 1)]  # (key, piN)
        ctx.set(chip.keyboardN, keys_low(setup[0][0]))
        await ctx.tick()
        ctx.set(chip.resetN, 1)
        for (key, _), (_, pin) in zip(setup[1:] + [(None, 0)], setup):
            ctx.set(chip.keyboardN, keys_low() if key is None else keys_low(key))
            ctx.set(chip.piN, pin)
            await ctx.tick()
        ctx.set(chip.piN, 0)
        ctx.set(chip.keyboardN, keys_low())
        await ctx.tick()
        assert ctx.get(chip.controller.state) == State.waiting
        assert ctx.get(chip.led) == board_bits([USER, EMPTY, EMPTY, EMPTY, CHIP] +
                                               [EMPTY] * 4)
        await pulse(ctx, chip, keyboardN=keys_low(1))
        await until(ctx, lambda: ctx.get(chip.controller.state) in (
            State.waiting, State.finished), within=2000, what="the chip's answer to key 1")
        assert ctx.get(chip.controller.state) == State.waiting
        assert ctx.get(chip.led) == board_bits([USER, USER, CHIP, EMPTY, CHIP] +
                                               [EMPTY] * 4)
        assert ctx.get(chip.sp) == 0 and ctx.get(chip.copyboard) == 1

    simulate(chip, testbench)
