"""The chip watched one edge at a time (sim/watch/watch.py): the compiled chip and its
golden model agree on every register of every frame of E.2 and of a search, the history
replays, and a key pressed in the past branches the session there; frames let go are
clocked again as they were (sim/watch/history.py), a message's edges and a
session's cycles are bounded."""

import dataclasses

import pytest

from firmware_ref.eth.cycle import State
from sim.watch import history as watch_history, waves as watch_waves
from sim.watch.watch import LIMIT, Full, Watch
from sim.watch.clock import COLUMN, WIDE
from sim.chip.e2 import SESSION


def test_every_frame_of_e2_agrees_with_the_golden_model():
    watch = Watch()
    for pins in SESSION:
        watch.pins = pins
        frame = watch.step()
        assert frame["differences"] == {}, frame["cycle"]
    assert watch.head == len(SESSION) and watch.frame["state"] is State.FINISHED


def _searched(place=4):
    watch = Watch()
    watch.step()
    watch.set(resetN=1)
    watch.step()
    watch.press(place)
    watch.step()
    watch.press(None)
    return watch, watch.run_until_waiting()


def test_a_search_run_in_one_call_equals_the_same_edges_one_at_a_time():
    watch, clocked = _searched()
    slow = Watch()
    for pins in watch.applied:
        slow.pins = pins
        slow.step()
    assert clocked == 6497 and watch.head == slow.head
    assert all(f["differences"] == {} for f in watch.frames)
    assert [f["values"] for f in watch.frames] == [f["values"] for f in slow.frames]
    assert [watch.changed(n) for n in range(watch.head + 1)] == \
        [slow.changed(n) for n in range(slow.head + 1)]
    # The stack as rebuilt from its top entry: the search went at least 7 deep.
    deepest = max(f["values"]["stack.sp"] for f in watch.frames)
    assert deepest == 7


def test_back_forward_and_a_branch_in_the_past():
    watch, _ = _searched()
    head = watch.head
    kept = watch.frames[head - 10]["values"]
    watch.back(10)
    assert watch.cursor == head - 10 and watch.frame["values"] == kept
    watch.forward(10)
    assert watch.cursor == head
    # A reset pressed in the past: the later frames go, and the chip is at the branch.
    watch.jump(head - 100)
    watch.set(resetN=0)
    frame = watch.step()
    assert watch.head == head - 99 and frame["state"] is State.JUSTRESET
    assert frame["differences"] == {}
    assert dataclasses.asdict(watch.pins)["resetN"] == 0


def test_e2_replayed_from_its_start_follows_its_history():
    """Back at cycle 0, steps go forward through E.2's recorded pins, which change from
    edge to edge, without cutting the history."""
    watch = Watch()
    for pins in SESSION:
        watch.pins = pins
        watch.step()
    frames = list(watch.frames)
    watch.jump(0)
    for n in range(1, len(SESSION) + 1):
        assert watch.step() == frames[n]
    assert watch.branches == 0 and watch.head == len(SESSION)



def _compared(watch, tmp_path, name="chip"):
    from sim.watch.watch import write_waves
    from sim.chip import golden_waves
    from sim.waves import compare
    write_waves(watch, tmp_path / f"{name}.vcd", tmp_path / f"{name}.gtkw")
    golden_waves.write_session(tmp_path / "golden.vcd", watch.applied)
    return compare.compare(tmp_path / "golden.vcd", tmp_path / f"{name}.vcd")


def test_the_e2_sessions_waves_are_the_golden_models_and_a_wrong_one_is_found(tmp_path):
    """E.2 clocked on the page's chip, written as waves: ttt compare finds them equal to
    the golden model's waves of the same pins at both edges of every cycle, every
    signal paired; and a register made wrong in one frame is found."""
    watch = Watch()
    for pins in SESSION:
        watch.pins = pins
        watch.step()
    report = _compared(watch, tmp_path)
    assert report.equal and report.cycles == len(SESSION) and not report.unpaired
    assert {"stack.stackregs", "controller.state", "led", "keyboardN"} <= set(report.pairs)
    assert "ttt_chip" in (tmp_path / "chip.gtkw").read_text()
    watch._history.block(0).values[(20 - 1) * WIDE + COLUMN["value.a"]] ^= 1   # frame 20
    wrong = _compared(watch, tmp_path, "wrong")
    assert {d.signal for d in wrong.differences} == {"value.a"}


@pytest.mark.slow       # 15,010 cycles compared at both edges: some 20 seconds
def test_the_worst_moves_waves_are_the_golden_models(tmp_path):
    watch, _ = _searched(place=7)
    report = _compared(watch, tmp_path)
    assert report.equal and report.cycles == watch.head and not report.unpaired


def test_the_strip_of_waves_ends_at_the_frame_shown():
    watch = Watch()
    for pins in SESSION:
        watch.pins = pins
        watch.step()
    watch.jump(30)
    strip = watch.view()["strip"]
    assert strip["first"] == 30 - 24 + 1
    assert [group for group, _ in strip["groups"]][:2] == ["pins", "controller"]
    assert strip["values"]["controller.state"][-1] == watch.frame["values"][
        "controller.state"]
    assert strip["values"]["resetN"] == [p.resetN for p in watch.applied[6:30]]
    assert strip["widths"]["led"] == 18 and strip["widths"]["controller.call"] == 1


def test_a_chip_clocked_before_reset_is_said_and_not_checked():
    watch = Watch()
    watch.set(resetN=1)
    frame = watch.step()
    assert frame["stopped"].startswith("the golden model stopped") and \
        frame["differences"] == {}
    assert watch.view()["stopped"] == frame["stopped"]


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 8 frames, one kept besides the last: most frames are let go."""
    for module in (watch_history, watch_waves):
        monkeypatch.setattr(module, "BLOCK", 8)
    monkeypatch.setattr(watch_history, "KEPT", 1)


def _session(watch):
    """E.2, then a new game: the chip's answer to B2 searched, and a branch in it."""
    for pins in SESSION:
        watch.pins = pins
        watch.step()
    watch.set(resetN=0)
    watch.step()
    watch.set(resetN=1)
    watch.press(4)
    watch.step(3)
    watch.press(None)
    watch.run_until_waiting()
    watch.jump(3000)
    watch.press(8)          # a key pressed in the search: the history branches there
    watch.step(2)
    watch.press(None)
    watch.step(500)
    return watch


def test_frames_let_go_are_clocked_again_as_they_were(monkeypatch):
    kept = _session(Watch())
    first = [kept.frames[n] for n in range(kept.head + 1)]
    strips = {n: (kept.jump(n), kept.view())[1] for n in (0, 7, 8, 9, 2999, 3000, 3001)}
    for module in (watch_history, watch_waves):
        monkeypatch.setattr(module, "BLOCK", 8)
    monkeypatch.setattr(watch_history, "KEPT", 1)
    watch = _session(Watch())
    assert watch.head == kept.head and watch.branches == kept.branches == 1
    assert watch.kept_bytes() < kept.kept_bytes() / 10
    for n in [*range(0, watch.head + 1, 97), 5, 3001, 60, 3002, 1]:    # back and forth
        assert watch.frames[n] == first[n], n
    for n, view in strips.items():
        watch.jump(n)
        assert watch.view() == view, n
    assert all(f["differences"] == {} for f in watch.frames)


def test_the_e2_sessions_waves_from_frames_let_go_are_the_golden_models(small_blocks,
                                                                      tmp_path):
    watch = Watch()
    for pins in SESSION:
        watch.pins = pins
        watch.step()
    watch.jump(0)                   # the blocks shown last are the first ones
    report = _compared(watch, tmp_path)
    assert report.equal and report.cycles == len(SESSION) and not report.unpaired


def test_a_message_clocks_at_most_limit_edges_and_a_session_at_most_cycles(monkeypatch):
    watch = Watch()
    watch.set(resetN=1)
    watch.step(LIMIT + 1)
    assert watch.head == watch.cursor == LIMIT
    monkeypatch.setattr(watch_history, "CYCLES", LIMIT + 100)
    monkeypatch.setattr("sim.watch.watch.CYCLES", LIMIT + 100)
    watch.step(LIMIT)
    assert watch.head == LIMIT + 100
    with pytest.raises(Full, match="20,100 cycles"):
        watch.step()
    watch.back(5)
    assert watch.step(5)["cycle"] == LIMIT + 100       # forward through the history
