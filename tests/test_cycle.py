"""firmware_ref.eth.cycle: the chip clock by clock, and the decisions of docs/decisions.md."""

import pytest

from firmware_ref.cartridge import board_places
from firmware_ref.eth.alg import move
from firmware_ref.eth.cycle import (CHIP, NO_KEY, USER, Choose, CycleModel, Inputs,
                                    Registers, State, UnresetChip, key_down)
from firmware_ref.eth.pins import press, start
from firmware_ref.places import BOTH, COMPUTER, EMPTY, HUMAN
from sim.chip import e2


def test_a_stone_of_p_is_bit_p_of_its_place():
    assert (1 << CHIP, 1 << USER) == (COMPUTER, HUMAN)
    assert NO_KEY == 0b1_1111_1111                  # keyboardN: nine keys, none down


def run(chip, edges):
    for _ in range(edges):
        chip.tick()


def test_power_up_is_the_reset_state_with_unknowns():
    probe = CycleModel().probe
    assert probe.state is State.JUSTRESET
    assert (probe.led, probe.sp, probe.fin, probe.win, probe.prompt) == (0, 0, 0, 0, 0)
    # E.2 row 100: the keyboard register and i have never been written.
    assert (probe.choose, probe.toggleN, probe.i) == (None, None, None)


def test_clocking_an_unreset_chip_is_refused():
    chip = CycleModel()
    with pytest.raises(UnresetChip, match="reset"):
        chip.tick()
    with pytest.raises(UnresetChip, match="reset"):
        chip.tick()
    chip.set(resetN=0)
    chip.tick()
    assert chip.state is State.JUSTRESET


@pytest.mark.parametrize("script", ["e2", "deepest search"])
def test_rebuilt_from_its_registers_the_chip_goes_on_identically(script):
    # What a scan path needs: dump the registers at any cycle, load them into a new
    # chip, and it must continue exactly as the original does.
    if script == "e2":
        inputs = list(e2.SESSION)
    else:   # the user opens at B3: the chip's longest search, 7 calls deep
        inputs = [Inputs(resetN=0), Inputs(), Inputs(keyboardN=key_down(7))]
        inputs += [Inputs()] * 15_020
    chip, dumps, probes = CycleModel(), [], []
    for edge in inputs:
        dumps.append(chip.registers())
        chip.set(edge)
        chip.tick()
        probes.append(chip.probe)
    assert max(p.sp for p in probes) == (2 if script == "e2" else 7)
    for n in range(1, len(inputs), 1 if script == "e2" else 37):
        copy = CycleModel.from_registers(dumps[n], inputs[n - 1])
        for k in range(n, min(n + 40, len(inputs))):
            copy.set(inputs[k])
            copy.tick()
            assert copy.probe == probes[k], f"rebuilt at edge {n}, differs at edge {k}"


@pytest.mark.parametrize("change, message", [
    (dict(board=1 << 18), "board"), (dict(sp=8), "sp"), (dict(m=16), "m"),
    (dict(stack=(None,) * 7), "8 entries"), (dict(key=1 << 9), "keyboard"),
    (dict(state=State.RETURNED), "i, bestr, r"), (dict(state=9), "9"),
])
def test_registers_that_do_not_fit_are_refused(change, message):
    with pytest.raises(ValueError, match=message):
        CycleModel.from_registers(Registers(**change))


def waiting_chip(position=None):
    chip = CycleModel()
    start(chip, userbegins=True, position=position)
    assert chip.state is State.WAITING
    return chip


@pytest.mark.parametrize("keys", [(0, 4), (3, 5, 8), tuple(range(9))])
def test_a_chord_places_nothing(keys):
    chip = waiting_chip()
    chip.set(keyboardN=key_down(*keys))
    run(chip, 5)
    assert chip.state is State.WAITING and chip.board == 0


def test_a_key_on_an_occupied_place_is_ignored():
    chip = waiting_chip([0, 0, 0, 0, HUMAN, COMPUTER, 0, 0, 0])
    board = chip.board
    for place in (4, 5):
        with pytest.raises(ValueError, match="taken"):
            press(chip, place)
        assert chip.board == board and chip.state is State.WAITING


def test_a_key_held_in_waiting_places_one_stone():
    chip = waiting_chip()
    chip.set(keyboardN=key_down(4))
    run(chip, 10_000)
    board = board_places(chip.board)
    assert chip.state is State.WAITING
    assert board.count(HUMAN) == 1 and board[4] == HUMAN
    assert board.count(COMPUTER) == 1 and board.index(COMPUTER) == move(
        [0, 0, 0, 0, HUMAN, 0, 0, 0, 0]).place


def test_a_key_held_in_justreset_places_its_stone_and_ends_the_setup():
    chip = CycleModel()
    chip.set(resetN=0, keyboardN=key_down(6))
    chip.tick()                                 # reset; the key is registered
    chip.set(resetN=1)
    chip.tick()                                 # the stone is set
    assert chip.state is State.JUSTRESET and board_places(chip.board)[6] == HUMAN
    chip.tick()                                 # the place is taken: setup is over
    assert chip.state is State.WAITING and board_places(chip.board)[6] == HUMAN


def test_pin_high_in_waiting_sets_a_chip_stone_and_the_chip_answers_it():
    chip = waiting_chip([HUMAN, 0, 0, 0, 0, 0, 0, 0, 0])
    chip.set(keyboardN=key_down(4))
    chip.tick()
    chip.set(keyboardN=NO_KEY, piN=1)
    chip.tick()
    assert chip.state is State.USERJUSTMOVED
    assert board_places(chip.board) == [HUMAN, 0, 0, 0, COMPUTER, 0, 0, 0, 0]


def test_the_chip_opens_where_its_counter_points():
    for power_up in range(8):
        for held in (1, 3):                     # reset edges: the counter counts them
            chip = CycleModel(random=power_up)
            chip.set(resetN=0)
            run(chip, held)
            chip.set(resetN=1, userbegins=0)
            chip.tick()
            opening = (power_up + held) % 8
            assert board_places(chip.board) == [COMPUTER if k == opening else EMPTY
                                          for k in range(9)]
            assert chip.state is State.WAITING


@pytest.mark.parametrize("there, after", [(HUMAN, BOTH), (COMPUTER, EMPTY)])
def test_opening_on_a_preset_place_toggles_the_chips_bit(there, after):
    chip = CycleModel(random=1)   # + the reset edge + the edge placing the stone = 3
    position = [0] * 9
    position[3] = there
    start(chip, userbegins=False, position=position)
    assert board_places(chip.board)[3] == after


def test_entering_a_position_during_reset():
    position = [0, COMPUTER, HUMAN, HUMAN, COMPUTER, COMPUTER, 0, 0, 0]
    chip = waiting_chip(position)
    assert board_places(chip.board) == position


def test_no_move_found_plays_m_from_power_up_or_the_last_search():
    # The user already has three in a row (the chip never checks): every move loses.
    lost = [HUMAN, HUMAN, HUMAN, 0, COMPUTER, 0, 0, 0, COMPUTER]
    chip = waiting_chip(lost)
    thought = press(chip, 6)
    assert State.DOINGBESTMOVE in thought and chip.state is State.WAITING
    assert board_places(chip.board)[0] == BOTH        # m = 0 from power-up: bit toggled
    # After a search that found a move, m holds it.
    played = waiting_chip([0, 0, 0, 0, HUMAN, 0, 0, 0, 0])
    press(played, 8)
    m = played.registers().m
    start(played, userbegins=True, position=lost)
    press(played, 6 if m != 6 else 7)
    assert board_places(played.board)[m] == {EMPTY: COMPUTER, HUMAN: BOTH, COMPUTER: EMPTY}[lost[m]]


def test_reset_in_the_middle_of_a_search():
    chip = waiting_chip()
    chip.set(keyboardN=key_down(7))
    run(chip, 2)
    chip.set(keyboardN=NO_KEY)
    run(chip, 500)
    assert chip.state in (State.SETBOARDI, State.RATING, State.RETURNED) and chip.sp > 0
    chip.set(resetN=0)
    chip.tick()
    assert chip.state is State.JUSTRESET
    assert (chip.board, chip.sp, chip.p, chip.a) == (0, 0, 0, 1)
    chip.set(resetN=1)
    chip.tick()
    press(chip, 2)
    assert board_places(chip.board).index(COMPUTER) == move([0, 0, HUMAN] + [0] * 6).place


def test_a_reset_edge_still_carries_out_the_controllers_commands():
    chip = waiting_chip()
    chip.set(keyboardN=key_down(4))
    run(chip, 2)
    chip.set(keyboardN=NO_KEY)
    run(chip, 2)                                # setboardi, rating
    assert chip.state is State.RATING and chip.probe.nexti  # the call comes next
    before = chip.registers()
    chip.set(resetN=0)
    chip.tick()
    after = chip.registers()
    # The call happened for the unreset registers: i went to the first free place of
    # the board with the trial stone (0 and 4 taken), the stack entry was written,
    # bestr is the callee's -1 ...
    assert (after.i, after.bestr) == (1, -1)
    assert after.stack[0] == (before.i, before.a, before.bestr)
    # ... while C.3's registers, sp and the state were reset.
    assert (after.state, after.board, after.p, after.a, after.sp) == (
        State.JUSTRESET, 0, 0, 1, 0)


def test_finished_shows_the_result_and_stays_until_reset():
    chip = waiting_chip([HUMAN, 0, 0, 0, COMPUTER, 0, HUMAN, COMPUTER, 0])
    press(chip, 8)                              # the chip wins with 1-4-7
    assert chip.state is State.FINISHED
    board = chip.board
    probe = chip.probe
    assert (probe.fin, probe.win, probe.copyboard, probe.prompt) == (1, 1, 1, 0)
    chip.set(keyboardN=key_down(5))
    run(chip, 20)
    assert chip.state is State.FINISHED and chip.board == board
    chip.set(resetN=0)
    chip.tick()
    assert chip.state is State.JUSTRESET


def test_a_draw_finishes_without_win():
    chip = waiting_chip([COMPUTER, HUMAN, COMPUTER, COMPUTER, HUMAN, HUMAN, HUMAN,
                         COMPUTER, 0])
    thought = press(chip, 8)                    # the user fills the board
    assert thought == [State.FINISHED]
    probe = chip.probe
    assert (probe.fin, probe.win, probe.copyboard) == (1, 0, 1)


def test_the_search_shows_on_led_and_copyboard_says_when_it_is_real():
    chip = waiting_chip()
    chip.set(keyboardN=key_down(4))
    chip.tick()
    chip.set(keyboardN=NO_KEY)
    seen = set()
    while True:
        chip.tick()
        probe = chip.probe
        if probe.copyboard:
            seen.add(probe.led)
        if chip.state is State.WAITING:
            break
        assert probe.choose in (Choose.RANDOM, Choose.I, Choose.M)
    # copyboard is high only on real positions: the user's move and the chip's answer.
    assert seen == {1 << 9, 1 << 9 | 1 << 2 * move([0] * 4 + [HUMAN] + [0] * 4).place}


def test_press_refuses_what_a_person_could_not_do():
    chip = CycleModel()
    with pytest.raises(ValueError, match="not waiting"):
        press(chip, 0)
    with pytest.raises(ValueError, match="keys are 0 to 8"):
        press(waiting_chip(), 9)
