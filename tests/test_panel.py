"""The front-panel scanner alone (boards/gateware/panel.py), on Amaranth's simulator.

The desk's tests (test_desk_sim.py) play games through the panel with a model of the
wiring; here the block's timing is pinned clock by clock: which row is active when, what
the columns show, on which clock each row's sense lines are read, and what ``keys``
shows while ``frame`` is high.

``scan()`` records what the panel drives in each cycle ``n`` (after ``n`` clock edges)
and sets the sense lines for that cycle, which edge ``n + 1`` samples.
"""

import random

import pytest
from bench import elaborated, refuses, simulate

from boards.gateware.panel import FrontPanel
from firmware_ref.cartridge import board_places


def scan(slot_cycles, cycles, *, sense=None, stones=None):
    """Run a FrontPanel for ``cycles`` clocks. ``sense(n, row)`` gives the sense lines
    in cycle ``n`` while ``row`` (0-2) is active; ``stones(n)`` the stones. Returns one
    dict of the outputs per cycle."""
    dut = FrontPanel(slot_cycles=slot_cycles)
    seen = []

    async def testbench(ctx):
        for n in range(cycles):
            if stones:
                ctx.set(dut.stones, stones(n))
            row = ctx.get(dut.row)
            active = row.bit_length() - 1 if row in (1, 2, 4) else None
            if sense:
                ctx.set(dut.sense, sense(n, active))
            seen.append(dict(row=row, red=ctx.get(dut.red), green=ctx.get(dut.green),
                             keys=ctx.get(dut.keys), frame=ctx.get(dut.frame),
                             stones=ctx.get(dut.stones)))
            await ctx.tick()

    simulate(dut, testbench)
    return seen


def matrix(closed):
    """The key matrix: the sense lines of the active row's closed keys."""
    return lambda n, row: sum(1 << c for c in range(3) if 3 * row + c in closed)


def test_the_constructor_refuses_slots_shorter_than_the_synchroniser_needs():
    for slot_cycles in range(4):
        refuses(FrontPanel, slot_cycles=slot_cycles, match="at least 4 clocks")
    elaborated(FrontPanel(slot_cycles=4))


@pytest.mark.parametrize("slot_cycles", [4, 5, 7])
def test_rows_take_turns_one_hot_each_for_a_slot(slot_cycles):
    seen = scan(slot_cycles, 4 * 3 * slot_cycles + 1)
    rows = [s["row"] for s in seen]
    assert rows == [1 << (n // slot_cycles) % 3 for n in range(len(seen))]


def test_the_columns_show_the_active_rows_stones_in_led_order():
    # Place k: bit 2k the chip's stone (red), bit 2k + 1 the user's (green); row r holds
    # places 3r to 3r + 2, column c bit c. The stones change at random clocks, and the
    # columns follow at once.
    rng = random.Random(7)
    words = [1 << b for b in range(18)] + [rng.randrange(1 << 18) for _ in range(30)]
    slot = 4
    seen = scan(slot, len(words) * 3 * slot, stones=lambda n: words[n // (3 * slot)]
                if n % 5 else rng.randrange(1 << 18))
    for n, s in enumerate(seen):
        r = s["row"].bit_length() - 1
        places = board_places(s["stones"])[3 * r:3 * r + 3]
        assert s["red"] == sum((p & 1) << c for c, p in enumerate(places)), n
        assert s["green"] == sum((p >> 1) << c for c, p in enumerate(places)), n
    # Each single stone is lit in its own row's slot only, in its own colour and column.
    for k in range(9):
        for colour, name in ((0, "red"), (1, "green")):
            word = 1 << 2 * k + colour
            lit = {(s["row"], s[name]) for s in seen if s["stones"] == word and s[name]}
            assert lit == {(1 << k // 3, 1 << k % 3)}, (k, name)
            other = "green" if name == "red" else "red"
            assert not any(s[other] for s in seen if s["stones"] == word)


@pytest.mark.parametrize("slot_cycles", [4, 6])
def test_keys_are_read_at_the_end_of_their_slot_through_two_flip_flops(slot_cycles):
    # A sense line high for one clock only, at clock j of row r's slot in the first
    # frame: it is read into keys exactly when j is the clock the synchroniser delivers
    # at the slot's last edge, two clocks before it (slot - 3, counting from 0).
    slot = slot_cycles
    for r in range(3):
        for j in range(slot):
            at = r * slot + j
            seen = scan(slot, 3 * slot + 1, sense=lambda n, row: 0b111 if n == at else 0)
            read = seen[3 * slot - 1]["keys"]           # the frame's last clock
            assert seen[3 * slot - 1]["frame"] == 1
            assert read == (0b111 << 3 * r if j == slot - 3 else 0), (r, j, f"{read:09b}")


@pytest.mark.parametrize("slot_cycles", [4, 6])
def test_a_key_closed_only_in_another_rows_slot_is_not_read(slot_cycles):
    # The sense lines high during every slot but row r's: only the other rows' keys.
    for r in range(3):
        seen = scan(slot_cycles, 2 * 3 * slot_cycles + 1,
                    sense=lambda n, row: 0 if row == r else 0b111)
        for frame in (1, 2):
            assert seen[frame * 3 * slot_cycles - 1]["keys"] == 0o777 & ~(0o7 << 3 * r), r


def test_the_keys_through_a_key_matrix():
    rng = random.Random(9)
    chords = [{k} for k in range(9)] + [set(range(9)), set()]
    chords += [set(rng.sample(range(9), rng.randint(2, 8))) for _ in range(20)]
    slot = 4
    frame = 3 * slot
    # Each chord is held for two frames; the second frame reads it whole.
    seen = scan(slot, 2 * frame * len(chords) + 1,
                sense=lambda n, row: matrix((chords + [set()])[n // (2 * frame)])(n, row))
    for i, chord in enumerate(chords):
        assert seen[(2 * i + 2) * frame - 1]["keys"] == sum(1 << k for k in chord), chord


@pytest.mark.parametrize("slot_cycles", [4, 5])
def test_frame_pulses_on_the_last_clock_of_every_third_slot_with_the_frames_keys(slot_cycles):
    # Noise on the sense lines: while frame is high, keys shows the lines as they were on
    # each row's read clock of that frame; on the clock before, the first two rows the
    # same and the last row's lines a clock earlier (what a reader comparing a clock
    # ahead sees).
    slot = slot_cycles
    frame = 3 * slot
    rng = random.Random(slot)
    noise = [rng.randrange(8) for _ in range(12 * frame + 1)]
    seen = scan(slot, len(noise), sense=lambda n, row: noise[n])
    pulses = [n for n, s in enumerate(seen) if s["frame"]]
    assert pulses == list(range(frame - 1, len(seen), frame))
    for n in pulses:
        start = n + 1 - frame
        keys = sum(noise[start + r * slot + slot - 3] << 3 * r for r in range(3))
        assert seen[n]["keys"] == keys, (n, f"{seen[n]['keys']:09b} != {keys:09b}")
        ahead = keys & 0o77 | noise[start + 3 * slot - 4] << 6
        assert seen[n - 1]["keys"] == ahead, n
    assert len({seen[n]["keys"] for n in pulses}) > 6      # the noise did change keys
