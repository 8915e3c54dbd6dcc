"""The block tests' bench (tests/bench.py) on a counter small enough to reason about:
the clock and testbenches, waves only when asked and only under build/, the held and
pulsed inputs, the bounded wait that fails instead of hanging, and the refusal check."""

import gc
import warnings

import pytest
from amaranth.hdl import Module, UnusedElaboratable
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

import bench
from bench import (elaborated, frame_bits, hold, pulse, refuses, simulate, until,
                   waves_path)


class Counter(wiring.Component):
    """Counts the edges at which ``en`` is high; ``odd`` is its low bit, combinational."""

    en: In(1)
    count: Out(8)
    odd: Out(1)

    def elaborate(self, platform):
        m = Module()
        with m.If(self.en):
            m.d.sync += self.count.eq(self.count + 1)
        m.d.comb += self.odd.eq(self.count[0])
        return m


class Parity(wiring.Component):
    """No register at all: no clock to add."""

    a: In(4)
    odd: Out(1)

    def elaborate(self, platform):
        m = Module()
        m.d.comb += self.odd.eq(self.a.xor())
        return m


class Picky(wiring.Component):
    x: Out(1)

    def __init__(self, width):
        if width < 1:
            raise ValueError("a width of at least 1")
        super().__init__()

    def elaborate(self, platform):
        return Module()


@pytest.fixture
def no_waves(monkeypatch):
    monkeypatch.delenv("HDL_VCD", raising=False)


def test_the_testbenches_run_on_a_clock_and_the_background_one_ends_with_them(no_waves):
    dut = Counter()
    seen = []

    async def testbench(ctx):
        ctx.set(dut.en, 1)
        await ctx.tick().repeat(5)
        assert ctx.get(dut.count) == 5

    async def watch(ctx):               # never returns: it ends when testbench does
        async for _, _, count in ctx.tick().sample(dut.count):
            seen.append(count)

    assert simulate(dut, testbench, background=[watch]) is None
    assert seen == [0, 1, 2, 3, 4]      # sampled at each edge, before it counts


def test_a_block_without_registers_needs_no_clock(no_waves):
    dut = Parity()

    async def testbench(ctx):
        for a in range(16):
            ctx.set(dut.a, a)
            assert ctx.get(dut.odd) == bin(a).count("1") % 2

    simulate(dut, testbench)


def test_hold_keeps_inputs_and_pulse_gives_them_back(no_waves):
    dut = Counter()

    async def testbench(ctx):
        await hold(ctx, dut, clocks=3, en=1)
        assert ctx.get(dut.count) == 3 and ctx.get(dut.en) == 1   # still held
        await ctx.tick()
        assert ctx.get(dut.count) == 4
        ctx.set(dut.en, 0)
        await pulse(ctx, dut, en=1)
        assert ctx.get(dut.count) == 5 and ctx.get(dut.en) == 0   # let go
        await ctx.tick().repeat(3)
        assert ctx.get(dut.count) == 5
        ctx.set(dut.en, 1)
        await pulse(ctx, dut, clocks=2, en=0)                     # and the other way
        assert ctx.get(dut.count) == 5 and ctx.get(dut.en) == 1

    simulate(dut, testbench)


def test_until_counts_the_edges_and_samples_a_value_at_the_edge(no_waves):
    dut = Counter()

    async def testbench(ctx):
        ctx.set(dut.en, 1)
        # A function is asked after each edge: the count is 3 after the third.
        assert await until(ctx, lambda: ctx.get(dut.count) == 3, within=5,
                           what="three") == 3
        # A value is sampled at the edge, before the edge's update: the edge at which
        # the count was 6 is the fourth from here (at 3, 4, 5, 6), and it counted on to 7.
        assert await until(ctx, dut.count == 6, within=5, what="six") == 4
        assert ctx.get(dut.count) == 7
        # Both wait at least one edge, whatever holds now.
        assert await until(ctx, dut.odd, within=1, what="odd") == 1
        assert ctx.get(dut.count) == 8

    simulate(dut, testbench)


@pytest.mark.parametrize("condition", ["value", "function"])
def test_until_fails_on_its_bound_saying_what_it_waited_for(no_waves, condition):
    dut = Counter()
    ticked = []

    async def testbench(ctx):
        ctx.set(dut.en, 1)
        wanted = (dut.count == 99 if condition == "value"
                  else lambda: ctx.get(dut.count) == 99)
        try:
            await until(ctx, wanted, within=10, what="a count of 99")
        finally:
            ticked.append(ctx.get(dut.count))

    with pytest.raises(AssertionError, match=r"^a count of 99: not within 10 clocks$"):
        simulate(dut, testbench)
    assert ticked == [10]                       # it gave up at the bound, not later


def _count_to(dut, n):
    async def testbench(ctx):
        await hold(ctx, dut, clocks=n, en=1)
    return testbench


def test_waves_go_to_the_tests_file_under_build_when_asked(monkeypatch):
    monkeypatch.setenv("HDL_VCD", "1")
    monkeypatch.setattr(bench, "_simulations", bench.collections.Counter())
    name = "test_bench.test_waves_go_to_the_tests_file_under_build_when_asked"
    expected = [bench.ROOT / "build" / "vcd" / f"{name}{suffix}.vcd"
                for suffix in ("", "-2")]
    for path in expected:
        path.unlink(missing_ok=True)
    try:
        dut = Counter()
        assert simulate(dut, _count_to(dut, 3)) == expected[0]
        dut = Counter()
        assert simulate(dut, _count_to(dut, 4)) == expected[1]      # the test's second
        for path, clocks in zip(expected, (3, 4)):
            text = path.read_text()
            assert "count" in text and "$enddefinitions" in text
            assert f"b{clocks:b} " in text                          # the count it reached
    finally:
        for path in expected:
            path.unlink(missing_ok=True)


def test_a_named_simulation_writes_that_name(monkeypatch):
    monkeypatch.setenv("HDL_VCD", "yes")
    path = bench.ROOT / "build" / "vcd" / "bench_named_counter.vcd"
    path.unlink(missing_ok=True)
    monkeypatch.setattr(bench, "_simulations", bench.collections.Counter())
    try:
        dut = Counter()
        assert simulate(dut, _count_to(dut, 2), name="bench named/counter") == path
        assert path.is_file()
    finally:
        path.unlink(missing_ok=True)


@pytest.mark.parametrize("setting", [None, "", "0"])
def test_no_waves_unless_asked(monkeypatch, setting):
    if setting is None:
        monkeypatch.delenv("HDL_VCD", raising=False)
    else:
        monkeypatch.setenv("HDL_VCD", setting)
    monkeypatch.setenv("PYTEST_CURRENT_TEST", "tests/test_bench.py::quiet (call)")
    written = bench.ROOT / "build" / "vcd" / "test_bench.quiet.vcd"
    written.unlink(missing_ok=True)
    dut = Counter()
    assert simulate(dut, _count_to(dut, 2)) is None
    assert waves_path() is None and not written.exists()


# The last check's half-made block outlives its refusal: collected at the end, unheard.
@pytest.mark.filterwarnings("ignore::amaranth.hdl.UnusedElaboratable")
def test_refuses_leaves_no_warning_behind_and_fails_on_a_block_it_accepts():
    elaborated(Counter())       # Amaranth warns of unused blocks only once one was used
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        refuses(Picky, 0, match="at least 1")
        gc.collect()
    assert not [w for w in caught if issubclass(w.category, UnusedElaboratable)]
    with pytest.raises(pytest.fail.Exception, match="DID NOT RAISE"):
        refuses(Picky, 1, match="at least 1")
    with pytest.raises(AssertionError, match="Regex pattern did not match"):
        refuses(Picky, 0, match="at least 2")
    gc.collect()


def test_elaborated_is_the_block_itself_and_counts_as_used():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        used, unused = Counter(), Counter()
        assert elaborated(used) is used
        del used, unused
        gc.collect()
    # One warning, the unused block's: the one elaborated counts as used.
    assert len([w for w in caught if issubclass(w.category, UnusedElaboratable)]) == 1


def test_frame_bits_are_8n1_least_significant_first():
    assert frame_bits(0x01) == [0, 1, 0, 0, 0, 0, 0, 0, 0, 1]
    assert frame_bits(0xA5, stop=0) == [0, 1, 0, 1, 0, 0, 1, 0, 1, 0]
