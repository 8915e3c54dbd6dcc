"""The host link alone (boards/gateware/link.py), on Amaranth's simulator.

The desk's tests (test_desk_sim.py, test_box.py) play whole games over the link; here
the frame parser and the answers are pinned at the block's own ports: every command of
docs/boards.md is acted on as it says and answered with the status line, every malformed
frame (one of each kind in make test, all in make test-slow) is answered ``error`` and
acted on not at all, and the status line is exactly the documented text for the board,
lamps, switches, cycles and cartridge letter given.

The host is the real one (tests/host_model.py): boards/host/link.py's ``Link`` sends
the frames and reads the answers through boards/host/protocol.py. Beside it a model of
the desk records the link's commands as effects, ``("key", k)``, ``("switch", n,
value)``, ``("game", n)``, ``("new", position)``, ``("text", byte)``, each under the
frame the host sent last, and says ``ready`` some clocks after each command.
"""

import pytest
from bench import refuses
from host_model import Port, converse

from boards.gateware.command import Argument, Command
from boards.gateware.link import HostLink
from boards.host import protocol
from boards.host.link import Link, NoAnswer
from firmware_ref.cartridge import board_bits
from hdl.cartridge import LAMPS, SWITCHES

BIT = 4                     # clocks per bit: the UART's smallest, the fewest to simulate
PATIENCE = 80 * 10 * BIT    # silent clocks before the host gives up on an answer
ERROR = "error"             # what `answers` gives for a frame the link refused
EMPTY, MACHINE, PERSON = 0, 1, 2
# The commands the desk acts on, and so may take clocks to be ready after.
ACTED = (Command.RESET, Command.KEY, Command.SWITCH, Command.GAME)


class Fields:
    """What the desk shows the link: it is the same for a whole run."""

    def __init__(self, board=(EMPTY,) * 9, lamps=0b0001, switches=0b0001, cycles=0,
                 code="E"):
        self.board, self.lamps, self.switches = list(board), lamps, switches
        self.cycles, self.code = cycles, code

    def line(self):
        """The documented status line, written out by hand from docs/boards.md."""
        marks = "".join(".OX*"[v] for v in self.board)
        rows = "|".join(marks[i:i + 3] for i in (0, 3, 6))
        bits = lambda value, n: "".join(str(value >> i & 1) for i in range(n))  # noqa: E731
        return (f"{rows} g{self.code} l{bits(self.lamps, LAMPS)} "
                f"s{bits(self.switches, SWITCHES)} c{self.cycles:04X}").encode()

    def status(self):
        """The line as the host reads it."""
        return protocol.parse(self.line())


def run(script, *, games=1, fields=None, ready_after=0, text_lines=(), hold=False):
    """Run ``script(link, port)`` as the host of one HostLink, the real host's ``Link``
    on ``port``. Returns what the script returned and the effects under each frame
    written. ``ready_after``: clocks after each command until the desk says ready.
    ``text_lines``: the cartridge's lines, offered from the start. ``hold``: the desk's
    position is in use throughout. The link holds ``games`` cartridges, the one playing
    named ``fields.code``."""
    fields = fields or Fields()
    codes = (fields.code + "EFGHIJKLMN".replace(fields.code, ""))[:games]
    dut = HostLink(bit_cycles=BIT, codes=codes)
    port = Port()
    effects = {}
    position = [EMPTY] * 9
    text = bytearray(b"".join(text_lines))

    async def desk(ctx):
        status = dut.status
        ctx.set(status.board.as_value(), board_bits(fields.board))
        ctx.set(status.lamps, fields.lamps)
        ctx.set(status.switches, fields.switches)
        ctx.set(status.cycles, fields.cycles)
        ctx.set(status.game, 0)
        ctx.set(dut.hold, hold)
        since_command = None
        commands, layout = dut.commands, Argument
        ready, text_out = dut.ready, dut.text_out   # a member's lookup is slow: once
        driven = {}

        def drive(signal, value):
            # Only on a change: a set costs the simulator a settle.
            if driven.get(id(signal)) != value:
                driven[id(signal)] = value
                ctx.set(signal, value)
        # The argument is sampled as bits and decoded only with a command: decoding
        # the struct every clock was a tenth of this bench's time.
        async for _clk, _rst, valid, command, bits, text_valid, text_byte, text_ready \
                in ctx.tick().sample(commands.valid, commands.command,
                                     commands.argument.as_value(), dut.text_in.valid,
                                     dut.text_in.payload, text_out.ready):
            seen = effects.setdefault(port.frames - 1, [])
            if valid:
                argument = layout.from_bits(bits)
                if command in (Command.PLACE, Command.RESET) and hold:
                    seen.append(("position in use changed",))
                if command == Command.PLACE:
                    position[:] = position[1:] + [argument.place.as_bits()]
                elif command == Command.RESET:
                    if argument.empty:
                        position[:] = [EMPTY] * 9
                    seen.append(("new", list(position)))
                elif command == Command.KEY:
                    key = argument.key
                    assert key & key - 1 == 0, f"a key not one hot: {key:09b}"
                    seen.append(("key", key.bit_length() - 1))
                elif command == Command.SWITCH:
                    seen.append(("switch", argument.switch, argument.on))
                elif command == Command.GAME:
                    seen.append(("game", argument.game))
                elif command == Command.NONE:
                    seen.append(("a malformed frame reached the desk",))
            if text_valid:
                seen.append(("text", text_byte))
            if valid and command in ACTED:
                since_command = 0
            elif since_command is not None:
                since_command += 1
            drive(ready, since_command is None or since_command >= ready_after)
            if text and text_ready and ctx.get(text_out.valid):
                del text[0]
            drive(text_out.valid, bool(text))
            drive(text_out.payload, text[0] if text else 0)

    result = converse(dut, port, lambda port: script(Link(port), port), bit_cycles=BIT,
                      patience=PATIENCE, background=[desk])
    return result, [effects.get(n, []) for n in range(port.frames)]


def answer(link, frame):
    """The host's reading of the answer to ``frame``: its Status, ERROR, or None."""
    try:
        return link.answer(frame)
    except protocol.Rejected:
        return ERROR
    except NoAnswer:
        return None


def answers(frames, **options):
    """Each frame sent once the last was answered; returns the answers (`answer`) and
    the effects of each frame."""
    return run(lambda link, port: [answer(link, frame) for frame in frames], **options)


# -- every command is acted on and answered with the status line ---------------------

def test_every_good_command_acts_once_and_is_answered_with_the_status():
    fields = Fields(board=[PERSON, MACHINE, EMPTY, EMPTY, PERSON, EMPTY, EMPTY, EMPTY,
                           MACHINE], lamps=0b0101, switches=0b1001, cycles=0x03A9, code="E")
    frames = ([protocol.STATUS] + [protocol.key(k) for k in range(9)]
              + [protocol.switch(n, v) for n in range(SWITCHES) for v in (0, 1)]
              + [protocol.reset(), protocol.reset([PERSON, MACHINE] + [EMPTY] * 7),
                 protocol.reset([EMPTY] * 8 + [PERSON]), b"Rox.XO.xO.\r", protocol.game(0),
                 protocol.text(b"1"), protocol.text(b"abc"),
                 protocol.text(bytes(range(0x20, 0x29)))])
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
    got, effects = answers(frames, fields=fields)
    assert got == [fields.status()] * len(frames)
    assert effects == expected


def test_an_empty_r_frame_empties_the_position_its_places_filled_before():
    got, effects = answers([protocol.reset([PERSON] * 9), protocol.reset()])
    assert got == [Fields().status()] * 2
    assert effects == [[("new", [PERSON] * 9)], [("new", [EMPTY] * 9)]]


def test_lower_case_letters_and_every_terminator():
    got, effects = answers([b"k4\r", b"w11\n", b"g0\r\n", b"s\n\r", b"r\r"])
    # The host reads a CR LF frame's answer and then nothing for the LF: no frame.
    assert got == [Fields().status()] * 5
    assert effects == [[("key", 4)], [("switch", 1, 1)], [("game", 0)], [],
                       [("new", [EMPTY] * 9)]]


def test_g_chooses_each_cartridge_the_bitstream_holds():
    got, effects = answers([protocol.game(n) for n in range(4)], games=3)
    assert effects == [[("game", 0)], [("game", 1)], [("game", 2)], []]
    assert got == [Fields().status()] * 3 + [ERROR]


def test_the_answer_waits_until_the_desk_is_ready():
    # The answer to a key shows the machine's reply: it is sent only once ``ready``.
    wait = 40 * BIT * 10

    def timed(link, port):
        clocks = []
        for frame in (protocol.key(3), protocol.STATUS):
            port.write(frame)
            sent = port.clock
            assert protocol.parse(port.readline()) == Fields().status()
            clocks.append(port.clock - sent)
        return clocks

    (slow_key, slow_status), effects = run(timed, ready_after=wait)
    assert effects == [[("key", 3)], []]
    (quick_key, quick_status), _ = run(timed, ready_after=0)
    assert wait - 2 * BIT < slow_key - quick_key <= wait
    assert slow_status == quick_status          # S waits for nothing


# -- malformed frames: "error", and no effect -----------------------------------------

# Malformed frames, a list of each kind.
MALFORMED = [
    [b"X\r", b"Q\r", b"0\r", b"-\r", b"\xff\r"],            # no such command letter
    [b"K9\r", b"Kx\r", b"K\r", b"K44\r", b"K:\r", b"K/\r"],  # key outside 0-8, or no key
    [b"W4\r", b"W41\r", b"W02\r", b"W0\r", b"W012\r", b"Wa1\r", b"W0x\r"],   # switches
    [b"R....\r", b"R........\r", b"R..........\r"],         # 4, 8 and 10 places
    [b"RXOZ......\r", b"R...-.....\r", b"R..*......\r"],    # a mark other than . O X
    [b"G1\r", b"G9\r", b"G\r", b"G00\r", b"Gx\r"],          # a cartridge not held
    [b"S1\r", b"SS\r"],                                     # S takes nothing
    [b"T\r"],                                               # text of no bytes
    [b"R" + b"." * 20 + b"\r", b"K" + b"1" * 30 + b"\r"],  # far too long
]


@pytest.mark.parametrize("frames", [
    pytest.param([kind[0] for kind in MALFORMED], id="one-of-each-kind"),
    pytest.param([frame for kind in MALFORMED for frame in kind], id="all",
                 marks=pytest.mark.slow)])
def test_every_malformed_frame_is_answered_error_and_has_no_effect(frames):
    # All in one session, each followed by S: a frame acted on would show in its
    # effects or the status, and one that left the parser astray would spoil the next.
    got, effects = answers([sent for frame in frames for sent in (frame, protocol.STATUS)])
    for k, frame in enumerate(frames):
        assert got[2 * k:2 * k + 2] == [ERROR, Fields().status()], frame
        assert effects[2 * k:2 * k + 2] == [[], []], frame


def test_text_beyond_nine_bytes_is_refused_after_its_bytes_went_on():
    # A T frame's bytes go to the cartridge as they come (docs/boards.md); the frame is
    # still answered error when it turns out too long, and nothing else happens.
    got, effects = answers([b"T" + b"y" * 10 + b"\r"])
    assert got == [ERROR]
    assert set(effects[0]) == {("text", ord("y"))}


def test_empty_lines_are_no_frames_and_cr_lf_is_one_terminator():
    got, effects = answers([b"\r", b"\n", b"\r\n", b"K2\r\n", b"\n\n\r"])
    assert got == [None, None, None, Fields().status(), None]
    assert effects == [[], [], [], [("key", 2)], []]


def test_a_broken_stop_bit_spoils_its_frame():
    def broken(link, port):
        port.write(protocol.key(4), broken={1})
        return port.readline(), answer(link, protocol.STATUS)

    (line, status), effects = run(broken)
    assert (line, status) == (b"error\r\n", Fields().status())
    assert effects == [[], []]


def test_places_are_refused_while_the_desks_position_is_in_use():
    # While a position is entered at the panel (or set up), R frames would change it.
    got, effects = answers([b"RXO.......\r", protocol.reset(), protocol.key(1)], hold=True)
    assert got == [ERROR, ERROR, Fields().status()]
    assert effects == [[], [], [("key", 1)]]


def test_a_frame_that_arrives_while_the_last_is_answered_is_refused():
    def back_to_back(link, port):
        port.write(protocol.key(4))
        port.write(protocol.switch(0, 0))
        return sorted([port.readline(), port.readline()])

    lines, effects = run(back_to_back)
    assert lines == sorted([b"error\r\n", Fields().line() + b"\r\n"])
    assert effects == [[], [("key", 4)]]        # recorded under the last frame written


# -- the status line, exactly --------------------------------------------------------

def status_line(fields):
    """The line the link sends for S, as it came."""
    def status(link, port):
        port.write(protocol.STATUS)
        return port.readline()

    return run(status, fields=fields)[0]


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
    line = status_line(fields)
    assert line == fields.line() + b"\r\n"
    status = protocol.parse(line)               # and the client reads it back
    assert status.cycles == fields.cycles and status.game == fields.code
    assert status.board == fields.board


def test_the_documented_example_line():
    fields = Fields(board=[PERSON, MACHINE, EMPTY, EMPTY, PERSON, EMPTY, EMPTY, EMPTY,
                           MACHINE], lamps=0b0001, switches=0b0001, cycles=0x3A)
    assert fields.line() == b"XO.|.X.|..O gE l1000 s1000 c003A"
    assert status_line(fields) == b"XO.|.X.|..O gE l1000 s1000 c003A\r\n"


# -- the cartridge's own lines -------------------------------------------------------

def test_the_cartridges_line_goes_out_behind_a_mark_between_answers():
    def lines(link, port):
        return link.line(), link.line(), answer(link, protocol.STATUS)

    got, _ = run(lines, text_lines=[b"4\n", b"7\n"])
    assert got == ("4", "7", Fields().status())


def test_a_desk_whose_frames_could_change_the_position_during_setup_is_refused():
    from boards.gateware.desk import Desk
    from hdl.cartridge import SETUP
    from hdl.firstfree.cartridge import CARTRIDGE
    refuses(Desk, [CARTRIDGE], bit_cycles=SETUP // 10, slot_cycles=4, stable=2,
            blink_cycles=64,
            match=f"would not hold for the cartridge's SETUP \\({SETUP}")
