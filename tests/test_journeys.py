"""Every journey a user takes, run through the command they type: every ``make`` verb and
every command line README.md and docs/*.md show (inline, in code blocks, ``$ `` lines).

JOURNEYS is the one place each journey is defined: the documented command lines it stands
for, the command the test types (the line itself, or a short variant: one game, one
seed, ``ARGS=`` options), its exit status and what its first and last lines say. A
documented command line with no journey fails the suite, and so does a journey whose
line the docs no longer show. Commands that need hardware are run and must be refused
in one line; those that open GTKWave run with no display and must say how to open the
files. A step-by-step journey (docs/boards.md, "On a board, step by step") runs its steps in
one test, in the table's order, under a lock on the build directory it shares.
"""

import ast
import fcntl
import json
import re
import shlex
import shutil
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest
from user import ONCE, ROOT, VENV, make, typed

from boards.builds import netlists
from boards.gateware.top import BOARDS
from sim.verification import gatelevel

pytestmark = pytest.mark.early     # builds, place and route, servers

# -- the documented command lines --------------------------------------------------------

PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
# What a command line starts with: optional VAR=value words, then the project's commands.
COMMAND = re.compile(r"^(?:[A-Z_]+=\S+ )*(?:make|ttt|\.venv/bin/ttt|\.venv/bin/python|python)"
                     r" \S")
BLOCK = re.compile(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```", re.S | re.M)


def documented():
    """Every command line README.md and docs/*.md show (`documented_in`)."""
    return set().union(*(documented_in(page) for page in PAGES))


def documented_in(page):
    """Every command line `page` shows, whitespace made single: each inline code span
    that is a command, each command line of a code block (its comment cut off) and each
    ``$ `` line of one. Python blocks hold no command lines."""
    found = set()
    text = (ROOT / page).read_text()
    for language, body in BLOCK.findall(text):
        if language == "python":
            continue
        for line in body.splitlines():
            line = line.strip()
            if line.startswith("$ "):
                found.add(" ".join(line[2:].split()))
            elif COMMAND.match(line):
                found.add(" ".join(re.split(r"\s+#", line)[0].split()))
    prose = " ".join(BLOCK.sub("", text).split())      # a span may wrap a line
    found |= {span.strip() for span in re.findall(r"`([^`]+)`", prose)
              if COMMAND.match(span.strip())}
    return found


def shown_output():
    """What the docs show a ``$ `` line print: {command line: its lines}, ``...`` left
    out (it stands for lines not shown)."""
    shown = {}
    for page in PAGES:
        for language, body in BLOCK.findall((ROOT / page).read_text()):
            command = None
            for line in body.splitlines():
                line = line.strip()
                if line.startswith("$ "):
                    command = " ".join(line[2:].split())
                    shown[command] = []
                elif command and line and line != "...":
                    shown[command].append(line)
    return shown


def verbs():
    """The Makefile's verbs, as `make help` lists them."""
    text = (ROOT / "Makefile").read_text()
    return {f"make {verb}" for verb in re.findall(r"^([a-z-]+):.*## ", text, re.M)}


# -- the journeys ------------------------------------------------------------------------

@dataclass(frozen=True)
class Journey:
    """`shown`: the documented command lines it stands for; `run`: the line the test types
    (``VAR=value`` words first go to the environment; ``.venv/`` is the suite's venv).
    `first`, `last`: patterns the first and the last line must hold (``re.search``);
    `says`: a pattern for the whole output. `wrote`: files the run must (re)write.
    `steps`: the step-by-step journey it is a step of; `locks`: the shared build
    directories it writes (a lock each, so no other journey races it). `slow`: make
    test-slow's; `build`: a whole build from nothing, make test-builds'. `covered`: the
    test that runs this same command line elsewhere (``path::name``) and the text of its
    source that runs it. `awaits`: why it fails now (the branch that fixes it); it must.
    `needs`: a tool a fresh machine lacks (without it the journey is skipped), or a
    function that says why the journey must not run here (a board is attached). `first`
    and `last` None: it prints nothing. `promise`: what the docs promise of a command
    no documented line shows (the words the docs say it in). `check`: more assertions,
    the finished process in hand."""
    shown: tuple
    run: str = ""
    first: str = ""
    last: str = ""
    status: int = 0
    says: str = ""
    input: str = None
    env: tuple = ()
    wrote: tuple = ()
    steps: str = None
    locks: tuple = ()
    slow: bool = False
    build: bool = False
    covered: tuple = None
    awaits: str = None
    needs: object = None
    promise: str = None
    check: object = None


def J(shown, run=None, **options):
    shown = (shown,) if isinstance(shown, str) else tuple(shown)
    return Journey(shown, run or shown[0], **options)


NO_DISPLAY = (("DISPLAY", ""), ("WAYLAND_DISPLAY", ""))
# git's user.name, which make tinytapeout takes for info.yaml's author without AUTHOR=:
# a CI machine's git has none.
GIT_USER = (("GIT_CONFIG_COUNT", "1"), ("GIT_CONFIG_KEY_0", "user.name"),
            ("GIT_CONFIG_VALUE_0", "Grace Hopper"))
TT_WROTE = (r"^wrote build/tinytapeout/: info\.yaml, src/tt_um_ttt_eth1990\.v, "
            r"src/ttt_chip\.v, test/Makefile, test/tb\.v, test/test\.py, docs/info\.md$")
# How make says that its command failed, after the command's own line.
MAKE_FAILED = re.compile(r"^make: \*\*\* \[Makefile:\d+: [a-z-]+\] Error \d+$")
BOARD_STEPS = "On a board, step by step"
WAVES_STEPS = "Waves and the netlist, step by step"
STICK_STEPS = "On the iCEstick, step by step"
ANY_BOARD_STEPS = "Any board, step by step"
GAME_WAVES_STEPS = "A cartridge's waves, step by step"
FORMAL_STEPS = "Proofs"
# make formal says each job's time as it ends (which ends first varies), then the report.
FORMAL_JOB = r"^[\w ]+: [\d.]+ s$"
# With the netlists' equivalence, a step of a pair's (or a board's build for it) may say
# itself before any task ends: which comes first follows the last run's task times.
FORMAL_FIRST = (r"^([\w ]+: [\d.]+ s|RTL vs .+: the pair as an and-inverter graph|"
                r"building the \w+'s bitstream for its routed netlist)$")
FORMAL_PASS = r"^All 10 properties and the invariants are proven"
FORMAL_END = r"^\d+ tasks on \d+ threads: \d+ s wall"
BOARD_ID = ("0403", "6010")         # the FT2232H of both boards (docs/boards.md)
ULTIMATE = "X" + "." * 80           # X on small board 1's first cell; O is sent to board 1
REFUSED_BOARD = r"^error: (no (icebreaker|icestick) found: no FTDI FT2232H \(USB 0403:6010\)" \
                r"|openFPGALoader cannot start: this system lacks )"


def no_board():
    """Why a journey that would program a board must not run here, or None."""
    for device in Path("/sys/bus/usb/devices").glob("*"):
        try:
            if ((device / "idVendor").read_text().strip(),
                    (device / "idProduct").read_text().strip()) == BOARD_ID:
                return "a board's FTDI FT2232H is attached: the journey would program it"
        except OSError:
            continue
    return None


def no_port():
    if Path("/dev/ttyUSB1").exists():
        return "/dev/ttyUSB1 is there: the journey would play it"
    return None


def no_qflow():
    """Why make die cannot run here (Debian's qflow or its cells missing), or None."""
    from sim.verification import die
    return die.missing()


def die_report(done):
    """What make die must give: every block's cells, every route, a clock and the path
    in the paper's blocks, and the plot docs/die.svg as it draws it now."""
    report = json.loads((ROOT / "build" / "die" / "report.json").read_text())
    assert report["failed_routes"] == 0
    assert all(report["cells"]["by_block"][block] > 0 for block in
               ("keyboard", "board", "move", "value", "stack", "controller"))
    assert report["critical_path"]["parts"][0] == "keyboard"
    assert (ROOT / "build" / "die" / "die.svg").read_text() == \
        (ROOT / "docs" / "die.svg").read_text()


def no_acm_port():
    """TT's demo board's RP2040 (docs/tinytapeout.md)."""
    if Path("/dev/ttyACM0").exists():
        return "/dev/ttyACM0 is there: the journey would play it"
    return None


# -- checks beyond the first and last lines (the journeys that replaced API tests) ------

def bitstream_report(done):
    """What a place and route must give, checked on the build the command made."""
    build = ROOT / "build" / "icebreaker"
    report = json.loads((build / "report.json").read_text())
    assert (build / "ttt.bin").stat().st_size > 100_000
    assert report["logic_cells"]["available"] == 5280
    # The lean desk (docs/decisions.md): the whole build with the ETH chip in 800 cells.
    assert 0 < report["logic_cells"]["used"] <= 800
    assert report["flip_flops"] >= 97                  # the chip's own, at least
    assert report["fmax_mhz"] > report["clock_mhz"] == 12
    assert report["worst_move_cycles"] == 15007
    assert f"logic cells      {report['logic_cells']['used']} / 5280" in done.stdout
    # What is flashed is what the gate-level check takes: this very build's synthesised
    # netlist (no synthesis of its own), the chip cut out of it whole.
    board = netlists.board("icebreaker")
    assert board.synthesized() == build / "ttt.json"
    verilog = gatelevel.chip_verilog("synth", board)
    header = verilog[verilog.index(f"module {gatelevel.TOP}("):].split(";")[0]
    assert set(re.findall(r"\w+", header)[2:]) == {
        "clk", "keyboardN", "userbegins", "piN", "resetN", *gatelevel.PINS}
    assert len(gatelevel.luts(verilog)) > 200


def netlist_lockstep(done):
    """What tests/test_netlist.py checked of the netlist on a simulator, now run by the
    command: every cocotb test passed, four random sessions, its waves of E.2 equal the
    golden model's (make sim wrote them), every signal at every edge, and their view
    decodes the state by name."""
    from sim.waves import compare
    simulator = "icarus" if "SIM=icarus" in done.args else "verilator"
    for test in ("e2_session", "whole_games", "random_keys"):
        assert f"PASS {test} on {simulator}" in done.stdout
    runs = ROOT / "build" / "cocotb" / simulator
    assert "4 random sessions, 6000 cycles" in (runs / "random_keys.log").read_text()
    waves = ROOT / "build" / ("netlist_e2.vcd" if simulator == "verilator"
                              else "netlist_e2_icarus.fst")
    report = compare.compare(ROOT / "build" / "e2_golden.vcd", waves)
    assert report.equal, report.summary()
    assert len(report.pairs) == 29 and not report.unpaired
    view = waves.with_suffix(".gtkw").read_text()
    assert re.search(r"^\^\d+ .*state\.filter\n\+\{controller\.state\} "
                     r"ttt_chip\.controller\.state\[2:0\]$", view, re.M)
    assert "justreset" in (ROOT / "build" / "state.filter").read_text()


def every_game(done):
    """What tests/test_compiled.py checked of make verify, now run by the command."""
    found = re.search(r"all (\d+) games agree: (\d+) key presses, (\d+) cycles", done.stdout)
    games, presses, cycles = map(int, found.groups())
    assert (games, presses) == (1955, 2871)            # docs/verification.md: every game
    assert cycles > 300_000
    lanes = re.search(r"bit-parallel chips: (\d+) lanes, (\d+) cycles", done.stdout)
    assert lanes and int(lanes[1]) == 65 and int(lanes[2]) == cycles


def benchmark_figures(done):
    """What tests/test_benchmark.py checked of ``ttt benchmark --quick``, now run by the
    command: every simulator has a figure or a reason, the targets are ratios of the
    rows, the think times, the boards (built or said to be missing) and the machine."""
    build = ROOT / "build"
    text = (build / "BENCHMARKS.md").read_text()
    result = json.loads((build / "benchmark.json").read_text())
    assert {row["simulator"] for row in result["speed"]} == {
        "golden model", "Amaranth simulator", "cocotb + Verilator", "cocotb + Icarus",
        "Verilator + C++ harness", "bit-parallel chips (64 to a word)",
        "compiled (CXXRTL)"}
    for row in result["speed"]:
        assert row.get("cycles_per_s", 0) > 0 or row["missing"], row
    measured = {row["simulator"] for row in result["speed"] if "cycles_per_s" in row}
    assert {"golden model", "Amaranth simulator", "cocotb + Verilator",
            "Verilator + C++ harness", "bit-parallel chips (64 to a word)",
            "compiled (CXXRTL)"} <= measured    # all installed with the project
    for row in result["speed"]:         # each a ratio of plain Verilator on its shape of work
        if "cycles_per_s" in row:
            assert row["over_plain_verilator"] > 0, row
    for line in text.splitlines():                # numbers, or 'missing:' and why
        if line.startswith("| ") and not line.startswith("| ---"):
            assert "| – |" not in line or "missing: " in line, line
    speed = {(r["simulator"], r["mode"]): r for r in result["speed"] if "cycles_per_s" in r}
    amaranth = speed["Amaranth simulator", "1 session, one chip"]["cycles_per_s"]
    compiled = speed["compiled (CXXRTL)", "1 session, one chip, batch"]["cycles_per_s"]
    targets = result["targets"]
    assert targets["compiled_over_amaranth"] == pytest.approx(compiled / amaranth)
    checked = speed["bit-parallel chips (64 to a word)", "32 lanes, checked in bit planes"]
    assert targets["checked_lanes_over_plain_verilator"] == pytest.approx(
        checked["over_plain_verilator"]) and checked["ops"] > 0
    assert re.search(r"The limit of the bit-parallel check: one clock of 64 lanes is "
                     r"[\d,]+ word operations", text) or not checked.get("clock_hz")
    games = next(r for r in result["all_games"] if r["simulator"].startswith("compiled"))
    assert games["cycles"] > 300_000 and games["presses"] == 2871
    assert targets["all_games_compiled_seconds"] == games["seconds"]
    assert re.search(r"\| every game in lockstep, compiled chip \| < 10 s \| [\d.]+ s \|",
                     text)
    assert "missing: not run with --quick" in text
    think = result["think_times"]
    assert think["worst"] == 15007 and think["positions"] == 1253
    assert sum(count for _, _, count in think["bins"]) == think["positions"]
    png = build / "benchmark" / "think_times.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for board in ("icebreaker", "icestick"):     # a board row: its figures, or no build
        row = next(line for line in text.splitlines() if line.startswith(f"| {board}"))
        assert re.search(r"\| \d+ / \d+ \w+ \| \d+ \| [\d.]+ MHz \|", row) or \
            f"missing: no build: make bitstream BOARD={board} |" in row, row
    assert result["machine"]["cores"] >= 1 and result["machine"]["python"]
    assert "`ttt benchmark --quick`" in text


def the_readme_verdict(done):
    # README shows how make sim ends: the verdict, the think times, where the waves went.
    shown = re.search(r"```\n(All 100 rows.*?)```", (ROOT / "README.md").read_text(), re.S)
    for line in shown[1].splitlines():
        assert line in done.stdout.splitlines(), line


def the_scan_table(done):
    # docs/scan.md shows what it prints, whole.
    assert done.stdout in (ROOT / "docs" / "scan.md").read_text()


def a_fake_checkout(tmp_path):
    """A copy of the Makefile beside a build/ and a .venv of nothing: where make clean
    may run (never in the repo)."""
    shutil.copy(ROOT / "Makefile", tmp_path)
    for made in ("build/icebreaker/ttt.bin", ".venv/bin/python", ".pytest_cache/x",
                 "ttt_chip.egg-info/PKG-INFO"):
        (tmp_path / made).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / made).write_text("made\n")
    (tmp_path / "keep.txt").write_text("a source\n")
    return tmp_path


def authored(name):
    """The check that make tinytapeout wrote `name` as info.yaml's author."""
    def check(done):
        text = (ROOT / "build" / "tinytapeout" / "info.yaml").read_text()
        assert re.search(rf'^  author: +"{name}"$', text, re.M), text[:400]
    return check


def help_names_variables(done):
    """make help names a variable (BOARD), never prints a make expression ($(BOARD))."""
    assert "$(" not in done.stdout, done.stdout


def the_builds_listed(done):
    """make test-builds holds the whole builds make test leaves out, one of each kind."""
    for test in (f"test_journey[{BOARD_STEPS} (its quick steps)]",
                 f"test_journey[{ANY_BOARD_STEPS} (its quick steps)]",
                 "test_board_builds.py::test_a_board_builds_with_its_familys_tools_and_"
                 "reports_it[ulx3s]",
                 "test_journey[make verify NETLIST=sky130]",
                 "test_sky130.py::test_every_game_agrees_on_the_sky130_gates",
                 "test_equiv.py::test_a_changed_lut_is_a_counterexample_that_names_its_pin",
                 "test_waves.py::test_amaranth_waves_are_named_as_the_netlists"):
        assert test in done.stdout, test


def cleaned(done):
    where = Path(done.cwd)
    assert sorted(p.name for p in where.iterdir()) == ["Makefile", "keep.txt"]


# -- the table ---------------------------------------------------------------------------

# pytest's last line for a run of `count` tests that passed; past a minute it adds the
# time as h:mm:ss, "1 passed in 76.12s (0:01:16)", which a slow machine reaches.
PASSED = r"^=+ {count} passed in [\d.]+s(?: \(\d+:\d\d:\d\d\))? =+$"

JOURNEYS = [
    # The two commands of README, and the suite's own verbs (a small file of tests each;
    # never this file, which would run itself).
    J("make help", first=r"^help\s+list the verbs", last=r"^ARGS: more options",
      says=r"variables \(now\): GAME=eth .*BOARD=icebreaker", check=help_names_variables),
    J("make test", 'make test ARGS="-n 0 -p no:cacheprovider tests/test_verbs.py"',
      first=r"^=+ test session starts =+$", last=PASSED.format(count=r"\d+")),
    J("make test-slow", 'make test-slow ARGS="-n 0 -p no:cacheprovider tests/test_formal.py::'
      'test_without_an_assumption_a_trace_fails[no_setup]"',
      first=r"^=+ test session starts =+$", last=PASSED.format(count="1")),
    # What it would run, listed (from the files that hold them): running it here would
    # build the whole builds it holds.
    J("make test-builds", 'make test-builds ARGS="-n 0 -p no:cacheprovider --collect-only -q '
      'tests/test_journeys.py tests/test_equiv.py tests/test_sky130.py tests/test_waves.py '
      'tests/test_board_builds.py"',
      first=r"^tests/test_", last=r"^\d+/\d+ tests collected \(\d+ deselected\)",
      check=the_builds_listed),
    J("make clean", first=r"^rm -rf build \.venv", last=r"^rm -rf build \.venv",
      check=cleaned),

    # Waves and the netlist, step by step (docs/waves.md): each step writes what the next reads.
    J("make sim", first=r"^Appendix E\.2 replayed on the Amaranth chip",
      last=r"^Golden waves: build/e2_golden\.vcd.*'make compare' checks the HDL's",
      check=the_readme_verdict, steps=WAVES_STEPS,
      wrote=("build/e2.vcd", "build/e2.gtkw", "build/e2_golden.vcd")),
    J("ttt e2", "ttt e2 --clock 12", first=r"^Appendix E\.2 replayed on the Amaranth chip",
      last=r"^Golden waves: build/e2_golden\.vcd", says=r"move 1: 31 cycles = 2\.58 us",
      steps=WAVES_STEPS),
    J(".venv/bin/ttt e2 --golden", first=r"^Appendix E\.2 replayed on the golden model",
      last=r"^Golden waves: build/e2_golden\.vcd", says=r"All 100 rows match",
      wrote=("build/e2_golden.vcd",), steps=WAVES_STEPS),
    J("make waves", env=NO_DISPLAY,
      first=r"^The waves of the E\.2 session are in build/e2\.vcd and their view in "
            r"build/e2\.gtkw\.$",
      last=r"signal tree holds the same names, under ttt_chip", says=r"gtkwave build/e2\.vcd "
      r"build/e2\.gtkw", steps=WAVES_STEPS),
    J("ttt waves", env=NO_DISPLAY, last=r"under ttt_chip", steps=WAVES_STEPS,
      first=r"^The waves of the E\.2 session are in build/e2\.vcd"),
    J("make waves-golden", env=NO_DISPLAY,
      first=r"^The waves of the E\.2 session are in build/e2_golden\.vcd",
      last=r"signal tree holds the same names, under ttt_chip", steps=WAVES_STEPS),
    J("make verilog", first=r"^wrote build/ttt_chip\.v$", last=r"^wrote build/ttt_chip\.il$",
      wrote=("build/ttt_chip.v", "build/ttt_chip.il"), steps=WAVES_STEPS),
    # The netlist's games after the chip opens at A1 (make netlist also plays the user's
    # first moves: 1119 presses more, and the RTL plays every game in make verify).
    J("make compare", first=r"^expected: build/e2_golden\.vcd$", last=r"^no difference$",
      steps=WAVES_STEPS),
    # The exported netlist's steps, each a build of its own (a Verilator or Icarus build
    # of the exported Verilog, 20 s): make test-slow.
    J("make netlist", 'make netlist ARGS="--openings 0"',
      first=r"^building the exported netlist on verilator",
      last=r"^PASS random_keys on verilator \(log: build/cocotb/verilator/random_keys\.log\)$",
      says=r"^  waves: build/netlist_e2\.vcd, view: build/netlist_e2\.gtkw$",
      wrote=("build/netlist_e2.vcd",), check=netlist_lockstep, steps=WAVES_STEPS, slow=True),
    J("make waves-netlist", env=NO_DISPLAY,
      first=r"^The waves of the E\.2 session are in build/netlist_e2\.vcd",
      last=r"signal tree holds the same names, under ttt_chip", steps=WAVES_STEPS,
      slow=True),
    J("make compare EXPECTED=build/e2.vcd ACTUAL=build/netlist_e2.vcd",
      says=r"compared 218 signals at 101 instants \(50 clock cycles, both edges\)",
      first=r"^expected: build/e2\.vcd$", last=r"^no difference$", steps=WAVES_STEPS,
      slow=True),
    J("make compare ACTUAL=build/netlist_e2.vcd",
      says=r"compared 29 signals at 101 instants \(50 clock cycles, both edges\)\n167 "
           r"samples had unknown \(x\) bits in the expected waves",
      first=r"^expected: build/e2_golden\.vcd$", last=r"^no difference$", steps=WAVES_STEPS,
      slow=True),
    J("make netlist SIM=icarus", 'make netlist SIM=icarus ARGS="--openings 0"',
      first=r"^building the exported netlist on icarus",
      last=r"^PASS random_keys on icarus", says=r"^  waves: build/netlist_e2_icarus\.fst, "
      r"view: ", check=netlist_lockstep,
      needs="iverilog", steps=WAVES_STEPS, slow=True),
    J((".venv/bin/ttt netlist --openings all", "ttt netlist --openings all"),
      ".venv/bin/ttt netlist --openings all", first=r"^building the exported netlist",
      last=r"^PASS random_keys on verilator", says=r"PASS whole_games on verilator",
      slow=True, locks=(WAVES_STEPS,)),

    # A cartridge's waves beside its golden model's, and the comparer on them.
    J(("make waves GAME=firstfree PLAY=3", "make waves GAME=<game> PLAY=<n>"),
      "make waves GAME=firstfree PLAY=3", env=NO_DISPLAY,
      first=r"^Game 3 of firstfree: the core's waves in build/firstfree-game3\.vcd",
      last=r"signal tree holds the same names, under cartridge\.$",
      wrote=("build/firstfree-game3.vcd", "build/firstfree-game3_golden.vcd"),
      steps=GAME_WAVES_STEPS),
    J("ttt compare", "ttt compare build/firstfree-game3_golden.vcd build/firstfree-game3.vcd",
      first=r"^expected: build/firstfree-game3_golden\.vcd$", last=r"^no difference$",
      steps=GAME_WAVES_STEPS),
    J("ttt waves --game <game> --play <n>", "ttt waves --game ktane --play 1", env=NO_DISPLAY,
      first=r"^Game 1 of ktane: the core's waves in build/ktane-game1\.vcd",
      last=r"under cartridge\.$", steps=GAME_WAVES_STEPS),
    # Two games of two cartridges: the same pins, different waves.
    J((), "make compare EXPECTED=build/firstfree-game3.vcd ACTUAL=build/ktane-game1.vcd",
      promise="make exits 0 only for the first", status=2,
      first=r"^expected: build/firstfree-game3\.vcd$", says=r"^FIRST DIFFERENCE at ",
      last=r"^DIFFERENT: \d+ signals differ",
      steps=GAME_WAVES_STEPS),
    J(".venv/bin/ttt compare EXPECTED ACTUAL",
      ".venv/bin/ttt compare build/firstfree-game3.vcd build/ktane-game1.vcd", status=1,
      first=r"^expected: build/firstfree-game3\.vcd$", last=r"^DIFFERENT: \d+ signals differ",
      steps=GAME_WAVES_STEPS),

    # On a board, step by step (docs/boards.md), with the iCEBreaker: the one place and route of
    # make test-builds, its chip gate by gate, and the board refused where there is none.
    J("make play-board PORT=/dev/ttyUSB1", status=2,
      last=r"^error: cannot open the serial port /dev/ttyUSB1: No such file or directory",
      needs=no_port),
    J(("make bitstream", "make bitstream BOARD=..."), "make bitstream",
      first=r"^Building eth for the iCEBreaker \(iCE40UP5K\)",
      last=r"^report: build/icebreaker/report\.json$", check=bitstream_report,
      wrote=("build/icebreaker/ttt.bin",), steps=BOARD_STEPS, locks=("icebreaker",),
      build=True),
    J(("make verify NETLIST=routed", "make verify NETLIST=..."), "make verify NETLIST=routed",
      first=r"^every game in lockstep on the routed netlist of the icebreaker, gate by gate",
      last=r"^all 1955 games agree: \d+ key presses, 336323 cycles",
      steps=BOARD_STEPS, locks=("icebreaker",), slow=True),   # a Verilator build, 10 s
    J("make prog", status=2, first=r"/openFPGALoader --board ice40_generic --write-flash "
      r"\S*build/icebreaker/ttt\.bin$", last=REFUSED_BOARD, needs=no_board, steps=BOARD_STEPS,
      locks=("icebreaker",)),
    J("make load", status=2, first=r"/openFPGALoader --board ice40_generic --write-sram "
      r"\S*build/icebreaker/ttt\.bin$", last=REFUSED_BOARD, needs=no_board, steps=BOARD_STEPS,
      locks=("icebreaker",)),
    J("OPENFPGALOADER=/path/to/openFPGALoader make prog", status=2,
      last=r"^error: OPENFPGALOADER=/path/to/openFPGALoader is not an executable$",
      steps=BOARD_STEPS, locks=("icebreaker",)),
    J(("make verify NETLIST=sky130", "ttt verify --netlist sky130"),
      last=r"^all 1955 games agree: .* the chip's pins .* at every edge", build=True),
    J("python -m sim.verification.sky130", first=r"^sky130==\d", last=r"^sky130==\d"),
    J("make die", last=r"^wrote build/die/ttt_chip\.def, build/die/ttt_chip\.v, "
      r"build/die/timing\.txt, build/die/report\.json, build/die/die\.svg",
      says=r"^critical path: [\d.]+ ns .* through keyboard -> ", needs=no_qflow,
      build=True, locks=("die",), check=die_report),
    J("make verify NETLIST=die",
      last=r"^all 1955 games agree: .* the chip's pins .* at every edge", needs=no_qflow,
      build=True, locks=("die",)),
    J("make verify NETLIST=synth", covered=(
        "tests/test_gatelevel.py::test_make_verify_netlist_synth_plays_every_game_like_the_"
        "golden_model", 'make("verify", "NETLIST=synth")')),

    # The iCEstick, step by step (docs/boards.md, docs/verification.md).
    J("make bitstream BOARD=icestick", first=r"^Building eth for the iCEstick \(iCE40HX1K\)",
      last=r"^report: build/icestick/report\.json$", says=r"logic cells +\d+ / 1280",
      slow=True, steps=STICK_STEPS, locks=("icestick",)),
    J("make verify NETLIST=routed BOARD=icestick",
      first=r"^every game in lockstep on the routed netlist of the icestick, gate by gate",
      last=r"^all 1955 games agree: 2871 key presses, 336323 cycles",
      slow=True, steps=STICK_STEPS, locks=("icestick",)),
    J("ttt verify --netlist synth|routed --board icebreaker|icestick",
      "ttt verify --netlist synth --board icestick",
      first=r"^every game in lockstep on the synth netlist of the icestick, gate by gate",
      last=r"^all 1955 games agree: 2871 key presses, 336323 cycles",
      slow=True, steps=STICK_STEPS, locks=("icestick",)),
    J("make prog GAME=tactic", status=2, needs=no_board, locks=("icebreaker-tactic",),
      last=r"^error: \S*build/icebreaker-tactic/ttt\.bin does not exist: run `make "
           r"bitstream BOARD=icebreaker GAME=tactic` first|" + REFUSED_BOARD[1:]),
    J("make bitstream BOARD=icestick GAME=ultimate", status=2, slow=True,
      locks=("icestick-ultimate",),
      last=r"^error: ultimate does not fit the icestick's iCE40HX1K: it needs \d+ "
           r"logic cells .*: make bitstream BOARD=icebreaker GAME=ultimate$"),
    J("make prog BOARD=icestick", status=2, first=r"/openFPGALoader --board ice40_generic "
      r"--write-flash \S*build/icestick/ttt\.bin$", last=REFUSED_BOARD, needs=no_board,
      slow=True, steps=STICK_STEPS, locks=("icestick",)),
    J("make load BOARD=icestick", status=2, first=r"/openFPGALoader --board ice40_generic "
      r"--write-sram \S*build/icestick/ttt\.bin$", last=REFUSED_BOARD, needs=no_board,
      slow=True, steps=STICK_STEPS, locks=("icestick",)),

    # Any board, step by step (docs/boards.md, "On a board"): a Gowin board's build with its
    # family's tools, and its cable refused with none attached (each board's build and
    # refusal: tests/test_board_builds.py, tests/test_build.py).
    J(("make bitstream BOARD=<board>", "make bitstream BOARD=tang_nano_9k"),
      "make bitstream BOARD=tang_nano_9k",
      first=r"^Building eth for the Tang Nano 9K \(Gowin GW1NR-9\)",
      says=r"^  gowin_pack \(Apycula\)$\n(.|\n)*^  LUTs +\d+ / 8640$",
      last=r"^report: build/tang_nano_9k/report\.json$",
      wrote=("build/tang_nano_9k/ttt.fs",), steps=ANY_BOARD_STEPS,
      locks=("tang_nano_9k",), build=True),
    J(("make prog BOARD=<board>", "make prog BOARD=tang_nano_9k"), "make prog BOARD=tang_nano_9k",
      status=2,
      first=r"/openFPGALoader --board tangnano9k --write-flash "
            r"\S*build/tang_nano_9k/ttt\.fs$",
      last=r"^error: (no tang_nano_9k found: no BL702 USB-JTAG \(USB 0403:6010\) answers; "
           r"plug the board in|openFPGALoader cannot start: this system lacks )",
      needs=no_board, steps=ANY_BOARD_STEPS, locks=("tang_nano_9k",)),
    J(("make verify NETLIST=synth BOARD=tang_nano_9k", "make verify NETLIST=synth BOARD=<board>"),
      "make verify NETLIST=synth BOARD=tang_nano_9k",
      first=r"^every game in lockstep on the synth netlist of the tang_nano_9k, gate by gate",
      last=r"^all 1955 games agree: 2871 key presses, 336323 cycles",
      slow=True, locks=("tang_nano_9k",)),      # a Verilator build of Gowin's cells
    J("make verify NETLIST=routed BOARD=tang_nano_9k",
      first=r"^every game in lockstep on the routed netlist of the tang_nano_9k, gate by gate",
      last=r"^all 1955 games agree: 2871 key presses, 336323 cycles",
      steps=ANY_BOARD_STEPS, locks=("tang_nano_9k",), slow=True),   # Gowin's placed cells
    J("make load BOARD=<board>", "make load BOARD=orangecrab", status=2,
      last=r"^error: the orangecrab's DFU bootloader writes its flash only: `make prog "
           r"BOARD=orangecrab` writes it$", steps=ANY_BOARD_STEPS),

    # The board in a box: the desk that is flashed, compiled, with the client.
    J(("make play-board", "printf 'b2\\nquit\\n' | make play-board"), "make play-board",
      input="b2\nquit\n",
      first=r"^no PORT given: playing the board in a box \(simulated desk \+ the chip, ",
      says=r"The chip plays A1; its move took 6496 clock cycles\.", last=r"^> quit$"),
    J("ttt play-board", input="quit\n", first=r"^no PORT given: playing the board in a box",
      last=r"^> quit$"),
    J("make play-board GAME=<game>",
      "make play-board GAME=firstfree", input="b2\nquit\n",
      first=r"^no PORT given: .*\(simulated desk \+ the machine, ",
      says=r"The machine plays A1; its move took 3 clock cycles\.", last=r"^> quit$"),
    # It compiles the bomb's own desk: make test defuses the bomb through the desk of
    # several games (tests/test_ktane.py).
    J(("make play-board GAME=ktane", "ttt play-board --game ktane"),
      "make play-board GAME=ktane", input="quit\n",
      first=r"^no PORT given: .*\(simulated desk \+ the bomb, ", last=r"^> quit$",
      says=r"Up Next: [XO]", slow=True),
    J("make play-board GAME=tactic", input="quit\n",
      first=r"^no PORT given: .*\(simulated desk \+ ", last=r"quit$",
      slow=True),         # compiling its desk; Tactic-Toe in the box: test_tactic_client.py
    J(("make play-board GAME=eth,firstfree,ktane",
       "printf 'game\\ngame 1\\nb2\\ngame 3\\nquit\\n' | make play-board "
       "GAME=eth,firstfree,ktane"),
      "make play-board GAME=eth,firstfree,ktane", input="game\ngame 1\nb2\ngame 3\nquit\n",
      first=r"^no PORT given: .*\(simulated desk \+ the chip \+ the machine \+ the bomb, ",
      says=r"(?m)^The machine plays A1; its move took 3 clock cycles\.\n(.*\n)*There is no "
           r"game 3 on this board: its games are 0 to 2", last=r"quit$"),
    J("make play-board GAME=museum", input="game\nquit\n", slow=True,
      first=r"^no PORT given: ", says=r"This board's games", last=r"quit$"),
    J("python -m boards play-board", covered=(
        "tests/test_box.py::test_a_game_of_turns_says_its_move_once_and_in_its_coordinates",
        '["python", "-m", "boards", "play-board", "--game", "firstfree"]')),
    J("make play-board GAME=ultimate", input="quit\n",
      first=r"^no PORT given: .*\(simulated desk \+ ", last=r"quit$", slow=True),

    # The console in a browser: the server started, its page fetched, Ctrl-C.
    J(("make serve", "ttt serve"), covered=(
        "tests/test_web_server.py::test_make_serve_prints_its_address_serves_the_page_and_"
        "ends_on_ctrl_c", 'interrupted(["make", "serve"]')),
    J("make serve GAME=<game>", covered=(
        "tests/test_web_server.py::test_make_serve_game_serves_that_cartridge_and_a_missing_"
        "port_is_one_line", 'interrupted(["make", "serve", "GAME=firstfree"]')),
    J("ttt serve -h", first=r"^usage: ttt serve \[-h\]", last=r"\(default[ :][^()]*\)$"),
    J("make serve PORT=/dev/ttyUSB1", status=2, needs=no_port,
      last=r"^error: cannot open the serial port /dev/ttyUSB1: No such file or directory"),

    # The chip as a Tiny Tapeout project (docs/tinytapeout.md), and its demo board's port.
    J("make tinytapeout", env=GIT_USER, last=TT_WROTE, check=authored("Grace Hopper"),
      wrote=("build/tinytapeout/info.yaml", "build/tinytapeout/test/test.py"),
      locks=("tinytapeout",)),
    J('make tinytapeout AUTHOR="Ada Lovelace"', last=TT_WROTE, locks=("tinytapeout",),
      check=authored("Ada Lovelace")),
    J("make tinytapeout ARGS=--test", env=GIT_USER, needs="iverilog", slow=True,
      locks=("tinytapeout",),
      last=r"^cocotb on icarus: 2 passed, 0 failed \(log: build/tinytapeout/test/icarus\.log\)$"),
    J(".venv/bin/ttt tinytapeout --test --sim verilator", env=GIT_USER, slow=True,
      locks=("tinytapeout",),
      last=r"^cocotb on verilator: 2 passed, 0 failed \(log: build/tinytapeout/test/"
      r"verilator\.log\)$"),
    J("make play-board PORT=/dev/ttyACM0", status=2, needs=no_acm_port,
      last=r"^error: cannot open the serial port /dev/ttyACM0: No such file or directory"),
    J("make serve PORT=/dev/ttyACM0", status=2, needs=no_acm_port,
      last=r"^error: cannot open the serial port /dev/ttyACM0: No such file or directory"),

    # The console as a static site: built (npm fetches Pyodide once), then served.
    J(("make site", "ttt site"), needs="npm", slow=True, locks=("site",),
      last=r"^the site is in build/site: serve it with python3 -m http\.server"),
    J("ttt site --game eth,ktane", needs="npm", locks=("site",), slow=True,
      last=r"^the site is in build/site: serve it with python3 -m http\.server",
      wrote=("build/site/desks/eth.wasm", "build/site/desks/ktane.wasm")),
    J("python3 -m http.server", covered=(
        "tests/test_site.py::test_python3_m_http_server_in_the_sites_folder_serves_it",
        '["python3", "-m", "http.server"]')),

    # The games in the terminal, on their golden models.
    J("make play", input="y\nb2\n", first=r"^T I C - T A C - T O E",
      says=r"I play A1\. Time for move 1: 6496 clock cycles = 1082\.7 microseconds at 6 MHz",
      last=r"^Please enter your move"),
    J("make play GAME=ktane", input="quit\n", first=r"^Press a key by its label",
      last=r"^> quit$", covered=("tests/test_ktane.py::test_the_expert_command_lines_in_"
                                 "the_docs_print_what_they_show",
                                 'make("play", "GAME=ktane", input="quit\\n")')),
    J("ttt play --game ktane", input="quit\n", first=r"^Press a key by its label",
      last=r"^> quit$"),
    J("make play GAME=tactic", input="192\n473\n254\nquit\n",
      covered=("tests/test_tactic_client.py::lost_to_the_machine",
               'make("play", "GAME=tactic", input="192\\n473\\n254\\nquit\\n")')),
    J((), "make play GAME=nonesuch", input="quit\n", status=2,
      last=r"^error: unknown game 'nonesuch'; the games are: .*firstfree",
      promise="Every command ends in one line when something is missing"),
    J(("make play GAME=<game>", "make play GAME=turbo"), "make play GAME=turbo",
      input="b2\nquit\n", first=r"^Type a place for your stone",
      says=r"^Turbo plays A1; its move took 215 clock cycles\.$",
      last=r"quit$"),
    J("make play GAME=ultimate", input="quit\n", first=r"^Ultimate Tic-Tac-Toe: nine small",
      last=r"^your move \(X\)> quit$"),

    # Every game, checked.
    J("make verify",
      first=r"^every game in lockstep on the bitlanes backend$",
      last=r"^all 1955 games agree: 2871 key presses, \d+ cycles, every pin and E\.2 node",
      check=every_game),
    J("ttt verify", first=r"^every game in lockstep on the bitlanes backend$",
      last=r"^all 1955 games agree: 2871 key presses", slow=True),
    J(".venv/bin/ttt verify --backend amaranth", first=r"^every game in lockstep on the "
      r"amaranth backend", last=r"^all 1955 games agree: 2871 key presses", slow=True),
    J((".venv/bin/ttt verify --cartridge-pins", "ttt verify --cartridge-pins"),
      ".venv/bin/ttt verify --cartridge-pins", first=r"^every game of eth in lockstep",
      last=r"^all 1962 games agree: 10264430 clocks", slow=True),
    J(("make verify GAME=<game>",), "make verify GAME=firstfree",
      first=r"^every game of firstfree in lockstep with its golden model",
      last=r"^all 822 games agree: 20781 clocks"),
    J("ttt verify --game <game> [--backend NAME]",
      "ttt verify --game firstfree --backend verilator",
      first=r"^every game of firstfree in lockstep", last=r"^all 822 games agree: 20781 "
      r"clocks", slow=True),
    J("make verify GAME=ktane", first=r"^every game of ktane in lockstep",
      last=r"^all \d+ games agree", slow=True),
    J("make verify GAME=ultimate", first=r"^every game of ultimate in lockstep",
      last=r"^all \d+ games agree", slow=True),
    J("make games", first=r"^Every game a user can play against the chip \(golden "
      r"model\): 1955$", last=r"^  6496 cycles = 1082\.7 us on \.\.\./\.X\./\.\.\.$"),

    # The board builds of other cartridges, and what they cost.
    J("ttt bitstream", "ttt bitstream --board icestick --game firstfree",
      first=r"^Building firstfree for the iCEstick",
      last=r"^report: build/icestick-firstfree/report\.json$", slow=True),
    J("make bitstream GAME=<game>", "make bitstream GAME=firstfree",
      first=r"^Building firstfree for the iCEBreaker",
      last=r"^report: build/icebreaker-firstfree/report\.json$", slow=True),
    J("make bitstream GAME=ktane", first=r"^Building ktane for the iCEBreaker",
      last=r"^report: build/icebreaker-ktane/report\.json$", slow=True),
    J("make bitstream GAME=tactic", first=r"^Building tactic for the iCEBreaker",
      last=r"^report: build/icebreaker-tactic/report\.json$", slow=True),
    J("make bitstream GAME=museum", first=r"^Building .* for the iCEBreaker",
      last=r"^report: build/icebreaker-.*/report\.json$", slow=True),
    J("make cost", 'make cost ARGS="--seeds 1"', first=r"^synthesising eth for the "
      r"icebreaker", last=r"^wrote .*build/cost/icebreaker/cost\.md", slow=True,
      locks=("cost-icebreaker",)),
    J(("ttt cost --board icebreaker", "ttt cost --board icebreaker --game eth"),
      "ttt cost --board icebreaker --game eth --seeds 1",
      first=r"^synthesising eth for the icebreaker",
      last=r"^wrote .*build/cost/icebreaker/cost\.md", slow=True,
      locks=("cost-icebreaker",)),
    J("make cost BOARD=icestick", 'make cost BOARD=icestick ARGS="--seeds 1"',
      first=r"^synthesising eth for the icestick",
      last=r"^wrote .*build/cost/icestick/cost\.md", slow=True, locks=("cost-icestick",)),
    J("ttt cost --board icestick --game <game> --seeds 1",
      "ttt cost --board icestick --game baum_g --seeds 1",
      first=r"^synthesising baum_g for the icestick", last=r"^wrote .*cost\.md", slow=True),
    J("make cost GAME=ktane", 'make cost GAME=ktane ARGS="--seeds 1"',
      first=r"^synthesising ktane", last=r"^wrote .*cost\.md", slow=True),
    J("make cost GAME=tactic", 'make cost GAME=tactic ARGS="--seeds 1"',
      first=r"^synthesising tactic", last=r"^wrote .*cost\.md", slow=True),
    J("make cost GAME=ultimate", 'make cost GAME=ultimate ARGS="--seeds 1"',
      first=r"^synthesising ultimate", last=r"^wrote .*cost\.md", slow=True),

    # The proofs: the fast jobs are tests/test_formal.py's in make test.
    J("make formal", 'make formal ARGS="--no-covers --no-mutants --no-equiv"',
      first=FORMAL_JOB, says=FORMAL_PASS, last=FORMAL_END, slow=True,
      steps=FORMAL_STEPS),
    J("ttt formal",
      "ttt formal --no-covers --no-mutants", first=FORMAL_FIRST,
      # Every board's netlists, a board whose chip is the netlist of another's with the
      # proof of whichever of the two reached it first (equiv.Proofs).
      says=r"^\| RTL vs \w+ synth \| RTL vs \w+ synth's proof, the same netlist "
           r"\(sha256 [0-9a-f]{12}\): (.|\n)*"
           r"^\| RTL vs icebreaker routed \| .* \| (\d+) / \2 \((.|\n)*"
           r"^\| RTL vs icestick routed \| .* \| (\d+) / \4 \((.|\n)*"
           r"^\| RTL vs (ulx3s|orangecrab) routed \| RTL vs (ulx3s|orangecrab) routed's "
           r"proof, (.|\n)*"
           r"^\| RTL vs tang_\w+ routed \| RTL vs tang_\w+ routed's proof, (.|\n)*"
           r"^\| RTL vs sky130_fd_sc_hd cells \(chip alone\) \| .* \| (\d+) / \10 \(",
      slow=True, steps=FORMAL_STEPS, locks=(*BOARDS, "die"),
      # proven where Debian's qflow is installed, else "not checked" and why (docs/die.md)
      last=r"^\| RTL vs the post-layout netlist \(qflow, osu035 cells\) \| "),

    J("ttt formal --jobs N", "ttt formal --no-covers --no-mutants --no-equiv --jobs 1",
      first=FORMAL_JOB, says=FORMAL_PASS, last=FORMAL_END, slow=True, steps=FORMAL_STEPS),

    # The benchmark, quick: it replaced tests/test_benchmark.py's run through the API.
    J("make benchmark", "make benchmark ARGS=--quick", first=r"^\[ +0\.0 s\] golden model",
      last=r"^wrote .*build/BENCHMARKS\.md, build/benchmark\.json and "
           r"build/benchmark/think_times\.png$", check=benchmark_figures,
      locks=("benchmark",), slow=True),   # every simulator side by side: about 20 s

    # The museum: one machine, without its cost, in make test; the rest in make test-slow.
    J("make museum", 'make museum ARGS="--machines firstfree --no-cost"',
      first=r"^Lockstep, every core against its golden model over every game:$",
      last=r"^wrote .*build/museum\.json, .*build/museum\.md and .*build/museum\.png$",
      says=r"\| firstfree \| second \| 665 \| 429 \|", locks=("museum",)),
    J("ttt museum", ".venv/bin/ttt museum --machines firstfree "
      "--seeds 1", first=r"^Lockstep", last=r"^wrote .*build/museum\.png$", slow=True,
      locks=("museum",)),
    J(".venv/bin/ttt museum --machines eth1990,turbo", ".venv/bin/ttt museum --machines "
      "eth1990,turbo --no-cost", first=r"^Lockstep", says=r"eth1990: 1962 games",
      last=r"^wrote .*build/museum\.png$", slow=True, locks=("museum",)),
    J(".venv/bin/ttt museum --no-cost", first=r"^Lockstep", last=r"^wrote .*museum\.png$",
      slow=True, locks=("museum",)),
    J(".venv/bin/ttt museum --seeds 1 2 3", ".venv/bin/ttt museum --machines hendrix_purcell "
      "--seeds 1 2 3", first=r"^Lockstep", last=r"^wrote .*museum\.png$", slow=True,
      locks=("museum",)),
    J(".venv/bin/ttt museum --machines table", ".venv/bin/ttt museum --machines table "
      "--seeds 1", first=r"^Lockstep", last=r"^wrote .*museum\.png$", slow=True,
      locks=("museum",)),
    J(".venv/bin/ttt museum --machines turbo", ".venv/bin/ttt museum --machines turbo "
      "--seeds 1", first=r"^Lockstep", last=r"^wrote .*museum\.png$", slow=True,
      locks=("museum",)),

    # The project's command, and the chip as a Python object.
    J(".venv/bin/ttt -h",
      first=r"^usage: ttt \[-h\] command \.\.\.$", last=r"show this help message and exit$"),
    J("ttt <subcommand> -h", "ttt verify -h", first=r"^usage: ttt verify \[-h\]",
      last=r"--jobs JOBS"),
    J("ttt play -h", first=r"^usage: ttt play \[-h\]", last=r"make play-board plays it$"),
    J(".venv/bin/ttt boards", first=r"^icebreaker +iCEBreaker \(iCE40UP5K\)",
      says=r"^ulx3s +ULX3S \(ECP5 LFE5U-85F\)",
      last=r"^tang_primer_20k +Tang Primer 20K Dock \(Gowin GW2A-18C\)"),
    J(".venv/bin/ttt move .../.X./...", first=r"^    A B C$", last=r"^nodes: 2521$",
      says=r"move: 0 \(A1\)\nvalue: 0 \(draw\)"),
    J('.venv/bin/python -c "from hdl.eth.chip import Chip; Chip()"', first=None, last=None),
    J("python -m hdl.eth.scan", first=r"^\| positions \| block \| register \| bits",
      last=r"\*\*total\*\* \| \*\*97\*\* \|", check=the_scan_table),

    # The games' own command lines.
    J(("python -m firmware_ref.ktane expect X83/XO9/OX2 X 5", "python -m firmware_ref.ktane",
       "python -m firmware_ref.ktane start-row",
       "python -m firmware_ref.ktane start-row --digit 4 --parallel-port no --lit 1 "
       "--unlit 3", "python -m firmware_ref.ktane expect XO./X../O.. O 4"),
      covered=("tests/test_ktane.py::test_the_expert_command_lines_in_the_docs_print_what_"
               "they_show", "typed(command.split())")),
    J("python -m firmware_ref.tactic resolve ......... 1 237 271", first=r"^O\.X\.\.\.O\.\. "
      r"open$", last=r"^O\.X\.\.\.O\.\. open$"),
    J("python -m firmware_ref.tactic plan ......... 1 O -", first=r"^193$", last=r"^193$"),
    J(("python -m firmware_ref.tactic.match",
       "python -m firmware_ref.tactic.match --games 200 --seed 1"),
      "python -m firmware_ref.tactic.match --games 1 --seed 1",
      first=r"^the machine as X against a random player, 1 games: ", last=r"^\(\d+ s\)$"),
    J("python -m firmware_ref.ultimate legal BOARD LAST",
      f"python -m firmware_ref.ultimate legal {ULTIMATE} 0", first=r"^1 2 3 4 5 6 7 8$",
      last=r"^1 2 3 4 5 6 7 8$"),
    J("python -m firmware_ref.ultimate winner BOARD",
      f"python -m firmware_ref.ultimate winner {ULTIMATE}", first=r"^open$", last=r"^open$"),
    J("python -m firmware_ref.ultimate move BOARD LAST",
      f"python -m firmware_ref.ultimate move {ULTIMATE} 0", first=r"^[1-8] -?\d+ \d+$",
      last=r"^[1-8] -?\d+ \d+$"),
    J("python -m firmware_ref.ultimate.match",
      "python -m firmware_ref.ultimate.match --games 1 --depth 1 --playouts 20",
      first=r"^the engine \(depth 1\) against a random player, 1 games: ",
      last=r"^the engine \(depth 1\) against MCTS, 20 playouts a move, 1 games: "),
    J(".venv/bin/ttt engines --positions 100 --seed 1 --fmax 21.07",
      ".venv/bin/ttt engines --positions 2 --seed 1 --fmax 21.07",
      first=r"^2 positions of random games \(seed 1\), depth 4: the same move, value and "
            r"nodes in both$", last=r"^hardware at 21\.07 MHz +\d+"),
    J("python -m firmware_ref.hendrix_purcell_defended.defence",
      first=r"^without a defence the machine loses 12 games$", says=r"needs at least 6 "
      r"exceptions", last=r"-> cell \d$"),
]
TABLE = {shown: journey for journey in JOURNEYS for shown in journey.shown}


# -- running a journey -------------------------------------------------------------------

class Awaited(AssertionError):
    """A journey that fails now, as its table entry says, and waits on another branch."""


def said(done):
    """What the command printed, as a person reads it: not make's echo of a command, nor
    make's own line when the command failed, nor a one-time build's announcement
    first, nor empty lines. stdout, then stderr."""
    lines = [line for line in (done.stdout + done.stderr).splitlines()
             if line.strip() and not line.startswith(f"{VENV}/bin/")]
    return [line for line in lines if not MAKE_FAILED.match(line)]


def type_it(journey, cwd=ROOT):
    """Run the journey's line as a user types it; the finished process."""
    words = shlex.split(journey.run)
    env = dict(journey.env)
    while re.match(r"^[A-Z_]+=", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    words = [str(VENV / word.removeprefix(".venv/")) if word.startswith(".venv/") else word
             for word in words]
    timeout = 1800 if journey.slow else 300        # a journey that hangs is a failure
    if words[0] == "make" and cwd == ROOT:
        done = make(words[1], *words[2:], input=journey.input, env=env, timeout=timeout)
    else:
        done = typed(words, input=journey.input, env=env, cwd=cwd, timeout=timeout)
    done.cwd = cwd
    return done


def check(journey, done, started):
    """The exit status, the first and the last line, and what else the table asks."""
    lines = said(done)
    everything = "\n".join(lines)
    assert "Traceback" not in everything, f"a traceback:\n{everything[-3000:]}"
    assert done.returncode == journey.status, \
        f"exit status {done.returncode}, not {journey.status}:\n{everything[-3000:]}"
    if journey.first is None and journey.last is None:
        assert lines == [], everything
        return
    assert lines, "it printed nothing"
    first = next((line for line in lines if not ONCE.search(line)), "")
    assert re.search(journey.first, first), f"first line: {first!r}"
    assert re.search(journey.last, lines[-1]), f"last line: {lines[-1]!r}"
    if journey.says:
        assert re.search(journey.says, everything, re.M), everything[-3000:]
    for command in journey.shown:               # what the docs show it print, it prints
        for line in shown_output().get(command, ()):
            shown = [re.sub(r"/dev/pts/\d+", "/dev/pts/0", printed).strip()  # docs indent
                     for printed in lines]                                      # alike
            assert re.sub(r"/dev/pts/\d+", "/dev/pts/0", line) in shown, line
    if journey.status == 2:
        # Refused (or, from make compare, a verdict on stdout): at most one line of its
        # own on stderr, and make's Error line after it when make ran it.
        own = [line for line in done.stderr.splitlines() if line.strip()
               and not MAKE_FAILED.match(line)]
        assert len(own) <= 1, done.stderr
    for path in journey.wrote:
        assert (ROOT / path).stat().st_mtime >= started - 1, f"{path} was not written"
    if journey.check:
        journey.check(done)


def skipped(journey):
    """Why the journey cannot run here, or None."""
    if callable(journey.needs):
        return journey.needs()
    if journey.needs and shutil.which(journey.needs) is None:
        return f"{journey.needs} is not installed here"
    return None


def locked(stack, names):
    """Hold the lock of each shared build directory in `names` (sorted: no deadlock)."""
    where = ROOT / "build" / ".journeys"
    where.mkdir(parents=True, exist_ok=True)
    for name in sorted(set(names)):
        handle = stack.enter_context(open(where / f"{name}.lock", "w"))
        fcntl.flock(handle, fcntl.LOCK_EX)


def take(journeys, tmp_path):
    """Run each journey in order, holding the locks of the build directories they share
    (a step-by-step journey's name is one); one that the table says fails now is Awaited
    at the end (the others still run), and passing is an error then: strict."""
    awaited, ran = [], 0
    with ExitStack() as stack:
        locked(stack, [name for j in journeys for name in (*j.locks, j.steps) if name])
        for journey in journeys:
            if reason := skipped(journey):
                if len(journeys) == 1:
                    pytest.skip(reason)
                continue
            started = time.time()
            done = type_it(journey, cwd=a_fake_checkout(tmp_path)
                           if journey.run == "make clean" else ROOT)
            ran += 1
            try:
                check(journey, done, started)
            except AssertionError as failed:
                if not journey.awaits:
                    raise
                now = (str(failed).strip().splitlines() or ["?"])[0]
                awaited.append(f"{journey.run}: {journey.awaits} (now: {now[:300]})")
    assert ran, "no step could run here"
    if awaited:
        raise Awaited("\n".join(awaited))


def marks(journeys):
    found = [pytest.mark.slow] if any(j.slow for j in journeys) else []
    if any(j.build for j in journeys) and not found:
        found.append(pytest.mark.build)
    if any(j.awaits for j in journeys):
        found.append(pytest.mark.xfail(strict=True, raises=Awaited, reason="; ".join(
            j.awaits for j in journeys if j.awaits)))
    return found


def cases():
    """A test for each journey, and one for each step-by-step journey's steps. A
    step-by-step journey with a slow step among quick ones is two tests: its quick steps
    in order (make test, or make test-builds where one is a build), and all of them in
    order (make test-slow)."""
    groups = {}
    for journey in JOURNEYS:
        if journey.covered is None:
            name = journey.steps or (journey.shown or (journey.run,))[0]
            groups.setdefault(name, []).append(journey)
    found = []
    for name, group in groups.items():
        quick = [journey for journey in group if not journey.slow]
        if quick and len(quick) < len(group):
            found.append(pytest.param(quick, id=f"{name} (its quick steps)", marks=marks(quick)))
            name = f"{name} (every step)"
        found.append(pytest.param(group, id=name, marks=marks(group)))
    return found


# -- the tests ---------------------------------------------------------------------------

def test_every_documented_command_and_make_verb_has_a_journey():
    shown = documented() | verbs()
    assert sorted(shown - set(TABLE)) == [], "documented, but no journey in JOURNEYS"
    assert sorted(set(TABLE) - shown) == [], "in JOURNEYS, but no longer documented"
    assert len(TABLE) == sum(len(j.shown) for j in JOURNEYS), "a line with two journeys"
    text = " ".join(" ".join((ROOT / page).read_text() for page in PAGES).split())
    for journey in JOURNEYS:
        assert journey.shown or journey.promise, journey.run
        assert journey.promise is None or journey.promise in text, journey.promise


def test_the_documented_lines_are_found_in_each_form_the_docs_use():
    # The extraction itself: an inline span wrapped over two lines, a code block's line
    # with its comment, a `$ ` line, a variable before make, and what is no command.
    shown = documented()
    assert ".venv/bin/ttt compare EXPECTED ACTUAL" in shown       # wrapped in commands.md
    assert "make verify NETLIST=routed" in shown                  # ```sh, a comment after
    assert "printf 'b2\\nquit\\n' | make play-board" in shown     # a $ line
    assert "OPENFPGALOADER=/path/to/openFPGALoader make prog" in shown
    assert "python -m firmware_ref.tactic plan ......... 1 O -" in shown
    assert not {"make", "ttt", "ttt_chip.v"} & shown
    assert not any(line.startswith("from ") for line in shown)   # ```python blocks


def test_a_journey_covered_elsewhere_is_run_there_by_its_command():
    for journey in JOURNEYS:
        if journey.covered is None:
            continue
        where, source = journey.covered
        path, _, name = where.partition("::")
        tree = ast.parse((ROOT / path).read_text())
        found = [node for node in ast.walk(tree)
                 if isinstance(node, ast.FunctionDef) and node.name == name]
        assert found, f"{where} is not there"
        text = ast.get_source_segment((ROOT / path).read_text(), found[0])
        assert source in text, f"{where} does not run {journey.run!r} as {source!r}"


def test_the_suites_last_line_is_read_however_long_the_run_took():
    # A run past a minute ends "(0:01:16)": a slow machine must pass as a fast one.
    for line in ("=== 1 passed in 6.20s ===", "=== 1 passed in 76.12s (0:01:16) ==="):
        assert re.search(PASSED.format(count="1"), line), line
    assert not re.search(PASSED.format(count="1"), "=== 1 failed, 1 passed in 7.1s ===")


@pytest.mark.parametrize("journeys", cases())
def test_journey(journeys, tmp_path):
    take(journeys, tmp_path)
