"""The host link alone (boards/gateware/link.py), on Amaranth's simulator.

The desk's tests (test_boards.py, test_box.py) play whole games over the link; here the
frame parser and the answers are pinned at the block's own ports: every command of
docs/boards.md is acted on as it says and answered with the status line, every malformed
frame is answered ``error`` and acted on not at all, and the status line is exactly the
documented text for the board, lamps, switches, cycles and cartridge letter given.

``talk()`` runs one link through a list of frames: a model host sends each frame's bytes
on ``rx`` at the link's bit time, waits for the answer on ``tx`` (or for silence), and the
link's strobes are recorded as effects: ``("key", k)``, ``("switch", n, value)``,
``("game", n)``, ``("new", position)``, ``("text", byte)``.
"""

import pytest
from bench import frame_bits, refuses, simulate
from bench import hold as hold_inputs       # talk's own hold is the desk's input

from boards.gateware.link import HostLink
from boards.host import protocol
from firmware_ref.cartridge import board_bits
from hdl.cartridge import LAMPS, SWITCHES

BIT = 6                     # clocks per bit: the UART's smallest comfortable bit
ERROR = b"error"
EMPTY, MACHINE, PERSON = 0, 1, 2




class Fields:
    """What the desk shows the link: it is the same for a whole run."""

    def __init__(self, board=(EMPTY,) * 9, lamps=0b0001, switches=0b0001, cycles=0,
                 code="E"):
        self.board, self.lamps, self.switches = list(board), lamps, switches
        self.cycles, self.code = cycles, code

    def status(self):
        """The documented status line, written out by hand from docs/boards.md."""
        marks = "".join(".OX*"[v] for v in self.board)
        rows = "|".join(marks[i:i + 3] for i in (0, 3, 6))
        bits = lambda value, n: "".join(str(value >> i & 1) for i in range(n))  # noqa: E731
        return (f"{rows} g{self.code} l{bits(self.lamps, LAMPS)} "
                f"s{bits(self.switches, SWITCHES)} c{self.cycles:04X}").encode()


def talk(frames, *, games=1, fields=None, ready_after=0, text_lines=(), broken=None,
         back_to_back=False, idle=0, hold=False):
    """Send ``frames`` (bytes each; a frame's terminator is part of it) one after the
    other, each once the last was answered or the link stayed silent for 4 bytes'
    time. Returns [(answer lines, effects)] per frame. ``ready_after``: clocks after each
    command strobe until the desk says ready. ``text_lines``: the cartridge's lines,
    offered on ``text_out`` before the first frame. ``broken``: (frame, byte index) sent
    with a low stop bit. ``back_to_back``: send all frames without waiting. ``idle``:
    clocks before the first frame. ``hold``: the desk's position is in use throughout.
    The link holds ``games`` cartridges, the one playing named ``fields.code``."""
    fields = fields or Fields()
    codes = (fields.code + "EFGHIJKLMN".replace(fields.code, ""))[:games]
    dut = HostLink(bit_cycles=BIT, codes=codes)
    results = [([], []) for _ in frames]
    current = [0]           # the frame whose answer and effects are being recorded
    lines, partial = [], bytearray()
    position = [EMPTY] * 9
    text = bytearray(b"".join(text_lines))
    since_strobe = [None]

    async def host(ctx):
        ctx.set(dut.board.as_value(), board_bits(fields.board))
        ctx.set(dut.lamps, fields.lamps)
        ctx.set(dut.switches, fields.switches)
        ctx.set(dut.cycles, fields.cycles)
        ctx.set(dut.game, 0)
        ctx.set(dut.hold, hold)
        ctx.set(dut.rx, 1)
        await ctx.tick().repeat(3 * BIT + idle)
        for n, frame in enumerate(frames):
            current[0] = n
            for i, byte in enumerate(frame):
                stop = 0 if broken == (n, i) else 1
                for level in frame_bits(byte, stop=stop):
                    await hold_inputs(ctx, dut, clocks=BIT, rx=level)
                ctx.set(dut.rx, 1)
                if not stop:
                    await ctx.tick().repeat(BIT)
            if back_to_back:
                continue
            # The answer, or silence for long enough that none is coming.
            before = len(lines)
            for _ in range(80 * 10 * BIT):
                await ctx.tick()
                if len(lines) > before and not partial:
                    break
            await ctx.tick().repeat(2 * BIT)
        await ctx.tick().repeat(80 * 10 * BIT)

    def received(byte):
        if byte == ord("\n"):
            assert partial.endswith(b"\r") or partial.startswith(protocol.TEXT_MARK)
            line = bytes(partial).rstrip(b"\r")
            lines.append(line)
            results[current[0]][0].append(line)
            partial.clear()
        else:
            partial.append(byte)

    async def desk(ctx):
        # The desk's side: records the strobes, says ready some clocks after a
        # command, and offers the cartridge's text. And the host's receiver: from a
        # start bit, each bit of the link's tx line in its middle.
        bit_clock, byte = None, 0
        async for _clk, _rst, tx, *values in ctx.tick().sample(dut.tx,
                dut.press, dut.key, dut.set_switch, dut.number, dut.switch, dut.select,
                dut.new_game, dut.clear, dut.shift, dut.place.as_value(),
                dut.text_in.valid, dut.text_in.payload, dut.text_out.ready):
            if bit_clock is None:
                if not tx:
                    bit_clock, byte = 0, 0
            else:
                bit_clock += 1
                bit, phase = divmod(bit_clock - BIT // 2, BIT)
                if phase == 0 and 1 <= bit <= 8:
                    byte |= tx << bit - 1
                elif phase == 0 and bit == 9:
                    assert tx == 1, "the link's stop bit"
                    received(byte)
                    bit_clock = None
            (press, key, set_switch, number, switch, select, new_game, clear, shift, place,
             text_valid, text_byte, text_ready) = values
            effects = results[current[0]][1]
            if press:
                effects.append(("key", key))
            if set_switch:
                effects.append(("switch", number, switch))
            if select:
                effects.append(("game", key))
            # The desk's position register: an R frame's places shift in as they come.
            if (clear or shift) and hold:
                effects.append(("position in use changed",))
            if clear:
                position[:] = [EMPTY] * 9
            if shift:
                position[:] = position[1:] + [place]
            if new_game:
                effects.append(("new", list(position)))
            if text_valid:
                effects.append(("text", text_byte))
            if press or set_switch or select or new_game:
                since_strobe[0] = 0
            elif since_strobe[0] is not None:
                since_strobe[0] += 1
            ctx.set(dut.ready, since_strobe[0] is None or since_strobe[0] >= ready_after)
            if text and text_ready and ctx.get(dut.text_out.valid):
                del text[0]
            ctx.set(dut.text_out.valid, bool(text))
            ctx.set(dut.text_out.payload, text[0] if text else 0)

    simulate(dut, host, background=[desk])
    return results


def answers(results):
    return [lines for lines, _ in results]


# -- every command is acted on and answered with the status line ---------------------

def test_every_good_command_acts_once_and_is_answered_with_the_status():
    fields = Fields(board=[PERSON, MACHINE, EMPTY, EMPTY, PERSON, EMPTY, EMPTY, EMPTY,
                           MACHINE], lamps=0b0101, switches=0b1001, cycles=0x03A9, code="E")
    frames = ([b"S\r"] + [f"K{k}\r".encode() for k in range(9)]
              + [f"W{n}{v}\r".encode() for n in range(SWITCHES) for v in (0, 1)]
              + [b"R\r", b"RXO.......\r", b"R........X\r", b"Rox.XO.xO.\r", b"G0\r",
                 b"T1\r", b"Tabc\r", b"T" + bytes(range(0x20, 0x29)) + b"\r"])
    expected = ([[]] + [[("key", k)] for k in range(9)]
                + [[("switch", n, v)] for n in range(SWITCHES) for v in (0, 1)]
                + [[("new", [EMPTY] * 9)],
                   [("new", [PERSON, MACHINE] + [EMPTY] * 7)],
                   [("new", [EMPTY] * 8 + [PERSON])],
                   [("new", [MACHINE, PERSON, EMPTY, PERSON, MACHINE, EMPTY, PERSON,
                             MACHINE, EMPTY])],
                   [("game", 0)],
                   [("text", ord("1"))], [("text", b) for b in b"abc"],
                   [("text", b) for b in range(0x20, 0x29)]])
    results = talk(frames, fields=fields)
    assert answers(results) == [[fields.status()]] * len(frames)
    assert [effects for _, effects in results] == expected


def test_lower_case_letters_and_every_terminator():
    results = talk([b"k4\r", b"w11\n", b"g0\r\n", b"s\n\r", b"r\r"])
    assert answers(results) == [[Fields().status()]] * 5
    assert [e for _, e in results] == [[("key", 4)], [("switch", 1, 1)], [("game", 0)],
                                       [], [("new", [EMPTY] * 9)]]


def test_g_chooses_each_cartridge_the_bitstream_holds():
    results = talk([f"G{n}\r".encode() for n in range(4)], games=3)
    assert [e for _, e in results] == [[("game", 0)], [("game", 1)], [("game", 2)], []]
    assert answers(results)[3] == [ERROR]


def test_the_answer_waits_until_the_desk_is_ready():
    # The answer to a key shows the machine's reply: it is sent only once ``ready``.
    wait = 40 * BIT * 10
    results = talk([b"K3\r", b"S\r"], ready_after=wait)
    assert answers(results) == [[Fields().status()], [Fields().status()]]
    quick = talk([b"K3\r"], ready_after=0)
    assert answers(quick) == [[Fields().status()]]


# -- malformed frames: "error", and no effect -----------------------------------------

MALFORMED = [
    b"X\r", b"Q\r", b"0\r", b"-\r", b"\xff\r",             # no such command letter
    b"K9\r", b"Kx\r", b"K\r", b"K44\r", b"K:\r", b"K/\r",  # key outside 0-8, or no key
    b"W4\r", b"W41\r", b"W02\r", b"W0\r", b"W012\r", b"Wa1\r", b"W0x\r",   # switches
    b"R....\r", b"R........\r", b"R..........\r",          # 4, 8 and 10 places
    b"RXOZ......\r", b"R...-.....\r", b"R..*......\r",     # a mark other than . O X
    b"G1\r", b"G9\r", b"G\r", b"G00\r", b"Gx\r",           # a cartridge not held
    b"S1\r", b"SS\r",                                      # S takes nothing
    b"T\r",                                                # text of no bytes
    b"R" + b"." * 20 + b"\r", b"K" + b"1" * 30 + b"\r",   # far too long
]


def test_every_malformed_frame_is_answered_error_and_has_no_effect():
    # All in one session, each followed by S: a frame acted on would show in its
    # effects or the status, and one that left the parser astray would spoil the next.
    results = talk([sent for frame in MALFORMED for sent in (frame, b"S\r")])
    for k, frame in enumerate(MALFORMED):
        pair = results[2 * k:2 * k + 2]
        assert answers(pair) == [[ERROR], [Fields().status()]], frame
        assert [e for _, e in pair] == [[], []], frame


def test_text_beyond_nine_bytes_is_refused_after_its_bytes_went_on():
    # A T frame's bytes go to the cartridge as they come (docs/boards.md); the frame is
    # still answered error when it turns out too long, and nothing else happens.
    results = talk([b"T" + b"y" * 10 + b"\r"])
    assert answers(results) == [[ERROR]]
    assert {e for e in results[0][1]} == {("text", ord("y"))}


def test_empty_lines_are_no_frames_and_cr_lf_is_one_terminator():
    results = talk([b"\r", b"\n", b"\r\n", b"K2\r\n", b"\n\n\r"])
    assert answers(results) == [[], [], [], [Fields().status()], []]
    assert [e for _, e in results] == [[], [], [], [("key", 2)], []]


def test_a_broken_stop_bit_spoils_its_frame():
    results = talk([b"K4\r", b"S\r"], broken=(0, 1))
    assert answers(results)[0] == [ERROR] and results[0][1] == []
    assert answers(results)[1] == [Fields().status()]


def test_places_are_refused_while_the_desks_position_is_in_use():
    # While a position is entered at the panel (or set up), R frames would change it.
    results = talk([b"RXO.......\r", b"R\r", b"K1\r"], hold=True)
    assert answers(results) == [[ERROR], [ERROR], [Fields().status()]]
    assert [e for _, e in results] == [[], [], [("key", 1)]]


def test_a_frame_that_arrives_while_the_last_is_answered_is_refused():
    results = talk([b"K4\r", b"W00\r"], back_to_back=True)
    assert [e for _, e in results] == [[], [("key", 4)]]    # recorded from the last frame
    assert sorted(answers(results)[1]) == sorted([ERROR, Fields().status()])


# -- the status line, exactly --------------------------------------------------------

@pytest.mark.parametrize("fields", [
    Fields(),
    Fields(board=[PERSON, MACHINE, EMPTY, EMPTY, PERSON, EMPTY, EMPTY, EMPTY, MACHINE],
           lamps=0b0001, switches=0b0001, cycles=0x003A, code="E"),
    Fields(board=[MACHINE] * 4 + [3] + [PERSON] * 4, lamps=0b1110, switches=0b0110,
           cycles=0xFFFF, code="F"),
    Fields(board=[3, EMPTY, PERSON] * 3, lamps=0b1000, switches=0b1000, cycles=0xB5C0,
           code="Z"),
], ids=["empty", "docs", "full", "both"])
def test_the_status_line_is_exactly_the_documented_text(fields):
    [(lines, _)] = talk([b"S\r"], fields=fields)
    assert lines == [fields.status()]
    status = protocol.parse(lines[0])           # and the client reads it back
    assert status.cycles == fields.cycles and status.game == fields.code
    assert status.board == fields.board


def test_the_documented_example_line():
    fields = Fields(board=[PERSON, MACHINE, EMPTY, EMPTY, PERSON, EMPTY, EMPTY, EMPTY,
                           MACHINE], lamps=0b0001, switches=0b0001, cycles=0x3A)
    assert fields.status() == b"XO.|.X.|..O gE l1000 s1000 c003A"
    assert talk([b"S\r"], fields=fields)[0][0] == [fields.status()]


# -- the cartridge's own lines -------------------------------------------------------

def test_the_cartridges_line_goes_out_behind_a_mark_between_answers():
    results = talk([b"S\r"], text_lines=[b"4\n", b"7\n"], idle=8 * 10 * BIT)
    assert answers(results) == [[b"#4", b"#7", Fields().status()]]


def test_a_desk_whose_frames_could_change_the_position_during_setup_is_refused():
    from boards.gateware.desk import Desk
    from hdl.cartridge import SETUP
    from hdl.firstfree.cartridge import CARTRIDGE
    refuses(Desk, [CARTRIDGE], bit_cycles=SETUP // 10, slot_cycles=4, stable=2,
            blink_cycles=64,
            match=f"would not hold for the cartridge's SETUP \\({SETUP}")
