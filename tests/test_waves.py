"""The waves the project writes of E.2 (the Amaranth chip's, the golden model's, the
netlist's on Verilator and on Icarus), their GTKWave views and `ttt waves`.

Every file compares equal with itself and with each of the others, in both directions,
because all of them name the chip's signals alike (``ttt_chip.controller.state``). The
netlist's waves come of a whole build of the exported Verilog: their tests are make
test-builds'.
"""

import itertools
import re
import subprocess

import pytest

from boards.ttt import main as ttt
from firmware_ref.cartridge import board_places
from hdl.eth.export import TOP
from sim.waves import compare, gtkw, files as waves
from sim.bench import checks, lockstep
from sim.chip import e2, golden_waves
from sim.chip import view as chip_view
from sim.backends import netlist
from sim.chip.signals import WAVES

pytestmark = pytest.mark.early     # the exported netlist's build (make test-builds)

KINDS = ("amaranth", "golden", "verilator", "icarus")
FULL = ("amaranth", "verilator", "icarus")          # every signal of the design
NETLISTS = {"verilator": "netlist.vcd", "icarus": "netlist.fst"}   # cocotb's, and their files


def _params(cases):
    """`cases` (kinds, or pairs of kinds) as parameters; one with a netlist's waves in it
    is a whole build: make test-builds."""
    found = []
    for case in cases:
        kinds = (case,) if isinstance(case, str) else case
        marks = [pytest.mark.build] if set(kinds) & set(NETLISTS) else []
        found.append(pytest.param(*kinds, marks=marks))
    return found


class Written(dict):
    """Each kind of E.2 waves with its view, {kind: (waves, view)}, written the first
    time a test asks for it; the netlist's raise SimulatorMissing where it is missing
    (Icarus is optional, as in test_netlist.py)."""

    def __init__(self, where):
        super().__init__()
        self.where = where

    def __missing__(self, kind):
        where = self.where
        if kind == "amaranth":
            lockstep.simulate(lockstep.replaying_e2,
                              vcd=where / "e2.vcd", gtkw=where / "e2.gtkw")
            made = where / "e2.vcd", where / "e2.gtkw"
        elif kind == "golden":
            golden_waves.write_session(where / "golden.vcd", e2.SESSION)
            made = where / "golden.vcd", chip_view.write(where / "golden.vcd", scope=TOP)
        else:
            netlist.available(kind)
            (result,) = checks.run(lockstep.chip_simulator(kind), ["e2_session"],
                                    waves=where / NETLISTS[kind], logs=where / kind)
            assert result.passed, result.message
            made = where / NETLISTS[kind], netlist.write_gtkw(where / NETLISTS[kind])
        self[kind] = made
        return made


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    return Written(tmp_path_factory.mktemp("waves"))


def _file(files, kind):
    try:
        return files[kind]
    except netlist.SimulatorMissing:
        pytest.skip(f"{kind} is not installed here")


@pytest.mark.parametrize("kind", _params(KINDS))
def test_every_wave_file_equals_itself(files, kind):
    path, _ = _file(files, kind)
    report = compare.compare(path, path)
    assert report.equal, report.summary()
    design = [v for v in waves.read(path).vars if v.path[0] == TOP]
    assert len(report.pairs) == len(design) - 1 and not report.unpaired   # less cp


def _declared(text):
    """The whole names a VCD's header declares, in its order, read line by line: every
    writer here puts a declaration on a line of its own."""
    scopes, names = [], []
    for line in text[:text.index("$enddefinitions")].splitlines():
        words = line.split()
        if words[:1] == ["$scope"]:
            scopes.append(words[2])
        elif words[:1] == ["$upscope"]:
            scopes.pop()
        elif words[:1] == ["$var"]:
            names.append(".".join(scopes + [words[4].removeprefix("\\")]))
    return names


@pytest.mark.parametrize("kind", _params(("amaranth", "golden", "verilator")))
def test_the_reader_gives_every_variable_by_its_whole_name(files, kind):
    """pywellen reads ``stackregs[0]`` as an element of an array ``stackregs``; the
    reader puts the name back together, and keeps the file's order."""
    path, _ = _file(files, kind)
    read = waves.read(path)
    assert [var.name for var in read.vars] == _declared(path.read_text())
    if kind != "golden":
        assert {f"ttt_chip.stack.stackregs[{k}]" for k in range(8)} <= \
            {var.name for var in read.vars}


@pytest.mark.parametrize("expected, actual", _params(itertools.permutations(KINDS, 2)))
def test_any_two_compare_with_no_false_difference(files, expected, actual):
    report = compare.compare(_file(files, expected)[0], _file(files, actual)[0])
    assert report.equal, report.summary()
    assert report.cycles == len(e2.SESSION)
    if expected == "golden":
        assert len(report.pairs) == len(WAVES) - 1 and not report.unpaired
    if expected in FULL and actual in FULL:
        # Every signal of the Amaranth chip is in the netlist under the same name.
        amaranth = waves.read(files["amaranth"][0]).vars
        assert len(report.pairs) >= len(amaranth) - 1                  # less cp
        if expected == "amaranth":
            assert not report.unpaired


@pytest.mark.build
def test_amaranth_waves_are_named_as_the_netlists(files):
    amaranth = waves.read(_file(files, "amaranth")[0])
    verilator = {v.name: v for v in waves.read(_file(files, "verilator")[0]).vars}
    names = [v.name for v in amaranth.vars]
    assert all(name.startswith("ttt_chip.") and "$" not in name for name in names)
    assert "ttt_chip.cp" in names and not any(n.endswith((".clk", ".rst")) for n in names)
    for var in amaranth.vars:
        assert var.name in verilator, var.name
        if not var.is_string:                   # enums: names here, codes there
            assert var.width == verilator[var.name].width, var.name
    assert len(names) > 200


@pytest.mark.parametrize("kind", _params(KINDS))
def test_a_cut_file_of_each_kind_is_refused_in_one_line(files, kind, tmp_path, capfd):
    # What an interrupted simulator leaves; pywellen's own complaints (its Rust prints
    # panics itself) do not reach the user.
    path, _ = _file(files, kind)
    data = path.read_bytes()
    for cut in (len(data) // 4, len(data) // 2, 3 * len(data) // 4):
        if data[cut - 1:cut] == b"\n":
            cut -= 1                # a VCD cut between two lines is a shorter one
        (tmp_path / f"cut{path.suffix}").write_bytes(data[:cut])
        status = ttt(["compare", str(path), str(tmp_path / f"cut{path.suffix}")])
        out, err = capfd.readouterr()
        assert status == 2 and not out, (cut, out, err)
        assert err.startswith("error: cannot compare: ") and err.count("\n") == 1, (cut, err)


@pytest.mark.build
def test_a_difference_in_real_waves_is_found(files, tmp_path):
    # The Amaranth waves with toggleN wrong for one change: compared with the netlist's,
    # that one signal differs, from that change on, and nothing else.
    amaranth = waves.read(_file(files, "amaranth")[0])
    toggle = next(v for v in amaranth.vars if v.name == "ttt_chip.controller.toggleN")
    k = len(toggle.values) // 2
    toggle.values[k] = "1" if toggle.values[k] == "0" else "0"
    waves.write(tmp_path / "broken.vcd", amaranth.vars, amaranth.unit, end=amaranth.end)
    netlist_waves = _file(files, "verilator")[0]
    for expected, actual in ((netlist_waves, tmp_path / "broken.vcd"),
                             (tmp_path / "broken.vcd", netlist_waves)):
        report = compare.compare(expected, actual)
        assert {d.signal for d in report.differences} == {"controller.toggleN"}
        assert report.differences[0].seconds > amaranth.seconds(toggle.times[k])


def _traces(view):
    """The view's traces: (alias, what GTKWave reads)."""
    return re.findall(r"^\+\{([^}]*)\} (.*)$", view, re.M)


@pytest.mark.parametrize("kind", _params(KINDS))
def test_every_view_shows_cp_the_places_and_readable_names(files, kind):
    path, view_path = _file(files, kind)
    view = view_path.read_text()
    found = waves.read(path)
    names = {v.name for v in found.vars}
    traces = _traces(view)
    aliases = [alias for alias, _ in traces]
    assert aliases[0] == "cp" and "$" not in view
    assert [a for a in aliases if a.startswith("led ")] == \
        ["led A1", "led B1", "led C1", "led A2", "led B2", "led C2", "led A3", "led B3",
         "led C3"]
    # Every trace reads a signal the file holds (less GTKWave's [w-1:0]).
    for alias, read in traces:
        for name in re.findall(r"(?:\(\d+\))?(ttt_chip\.[^ \[]*)", read):
            assert name in names, (alias, read)
    # Opens on the first 2 us, whatever the file's time unit (Amaranth's and the golden
    # ns, Verilator's and Icarus's ps).
    assert re.search(rf"^\*{gtkw.zoom(found.unit):.6f} ", view, re.M)
    assert "[size] 1280 800" in view
    # The state by name: a filter for codes, Amaranth's names as they are.
    state = next(v for v in found.vars if v.name == "ttt_chip.controller.state")
    decoded = re.search(r"^\^\d+ .*state\.filter\n\+\{controller\.state\}", view, re.M)
    assert bool(decoded) == (not state.is_string)


def test_the_place_traces_read_the_board(files):
    """GTKWave numbers a vector's bits from the left: the traces' bit indices, read so
    from led's bit string, give each place as firmware_ref.eth.cycle.places does."""
    path, view_path = files["golden"]
    view = view_path.read_text()
    led = next(v for v in waves.read(path).vars if v.name == "ttt_chip.led")
    codes = dict(line.split(" ", 1) for line in
                 (view_path.parent / "place.filter").read_text().splitlines())
    assert codes == {"0": "empty", "1": "chip", "2": "user", "3": "both"}
    bits = led.values[-1].rjust(18, "0")
    assert int(bits, 2) != 0
    board = board_places(int(bits, 2))
    led_traces = [trace for trace in _traces(view) if trace[0].startswith("led ")]
    for place, (alias, read) in enumerate(led_traces):
        high, low = map(int, re.findall(r"\((\d+)\)", read))
        assert int(bits[high] + bits[low], 2) == board[place], alias


# -- ttt waves ---------------------------------------------------------------------

@pytest.fixture
def sim_waves(monkeypatch, tmp_path):
    """`ttt waves --golden` with build/ in tmp_path; returns a function that runs it and
    what GTKWave was asked to do."""
    from sim.bench import session
    from sim.waves import show
    (tmp_path / "build").mkdir()
    launched = []

    def run(*, which="/usr/bin/gtkwave", env=None, gtkwave=None):
        monkeypatch.setattr(show.shutil, "which", lambda tool: which)
        for name in ("DISPLAY", "WAYLAND_DISPLAY"):
            monkeypatch.delenv(name, raising=False)
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)

        def fake(command, **kwargs):
            launched.append(command)
            return gtkwave
        monkeypatch.setattr(show.subprocess, "run", fake)
        return session.waves(which="golden", build=tmp_path / "build")
    return run, launched


def test_waves_without_gtkwave_say_how_to_open_them(sim_waves, capsys):
    run, launched = sim_waves
    assert run(which=None) == 0 and not launched
    out = capsys.readouterr().out
    assert "GTKWave cannot show them: it is not installed here" in out
    assert re.search(r"gtkwave \S*e2_golden\.vcd \S*e2_golden\.gtkw", out)


def test_waves_without_a_display_say_how_to_open_them(sim_waves, capsys):
    run, launched = sim_waves
    assert run() == 0 and not launched
    assert "there is no display here" in capsys.readouterr().out


def test_gtkwave_failing_to_open_the_display_is_said_not_its_usage(sim_waves, capsys,
                                                                   tmp_path):
    # What GTKWave 3.3 does with DISPLAY set to a display it cannot open: its usage on
    # stdout, a complaint on stderr, and exit status 0.
    run, launched = sim_waves
    usage = subprocess.CompletedProcess(
        [], 0, stdout="Usage: gtkwave [OPTION]... [DUMPFILE] [SAVEFILE] [RCFILE]\n",
        stderr="Could not initialize GTK!  Is DISPLAY env var/xhost set?\n")
    assert run(env={"DISPLAY": ":57"}, gtkwave=usage) == 0
    build = tmp_path / "build"
    assert launched == [["/usr/bin/gtkwave", str(build / "e2_golden.vcd"),
                         str(build / "e2_golden.gtkw")]]
    captured = capsys.readouterr()
    assert "it could not open the display :57" in captured.out
    assert "Usage" not in captured.out + captured.err
    opened = subprocess.CompletedProcess([], 0, stdout="", stderr="")
    assert run(env={"WAYLAND_DISPLAY": "wayland-0"}, gtkwave=opened) == 0
    assert len(launched) == 2 and "GTKWave cannot" not in capsys.readouterr().out


# -- files written whole or not at all -------------------------------------------------

def test_an_interrupted_run_leaves_the_last_whole_waves(tmp_path, monkeypatch):
    vcd, view = tmp_path / "e2.vcd", tmp_path / "e2.gtkw"
    golden = tmp_path / "golden.vcd"
    lockstep.simulate(lockstep.replaying_e2,
                      vcd=vcd, gtkw=view)
    golden_waves.write_session(golden, e2.SESSION)
    before = {path: path.read_text() for path in (vcd, view, golden)}

    async def interrupted(bench):
        await lockstep.replaying_e2(bench)
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        lockstep.simulate(interrupted, vcd=vcd, gtkw=view)
    ticks = []

    def tick(self):
        ticks.append(1)
        if len(ticks) == 20:
            raise KeyboardInterrupt
        original(self)
    original = golden_waves.GoldenWaves.tick
    monkeypatch.setattr(golden_waves.GoldenWaves, "tick", tick)
    with pytest.raises(KeyboardInterrupt):
        golden_waves.write_session(golden, e2.SESSION)
    # Writing the renamed waves themselves, stopped half way.
    from vcd import VCDWriter
    changes = []

    def change(self, *args):
        changes.append(1)
        if len(changes) == 100:
            raise KeyboardInterrupt
        return original_change(self, *args)
    original_change = VCDWriter.change
    monkeypatch.setattr(VCDWriter, "change", change)
    amaranth = waves.read(vcd)
    with pytest.raises(KeyboardInterrupt):
        waves.write(vcd, amaranth.vars, amaranth.unit, end=amaranth.end)
    assert {path: path.read_text() for path in (vcd, view, golden)} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        ["choose.filter", "e2.gtkw", "e2.vcd", "golden.vcd", "place.filter", "state.filter"]


def test_a_run_that_disagrees_keeps_its_waves_up_to_the_disagreement(tmp_path):
    async def disagree(bench):
        bench.set(resetN=0)
        for _ in range(5):
            await bench.tick()
        raise lockstep.Mismatch("planted after 5 edges")
    with pytest.raises(lockstep.Mismatch):
        lockstep.simulate(disagree, vcd=tmp_path / "fail.vcd")
    written = waves.read(tmp_path / "fail.vcd")
    clock = next(v for v in written.vars if v.path == (TOP, "cp"))
    assert clock.values.count("1") == 5          # the five edges before the mismatch
