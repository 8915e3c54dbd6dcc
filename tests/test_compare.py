"""The waveform comparer (sim.waves.compare) and the golden waves it checks the HDL against."""

import pytest
from vcd import VCDWriter

from sim.chip import golden_waves
from sim.waves import compare
from sim.bench import lockstep
from sim.chip import e2
from boards.ttt import main as ttt
from sim.waves.files import read
from user import first_line, last_line, make

CYCLES = 10


def _write(path, *, flip=None, unknown=None, state=None, timescale="1 ns"):
    """A small VCD: cp with rising edges at 10, 20, ...; a 4-bit counter `count`
    (changing at each rising edge), a 1-bit `odd` and a string `mode`. `flip` =
    (cycle, bit) inverts one bit of count for that one cycle; `unknown` = a cycle where
    count is x; `state` = a cycle where mode is a different string."""
    scale = 1000 if timescale == "1 ps" else 1
    with open(path, "w") as file, VCDWriter(file, timescale=timescale, date="") as vcd:
        cp = vcd.register_var("ttt_chip", "cp", "wire", size=1)
        count = vcd.register_var("ttt_chip.move", "count", "wire", size=4)
        odd = vcd.register_var("ttt_chip.move", "odd", "wire", size=1)
        mode = vcd.register_var("ttt_chip.controller", "mode", "string")
        vcd.change(cp, 0, 0)
        for cycle in range(CYCLES + 1):
            time = 10 * cycle * scale
            value = cycle % 16
            if flip and flip[0] == cycle:
                value ^= 1 << flip[1]
            vcd.change(count, time, "x" if unknown == cycle else value)
            vcd.change(odd, time, cycle & 1)
            vcd.change(mode, time, "other" if state == cycle else "run")
            if cycle:
                vcd.change(cp, time, 1)
                vcd.change(cp, time + 5 * scale, 0)
        vcd.close(10 * (CYCLES + 1) * scale)


def test_equal_files_compare_equal(tmp_path):
    _write(tmp_path / "a.vcd")
    _write(tmp_path / "b.vcd", timescale="1 ps")    # same instants, another unit
    report = compare.compare(tmp_path / "a.vcd", tmp_path / "b.vcd", enums={})
    assert report.equal and not report.unpaired
    assert set(report.pairs) == {"move.count", "move.odd", "controller.mode"}
    assert report.cycles == CYCLES and report.samples == 2 * CYCLES + 1
    assert "no difference" in report.summary()


def test_one_bit_of_one_cycle_is_found_exactly(tmp_path):
    _write(tmp_path / "a.vcd")
    _write(tmp_path / "b.vcd", flip=(6, 2))
    report = compare.compare(tmp_path / "a.vcd", tmp_path / "b.vcd", enums={})
    assert {(d.signal, d.cycle) for d in report.differences} == {("move.count", 6)}
    first = report.differences[0]
    assert (first.edge, float(first.seconds)) == ("falling", 65e-9)
    assert first.expected == "6 (0b0110)" and first.actual == "2 (0b0010)"
    text = report.summary()
    assert "FIRST DIFFERENCE at 65 ns (cycle 6, just before a falling edge): move.count " \
           "is 2 (0b0010) in the actual waves, 6 (0b0110) in the expected" in text
    assert "move.count: 1 cycles, first cycle 6" in text
    assert ttt(["compare", str(tmp_path / "a.vcd"), str(tmp_path / "b.vcd")]) == 1
    assert ttt(["compare", str(tmp_path / "a.vcd"), str(tmp_path / "a.vcd")]) == 0


def test_strings_and_signal_patterns(tmp_path):
    _write(tmp_path / "a.vcd")
    _write(tmp_path / "b.vcd", state=3)
    report = compare.compare(tmp_path / "a.vcd", tmp_path / "b.vcd", enums={})
    assert {(d.signal, d.cycle, d.expected, d.actual) for d in report.differences} == \
        {("controller.mode", 3, "run", "other")}
    only = compare.compare(tmp_path / "a.vcd", tmp_path / "b.vcd", enums={},
                           signals=["move.*"])
    assert only.equal and set(only.pairs) == {"move.count", "move.odd"}


def test_x_on_either_side_is_not_compared_but_no_value_is(tmp_path):
    _write(tmp_path / "a.vcd")
    _write(tmp_path / "x.vcd", unknown=4)
    there = compare.compare(tmp_path / "x.vcd", tmp_path / "a.vcd", enums={})
    back = compare.compare(tmp_path / "a.vcd", tmp_path / "x.vcd", enums={})
    assert there.equal and back.equal
    assert (there.dont_care, there.unknown_actual) == (2, 0)
    assert (back.dont_care, back.unknown_actual) == (0, 2)
    assert "2 samples had unknown (x) bits in the actual waves" in back.summary()
    # A file whose values start late holds none where the other does: that differs.
    text = (tmp_path / "a.vcd").read_text()
    (tmp_path / "late.vcd").write_text(text.replace("#0\n", "#10\n", 1))
    report = compare.compare(tmp_path / "a.vcd", tmp_path / "late.vcd", enums={})
    assert {d.actual for d in report.differences} == {"(no value)"}
    assert {d.cycle for d in report.differences} == {0}
    # x at every edge checks nothing: an undriven signal is a difference, one way only.
    lines = text.splitlines()
    count = next(line.split()[3] for line in lines if " count " in line)
    undriven = "\n".join(f"bx {count}" if line.startswith("b") and line.endswith(count)
                          else line for line in lines) + "\n"
    (tmp_path / "undriven.vcd").write_text(undriven)
    report = compare.compare(tmp_path / "a.vcd", tmp_path / "undriven.vcd", enums={})
    assert [(d.signal, d.actual) for d in report.differences] == \
        [("move.count", "x throughout")]
    assert compare.compare(tmp_path / "undriven.vcd", tmp_path / "a.vcd", enums={}).equal


def test_signals_pair_by_their_whole_path(tmp_path):
    # Two signals named odd, in two scopes, and a simulator's own copy of the pins: a
    # file equals itself, and each odd is compared with its own partner only.
    def write(path, *, flip_pin=False):
        with open(path, "w") as file, VCDWriter(file, timescale="1 ns", date="") as vcd:
            cp = vcd.register_var("ttt_chip", "cp", "wire", size=1)
            odd = vcd.register_var("ttt_chip.move", "odd", "wire", size=1)
            pin = vcd.register_var("ttt_chip", "odd", "wire", size=1)
            copy = vcd.register_var("$rootio", "odd", "wire", size=1)
            copy_cp = vcd.register_var("$rootio", "cp", "wire", size=1)
            vcd.change(cp, 0, 0)
            for cycle in range(CYCLES + 1):
                time = 10 * cycle
                vcd.change(odd, time, cycle & 1)
                vcd.change(pin, time, (cycle == 3) ^ flip_pin)
                vcd.change(copy, time, 1)
                if cycle:
                    for level, at in ((1, time), (0, time + 5)):
                        vcd.change(cp, at, level)
                        vcd.change(copy_cp, at, level)
            vcd.close(10 * (CYCLES + 1))
    write(tmp_path / "a.vcd")
    write(tmp_path / "b.vcd", flip_pin=True)
    same = compare.compare(tmp_path / "a.vcd", tmp_path / "a.vcd", enums={})
    assert same.equal and sorted(same.pairs) == ["move.odd", "odd"]
    assert not same.unpaired                    # $rootio is not the design's
    report = compare.compare(tmp_path / "a.vcd", tmp_path / "b.vcd", enums={})
    assert {d.signal for d in report.differences} == {"odd"}


def _refused(capture, expected, actual):
    """What `ttt compare` says: one line.
    With `capfd` as `capture`, nothing else reaches the process's stdout or stderr."""
    status = ttt(["compare", str(expected), str(actual)])
    out, err = capture.readouterr()
    assert status == 2 and err.startswith("error: cannot compare: "), err
    assert err.count("\n") == 1, err
    assert not out, out
    return err


def test_bad_files_are_refused_plainly(tmp_path, capsys):
    _write(tmp_path / "a.vcd")
    assert "none.vcd: no such file" in _refused(capsys, tmp_path / "a.vcd",
                                                tmp_path / "none.vcd")
    assert "is a directory" in _refused(capsys, tmp_path / "a.vcd", tmp_path)
    (tmp_path / "junk.vcd").write_text("hello world\n")
    assert "not a VCD file" in _refused(capsys, tmp_path / "a.vcd", tmp_path / "junk.vcd")
    (tmp_path / "empty.vcd").write_text("")
    _refused(capsys, tmp_path / "empty.vcd", tmp_path / "a.vcd")
    (tmp_path / "junk.fst").write_bytes(b"\x00\x01not an fst")
    assert "cannot read it as FST" in _refused(capsys, tmp_path / "junk.fst",
                                               tmp_path / "a.vcd")
    with open(tmp_path / "noclock.vcd", "w") as file, VCDWriter(file, date="") as vcd:
        vcd.change(vcd.register_var("top", "q", "wire", size=1), 0, 0)
    assert "no clock" in _refused(capsys, tmp_path / "a.vcd", tmp_path / "noclock.vcd")
    assert ttt(["compare", str(tmp_path / "a.vcd"), str(tmp_path / "a.vcd"),
                "--signals", "nothing.*"]) == 2
    assert "matches nothing.*" in capsys.readouterr().err


def test_a_file_cut_short_is_refused_not_trusted(tmp_path, capsys):
    """What an interrupted run leaves: the file cut in the middle of a declaration, a
    time or a value change."""
    _write(tmp_path / "a.vcd")
    text = (tmp_path / "a.vcd").read_text()
    cuts = {"a declaration": text.index("$var") + 8,
            "a time": text.index("#105") + 3,          # reads as #10, after #100
            "a value change": text.rindex("\nb") + 4}
    for where, cut in cuts.items():
        (tmp_path / "cut.vcd").write_text(text[:cut])
        err = _refused(capsys, tmp_path / "a.vcd", tmp_path / "cut.vcd")
        assert "cut short" in err, where


def test_a_file_cut_in_a_variables_name_is_refused(tmp_path, capsys):
    # With more than 94 variables the writer names some with two characters: a change
    # of q99 cut after the first character of its name in the file reads as a whole
    # change of the variable that character names (q5), but for the line's end.
    with open(tmp_path / "many.vcd", "w") as file, \
            VCDWriter(file, timescale="1 ns", date="") as vcd:
        cp = vcd.register_var("ttt_chip", "cp", "wire", size=1)
        bits = [vcd.register_var("ttt_chip", f"q{n}", "wire", size=1) for n in range(100)]
        for cycle in range(4):
            vcd.change(cp, 10 * cycle, 0)
            vcd.change(cp, 10 * cycle + 5, 1)
            for n, bit in enumerate(bits):
                vcd.change(bit, 10 * cycle + 5, (cycle + n) & 1)
        vcd.close(40)
    text = (tmp_path / "many.vcd").read_text()
    code = next(line.split()[3] for line in text.splitlines() if line.endswith(" q99 $end"))
    assert len(code) == 2 and f" {code[0]} q" in text
    (tmp_path / "cut.vcd").write_text(text[:text.rindex(f"{code}\n") + 1])
    assert "cut short" in _refused(capsys, tmp_path / "many.vcd", tmp_path / "cut.vcd")


def test_what_pywellen_prints_is_not_shown(tmp_path, capfd):
    """pywellen's Rust prints its warnings and panics on the process's own stdout and
    stderr: the user sees one line all the same."""
    _write(tmp_path / "a.vcd")
    text = (tmp_path / "a.vcd").read_text()
    # A time that goes back in the middle of a file (pywellen skips it with a warning).
    (tmp_path / "back.vcd").write_text(text.replace("#50\n", "#5\n", 1))
    assert "time goes back from 45 to 5" in _refused(capfd, tmp_path / "a.vcd",
                                                     tmp_path / "back.vcd")
    # A value wider than its variable (pywellen panics).
    count = next(line.split()[3] for line in text.splitlines() if " count " in line)
    (tmp_path / "wide.vcd").write_text(text.replace(f"b110 {count}\n",
                                                    f"b110110 {count}\n", 1))
    assert "not one simulator's" in _refused(capfd, tmp_path / "a.vcd",
                                             tmp_path / "wide.vcd")


def test_a_file_cut_between_two_times_is_not_equal(tmp_path, capsys):
    # Cut cleanly before the last edges, where nothing changes: the values it holds are
    # the same, but the waves do not cover the expected's.
    _write(tmp_path / "a.vcd")
    text = (tmp_path / "a.vcd").read_text()
    (tmp_path / "cut.vcd").write_text(text[:text.index("#95\n")])
    report = compare.compare(tmp_path / "a.vcd", tmp_path / "cut.vcd", enums={},
                             signals=["controller.mode"])
    assert not report.differences and not report.equal
    assert float(report.ends_early) == 90e-9
    assert ttt(["compare", str(tmp_path / "a.vcd"), str(tmp_path / "cut.vcd"),
                "--signals", "controller.mode"]) == 1
    assert "the actual waves do not cover the expected's" in capsys.readouterr().out


def test_make_compare_says_equal_different_or_cannot_compare(tmp_path):
    # make exits 2 on any failing recipe, so its last line from the comparer says which
    # (docs/decisions.md); make's own line after it carries the comparer's status.
    _write(tmp_path / "a.vcd")
    _write(tmp_path / "b.vcd", flip=(6, 2))

    def compared(actual):
        return make("compare", f"EXPECTED={tmp_path / 'a.vcd'}", f"ACTUAL={actual}")
    equal = compared(tmp_path / "a.vcd")
    assert equal.returncode == 0 and last_line(equal) == "no difference"
    assert first_line(equal) == f"expected: {tmp_path / 'a.vcd'}"
    different = compared(tmp_path / "b.vcd")
    assert different.returncode == 2
    assert different.stdout.splitlines()[-1] == ("DIFFERENT: 1 signal differs, the first "
                                                 "(move.count) at cycle 6")
    assert last_line(different).endswith("Error 1")
    refused = compared(tmp_path / "none.vcd")
    assert refused.returncode == 2
    assert refused.stderr.splitlines()[0].startswith("error: cannot compare: ")
    assert last_line(refused).endswith("Error 2")


def test_ctrl_c_is_interrupted(tmp_path, capsys, monkeypatch):
    _write(tmp_path / "a.vcd")

    def interrupted(path):
        raise KeyboardInterrupt
    monkeypatch.setattr(compare, "read", interrupted)
    assert ttt(["compare", str(tmp_path / "a.vcd"), str(tmp_path / "a.vcd")]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"


@pytest.fixture(scope="module")
def e2_waves(tmp_path_factory):
    """The golden model's and the Amaranth chip's waves of E.2."""
    where = tmp_path_factory.mktemp("e2")
    golden_waves.write_session(where / "golden.vcd", e2.SESSION)
    lockstep.simulate(lockstep.replaying_e2,
                      vcd=str(where / "hdl.vcd"))
    return where / "golden.vcd", where / "hdl.vcd"


def test_golden_waves_match_the_amaranth_chips(e2_waves):
    golden, hdl = e2_waves
    report = compare.compare(golden, hdl)
    assert report.equal, report.summary()
    # Every golden signal found its partner, enums (strings in Amaranth's file) too.
    assert not report.unpaired and len(report.pairs) == 29
    assert "controller.state" in report.pairs
    assert report.cycles == len(e2.SESSION)
    # The paper's 'u' cells are x in the golden waves, and not compared.
    assert report.dont_care > 0


def test_golden_waves_hold_the_trace(e2_waves):
    golden = read(e2_waves[0])
    by_name = {v.name: v for v in golden.vars}
    state, led = by_name["ttt_chip.controller.state"], by_name["ttt_chip.led"]
    rows = {row.time: row for row in e2.paper_rows()}
    for time in (200, 1400, 2000, 8800, 10000):
        ns = time                                    # the golden waves are in ns
        assert int(state.at(ns), 2) == int(rows[time]["state"]), time
        assert int(led.at(ns), 2) == int(rows[time]["led"], 2), time
    assert by_name["ttt_chip.i"].at(200) == "xxxx"      # 'u' in E.2


def test_a_broken_model_is_caught_in_the_waves(e2_waves, tmp_path, monkeypatch):
    # A golden model that forgets copyboard while it waits: the comparer must name it.
    from firmware_ref.eth import cycle
    monkeypatch.setattr(cycle, "_PROMPT", cycle._Controls(prompt=True))
    golden_waves.write_session(tmp_path / "broken.vcd", e2.SESSION)
    report = compare.compare(tmp_path / "broken.vcd", e2_waves[1])
    first = report.differences[0]
    assert (first.signal, first.expected, first.actual) == ("copyboard", "0", "1")
    assert {d.signal for d in report.differences} == {"copyboard"}


def test_golden_waves_run_the_protocols(tmp_path):
    # GoldenWaves is a chip on a bench like CycleModel: the pin protocols drive it.
    from firmware_ref.cartridge import board_places
    from firmware_ref.eth.cycle import CycleModel
    from firmware_ref.eth.pins import clocked, pressing, starting
    with open(tmp_path / "game.vcd", "w") as file:
        waves = golden_waves.GoldenWaves(file)
        clocked(waves, starting(waves, userbegins=True))
        thought = clocked(waves, pressing(waves, 4))
        waves.close()
    plain = CycleModel()
    clocked(plain, starting(plain, userbegins=True))
    assert len(thought) == len(clocked(plain, pressing(plain, 4)))
    board = {v.name: v for v in read(tmp_path / "game.vcd").vars}["ttt_chip.board.board"]
    assert int(board.values[-1], 2) == plain.board and board_places(plain.board)[4] == 2
