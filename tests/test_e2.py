"""The paper's Appendix E.2 trace, row for row, on the golden model."""

import dataclasses

import pytest

from firmware_ref.eth import cycle
from firmware_ref.eth.cycle import State
from sim.chip import e2


@pytest.fixture(scope="module")
def paper():
    return e2.paper_rows()


def test_every_row_and_column_matches_the_paper(paper):
    model = e2.replay()
    assert len(paper) == len(model) == 100
    assert [r.time for r in model] == [r.time for r in paper]
    assert e2.compare(model, paper) == []


def test_the_session_is_what_e1_scripts():
    # E.1: reset during the first edge, userbegins high, 50 edges in all.
    assert len(e2.SESSION) == 50
    assert [i.resetN for i in e2.SESSION[:2]] == [0, 1]
    assert all(i.userbegins for i in e2.SESSION)
    assert [n for n, i in enumerate(e2.SESSION) if i.piN] == [3, 4, 5]


def test_repair_restores_only_what_the_scan_lost(paper):
    scanned = [line.split() for line in e2.TRACE.read_text().splitlines()
               if line and not line.startswith("#")]
    for row, fields in zip(paper, scanned):
        assert len(fields[3]) == 8 and len(row["keyboardN"]) == 9
        assert e2._lost_a_one(row["keyboardN"], fields[3]), row.time
        kept = [f for k, f in enumerate(row.fields) if k != 3 and f]
        if row.time in (1800, 1900, 2000, 2100):
            assert len(kept) == len(fields) and row["prompt"] == "0"
        else:
            assert kept == [f for k, f in enumerate(fields) if k != 3]
    keys = [9 - 1 - r["keyboardN"].index("0") for r in paper if "0" in r["keyboardN"]]
    assert keys == [2, 2, 3, 3, 1, 1, 4, 4, 5, 5, 7, 7, 8, 8]


def test_a_broken_fixture_is_refused(tmp_path):
    text = e2.TRACE.read_text().replace("1300.0 1 0 10111111", "1300.0 1 0 10110111")
    broken = tmp_path / "e2.txt"
    broken.write_text(text)
    with pytest.raises(ValueError, match="row 1300"):
        e2.paper_rows(broken)


def _first_difference(paper):
    differences = e2.compare(e2.replay(), paper)
    assert differences, "the mutated model still matches the paper"
    return differences[0].time, differences[0].column


# Each mutation changes one thing the chip does; the E.2 comparison must catch it at
# the first row where the paper shows its effect.
@pytest.mark.parametrize("name, value, first", [
    ("_UNDO_AND_NEXT", dict(usei=False), (3000, "usei")),
    ("_PROMPT", dict(copyboard=False), (7800, "copyboard")),
    ("_SHOW_AND_SEARCH", dict(nexti=False), (1600, "nexti")),
    ("_SET_I", dict(choose=cycle.Choose.M), (1800, "choose")),
    ("_CHIP_OPENS", dict(toggle=False), None),          # unused by E.2: must not show
])
def test_breaking_an_output_breaks_the_comparison(monkeypatch, paper, name, value, first):
    monkeypatch.setattr(cycle, name, dataclasses.replace(getattr(cycle, name), **value))
    if first is None:
        assert e2.compare(e2.replay(), paper) == []
    else:
        assert _first_difference(paper) == first


def test_breaking_a_transition_breaks_the_comparison(monkeypatch, paper):
    # userjustmoved -> finished instead of -> setboardi: the chip never thinks.
    original = cycle.CycleModel._userjustmoved

    def gives_up(self):
        yield from original(self)
        return State.FINISHED
    monkeypatch.setattr(cycle.CycleModel, "_userjustmoved", gives_up)
    assert _first_difference(paper) == (1800, "state")


def test_breaking_the_key_stone_breaks_the_comparison(monkeypatch, paper):
    monkeypatch.setattr(cycle, "USER", cycle.CHIP)
    assert _first_difference(paper) == (400, "led")


def test_think_times_agree_with_the_papers_rows(paper):
    model = e2.think_times(e2.replay())
    assert model == e2.think_times(paper)
    assert [state for state, _ in model] == [State.WAITING, State.FINISHED]


def test_ttt_e2_on_the_golden_model(capsys, tmp_path):
    from sim.bench import session
    assert session.report(golden=True, build=tmp_path / "build") == 0   # build/ stays clean
    assert (tmp_path / "build" / "e2_golden.vcd").exists()
    assert not (tmp_path / "build" / "e2.vcd").exists()
    out = capsys.readouterr().out
    assert "replayed on the golden model" in out and "All 100 rows match" in out
    cycles = [c for _, c in e2.think_times(e2.replay())]
    assert f"move 1: {cycles[0]} cycles = {cycles[0] / 6:.2f} us" in out
    assert "Golden waves: build/e2_golden.vcd" in out


def test_ttt_e2_on_the_hdl_writes_waves(capsys, tmp_path):
    from sim.bench import session
    build = tmp_path / "build"
    assert session.report(clock=12, build=build) == 0
    out = capsys.readouterr().out
    assert "replayed on the Amaranth chip" in out and "All 100 rows match" in out
    assert "move 1: 31 cycles = 2.58 us" in out
    assert "Waves: build/e2.vcd with the GTKWave view e2.gtkw" in out
    assert "Golden waves: build/e2_golden.vcd" in out
    assert "$scope module ttt_chip" in (build / "e2_golden.vcd").read_text()
    assert "state.filter" in (build / "e2_golden.gtkw").read_text()
    vcd = (build / "e2.vcd").read_text()
    assert "$var string" in vcd and "setboardi" in vcd       # the state by name
    gtkw = (build / "e2.gtkw").read_text()
    from sim.waves.gtkw import zoom       # opens on the first 2 us of waves in ns
    assert str(build / "e2.vcd") in gtkw and f"\n*{zoom(1e-9):.6f} " in gtkw
    for group in ("pins", "controller", "board", "move", "value", "stack", "keyboard"):
        assert f"-{group}" in gtkw
