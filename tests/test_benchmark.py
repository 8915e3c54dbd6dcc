"""make benchmark's timing (sim.reports.benchmark): every simulator of sim.backends'
table gets its rows through the protocol's `run`, each row the simulation alone, and a
slow figure is timed once. The whole run is make benchmark's journey (test_journeys)."""

import numpy as np
import pytest

from sim.backends import SIMULATORS, BackendMissing
from sim.reports.benchmark import speeds, timing, workload


class Clock:
    """A clock that moves only when a fake simulator says it worked."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Fake:
    """A simulator of the protocol that takes `setup` seconds to make its lanes and
    `per_clock` a clock of a lane, on `clock`."""
    lanes = None

    def __init__(self, clock, setup, per_clock, name="fake"):
        self.clock, self.setup, self.per_clock, self.name = clock, setup, per_clock, name

    def run(self, inputs, lengths, power_up=None):
        self.clock.now += self.setup + self.per_clock * int(np.sum(lengths))
        return np.zeros((*inputs.shape[:2], 1), np.uint32)


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(timing.time, "perf_counter", clock)
    return clock


def test_a_run_is_timed_as_the_simulation_alone(clock):
    fake = Fake(clock, setup=3.0, per_clock=0.001)
    inputs = np.zeros((2, 1000, 4), np.uint32)
    runs, outputs, inside = timing.run_timed(fake, inputs, np.full(2, 1000), repeats=3)
    # Making the lanes (3 s) is taken off each of the runs of 2000 clocks.
    assert runs == pytest.approx([2.0] * 3) and outputs.shape == (2, 1000, 1)
    assert not inside


def test_a_slow_figure_is_timed_fewer_times(clock):
    def slow():
        clock.now += 6.0
    runs, _ = timing.timed(slow, 5)
    assert runs == [6.0, 6.0]               # past the budget after two
    runs, _ = timing.timed(slow, 5, budget=None)
    assert len(runs) == 5


def test_every_simulator_of_the_table_has_its_rows(clock, monkeypatch):
    # Fast simulators run the sessions on one chip and side by side; a slow one on one
    # chip alone; one that cannot run here says why.
    speed = {"bitlanes": None, "amaranth": 1e-3}

    def make(name, game, **options):
        if speed.get(name, 1e-7) is None:
            raise BackendMissing(f"no {name} here")
        return Fake(clock, setup=0.5, per_clock=speed.get(name, 1e-7), name=name)
    monkeypatch.setattr(speeds.backends, "make", make)
    one, many = workload.sessions(1), workload.sessions(8)
    rows = [row for name in SIMULATORS
            for row in speeds.simulator_rows(name, one, many, 1, lambda text: None)]
    by = {(row["simulator"], row["mode"]): row for row in rows}
    assert {row["simulator"] for row in rows} == {timing.title(n) for n in SIMULATORS}
    assert by[timing.PEER, "1 session, one chip, batch"]["cycles_per_s"] == \
        pytest.approx(1e7)
    assert by[timing.PEER, "8 lanes, batch"]["cycles"] == 8 * workload.SESSION_CYCLES
    assert by[timing.title("amaranth"), "1 session, one chip"]["cycles_per_s"] == \
        pytest.approx(1e3)
    assert not any(row["simulator"] == timing.title("amaranth") and "lanes" in row["mode"]
                   for row in rows)
    assert by[timing.title("bitlanes"), "1 session, one chip"]["missing"] == \
        "no bitlanes here"


def test_the_benchmark_reports_the_classrooms_figures_as_it_is_given_them():
    # make benchmark measures make serve under load through ttt (boards/web/classroom.py).
    from sim.reports.benchmark import console, report
    figures = {"class": {"pupils": 30, "sessions": 32, "think_s": [0.5, 2.0], "median_ms": 61.2, "p95_ms": 140.4,
                         "worst_ms": 201.0, "moves": 150, "rss_before_mb": 80.2,
                         "rss_playing_mb": 190.7, "rss_after_mb": 95.1},
               "rush": {"median_ms": 90.4, "p95_ms": 170.2, "worst_ms": 250.0, "moves": 150},
               "flood": {"edges": 100_000, "steps": 12, "median_ms": 30.0, "p95_ms": 70.0,
                         "worst_ms": 88.8, "moves": 15},
               "one_page_mb": 21.4, "cores": 2}
    measured = console.measured(lambda: figures, "", quick=False, log=lambda text: None)
    text = "\n".join(report.classroom_section(measured))
    assert "| 30 pages at once (`--sessions 32`), each pausing 0.5 to 2 s before a key, 150 " \
           "moves | 61 ms | 140 ms | 201 ms |" in text
    assert "(12 steps of 100,000 edges), 15 moves | 30 ms | 70 ms | 89 ms |" in text
    assert "| the same pages pressing at the same instant, 150 moves | 90 ms | 170 ms | " \
           "250 ms |" in text
    assert "80 MB before the 30 pages, 191 MB as they finished, 95 MB once they had left; " \
           "the most one page added: 21 MB. On 2 cores." in text
    quick = console.measured(lambda: figures, "", quick=True, log=lambda text: None)
    assert report.classroom_section(quick)[-1] == "missing: not run with --quick"
