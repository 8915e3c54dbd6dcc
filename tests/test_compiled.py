"""The compiled chip (CXXRTL, sim.backends.compiled) and the batch lockstep
(sim.cartridges.lockstep, as sim.verification.verify runs it).

The pin-level lockstep tests that Amaranth's simulator runs also run on the compiled
chip: see tests/test_lockstep.py. Here: the build and its cache, the pin and batch
interfaces, and every game in batch against the golden model.
"""

import random
import re

import numpy as np
import pytest

from firmware_ref.eth import cycle
from firmware_ref.eth.batch import INPUT_COLUMNS, PROBE_COLUMNS, UNKNOWN, columns, record_session
from sim import Mismatch, catalogue
from sim.backends import compiled
from sim.cartridges.recording import recorded
from sim.verification import verify
from sim.chip.signals import PROBE_PATHS
from sim.chip.stimulus import random_session


def _sessions(count, edges=1500):
    return [random_session(random.Random(seed), edges) for seed in range(count)]


def _inputs(sessions):
    return np.array([[[getattr(i, c) for c in INPUT_COLUMNS] for i in s] for s in sessions],
                    np.uint32)


def _twins(wrapper=compiled.WRAPPER):
    """A design of two registers with the same next value, and ``a ^ i`` written twice
    by Amaranth: (its RTLIL, the Design the wrapper `wrapper` builds of it)."""
    from amaranth.back import rtlil
    from amaranth.hdl import ClockDomain, Module, Signal
    m = Module()
    cp, i, a, b, o = (Signal(name=name) for name in ("cp", "i", "a", "b", "o"))
    m.domains.sync = sync = ClockDomain("sync", reset_less=True)
    m.d.comb += sync.clk.eq(cp)
    m.d.sync += [a.eq(i), b.eq(i)]                  # two registers, the same next value
    m.d.comb += o.eq((a ^ i) & (b ^ i) | (a ^ i))   # a ^ i emitted twice by Amaranth
    text = rtlil.convert(m, name="twins", ports=[cp, i, o])
    return text, compiled.Design("twins", text, wrapper, "twins")


def test_the_build_is_cached_and_keyed_by_what_goes_in(tmp_path, monkeypatch):
    # A small design: the chip's own build is every compiled test's.
    _, design = _twins()
    built = compiled.library(design, cache=tmp_path)
    assert built.exists() and (built.parent / "design.cc").exists()
    assert "p_twins" in (built.parent / "design.h").read_text()

    def no_build(*args, **kwargs):
        raise AssertionError("built again although the cache holds this build")
    monkeypatch.setattr(compiled, "run_tool", no_build)
    assert compiled.library(_twins()[1], cache=tmp_path) == built
    # A different wrapper is a different build.
    wrapper = tmp_path / "wrapper.cc"
    wrapper.write_text(compiled.WRAPPER.read_text() + "\n// changed\n")
    with pytest.raises(AssertionError, match="built again"):
        compiled.library(_twins(wrapper)[1], cache=tmp_path)


def test_a_cartridges_first_build_says_about_how_long_it_takes(monkeypatch):
    # As every one-time build does (the catalogue's figure): the journeys read past such
    # a line to a command's own first line, whichever command builds the cartridge first.
    asked = {}

    def cached(*args, doing, seconds=None, **kwargs):
        asked[doing] = seconds
        raise compiled.BackendMissing("not built here")
    monkeypatch.setattr(compiled, "cached", cached)
    with pytest.raises(compiled.BackendMissing):
        compiled.Compiled(catalogue.game("firstfree"))
    assert asked == {"compiling the firstfree cartridge with CXXRTL":
                     catalogue.game("firstfree").build_s}
    assert catalogue.game("firstfree").build_s > 0


def test_identical_logic_is_built_once_and_each_register_stays_its_own(tmp_path):
    text, design = _twins()
    assert text.count("cell $xor") == 3
    built = compiled.library(design, cache=tmp_path)
    design = (built.parent / "design.cc").read_text()       # a ^ i once, b ^ i once
    assert design[design.index("::eval("):design.index("::debug_eval(")].count("xor_uu") == 2
    lib = compiled.load(built, compiled.wrapper_signatures())
    handle = lib.ttt_create(1)
    try:
        pin, first, second = (lib.ttt_signal(handle, name.encode()) for name in "iab")
        lib.ttt_set(handle, 0, pin, 1)
        lib.ttt_step(handle, 1)
        assert (lib.ttt_get(handle, 0, first), lib.ttt_get(handle, 0, second)) == (1, 1)
        lib.ttt_set(handle, 0, first, 0)            # forced by its name, alone
        assert (lib.ttt_get(handle, 0, first), lib.ttt_get(handle, 0, second)) == (0, 1)
    finally:
        lib.ttt_destroy(handle)


def test_a_missing_compiler_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("CXX", "no-such-c++")
    with pytest.raises(compiled.BackendMissing, match="no C.. compiler: 'no-such-c..'"):
        compiled.library(cache=tmp_path)
    # Every faster backend compiles C++ (Verilator too): make verify falls back to
    # Amaranth and says why for each, fastest first.
    backend, skipped = verify.fastest()
    assert backend == "amaranth"
    assert [reason.split(":")[0] for reason in skipped] == [
        verify.BITLANES, verify.PLAIN_VERILATOR, "compiled", "verilator"]
    assert all("C++ compiler" in reason for reason in skipped), skipped


def test_batch_lanes_are_independent_chips_that_agree_with_the_golden_model():
    sessions = _sessions(12)
    power_up = [n % 8 for n in range(12)]
    chips = compiled.chip(12, random=power_up)
    lengths = np.array([1500 - 100 * (n % 3) for n in range(12)])
    actual = chips.run(_inputs(sessions), lengths)
    assert actual.shape == (12, 1500, len(PROBE_PATHS))
    for n, session in enumerate(sessions):
        golden = record_session(session[:lengths[n]], random=power_up[n])
        inputs, expected = columns(golden.rows)
        known = expected != UNKNOWN
        assert (actual[n, :lengths[n]][known] == expected[known]).all(), f"lane {n}"
        assert not actual[n, lengths[n]:].any()     # nothing past a lane's length
    # The batch is what stepping one chip at its pins gives.
    one = compiled.chip(1, random=power_up[5])
    for c, pins in enumerate(sessions[5][:300]):
        one.set(0, **{name: getattr(pins, name) for name in INPUT_COLUMNS})
        one.step()
        assert [one.get(0, path) for path in PROBE_PATHS.values()] == \
            actual[5, c].tolist(), f"cycle {c + 1}"


def test_the_pin_interface_reads_widths_and_refuses_what_is_not_there():
    chips = compiled.chip(2)
    assert chips.width("led") == 18 and chips.width("controller.state") == 3
    chips.set(1, resetN=0)
    chips.step(2)
    assert chips.get(1, "controller.state") == cycle.State.JUSTRESET
    assert chips.get(1, "move.random") == 2         # counts every edge from 0
    with pytest.raises(KeyError, match="no signal 'controller.nope'"):
        chips.get(0, "controller.nope")
    with pytest.raises(KeyError, match="wider than 32 bits"):
        chips.get(0, "stack.stackregs")
    with pytest.raises(ValueError, match=r"inputs are \(1, 5, 4\), not \(2, cycles, 4\)"):
        chips.run(np.zeros((1, 5, 4)))
    with pytest.raises(ValueError, match="lengths must be 2 values from 0 to 5"):
        chips.run(np.zeros((2, 5, 4)), [5, 6])
    with pytest.raises(ValueError, match="at least one lane"):
        compiled.chip(0)


# make verify itself, every game in batch, is its journey's (tests/test_journeys.py).

def test_verify_names_the_first_difference(monkeypatch):
    # A golden model that forgets copyboard while it waits: the batch must say where.
    monkeypatch.setattr(cycle, "_PROMPT", cycle._Controls(prompt=True))
    recording = recorded(catalogue.CHIP, cache=False).part([0, 1, 2])
    chips = compiled.Compiled(catalogue.CHIP)
    actual = chips.run(recording.lanes(), recording.lengths, recording.power_up)
    with pytest.raises(Mismatch) as caught:
        recording.compare(actual, chips.outputs)
    text = str(caught.value)
    assert text.startswith("cycle 2 of lane 0 (the user begins): copyboard is 1 in the "
                           "chip, 0 in the golden model")
    assert " ".join(PROBE_COLUMNS) in text
    assert len(re.findall(r"^ +\d+ model \[", text, re.M)) == 2
