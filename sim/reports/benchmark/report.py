"""The benchmark's report: BENCHMARKS.md of a run's figures (`markdown`, a section a
part) and the raw figures beside it, every run included (`write`)."""

import json
from pathlib import Path

from firmware_ref.cli import replacing

from sim import BUILD

from . import die, tiles, waits
from .cartridge import CARTRIDGE

__all__ = ["OPS_PER_CLOCK", "RAW", "markdown", "web_section", "classroom_section",
           "site_section", "formal_section", "write"]

# Word operations an x86-64 core can do in a clock at the most: its four integer ALUs.
# The bit-parallel check's limit is the machine's clock times these, over its operations.
OPS_PER_CLOCK = 4
RAW = BUILD / "benchmark.json"
# make formal's longest jobs shown; and its one run before the jobs ran in parallel and
# the deep covers started from a game's position (seconds, commit, date), measured then.
FORMAL_LONGEST = 10
FORMAL_BEFORE = (1619, "c1aec7f", "2026-11-27")



def _number(value, digits=0):
    return f"{value:,.{digits}f}"


def markdown(result):
    """BENCHMARKS.md of `result` (`measure`'s): the machine, then a section per part."""
    lines = _machine_section(result)
    lines += _targets_section(result["targets"])
    lines += _speeds_section(result["workload"], result["speed"])
    lines += _cartridge_section(result["cartridge_speed"])
    lines += _lockstep_section(result["all_games"])
    lines += _each_game_section(result["each_game"])
    lines += _think_times_section(result["think_times"])
    lines += _boards_section(result["boards"])
    lines += waits.section(result)
    lines += web_section(result["web"])
    lines += classroom_section(result.get("classroom", {"missing": "not measured"}))
    lines += site_section(result.get("site", {"missing": "not measured"}))
    lines += tiles.section(result.get("sky130", {"missing": "not measured"}))
    lines += die.section(result)
    lines += formal_section()
    lines += ["", "The raw figures, every run included: `build/benchmark.json`.", ""]
    return "\n".join(lines)


def _machine_section(result):
    m = result["machine"]
    return [
        "# Benchmarks",
        "",
        "Every cost of the project, measured side by side in one run on one machine. "
        "Written by `make benchmark` (`ttt benchmark`, sim/reports/benchmark/); run it again "
        "to measure yours. Figures are medians of the runs shown; nothing here is a pass "
        "or fail.",
        "",
        f"Measured {result['date']} in {result['seconds']:.0f} s with `{result['command']}` on:",
        "",
        f"- CPU: {m['cpu']}, {m['cores']} cores; memory {m['memory']}",
        f"- {m['system']}, Python {m['python']}, {m['compiler']}",
        "- " + ", ".join(f"{k} {v}" for k, v in m["packages"].items() if v),
    ]


def _targets_section(t):
    lines = [
        "",
        "## Targets",
        "",
        "| target | wanted | measured | ratio |",
        "| --- | --- | --- | --- |",
    ]

    def target(name, wanted, measured, ratio):
        lines.append(f"| {name} | {wanted} | {measured} | {ratio} |")
    wanted = t["wanted"]
    ratio = t["compiled_over_amaranth"]
    target("compiled chip over Amaranth simulator, same workload",
           f"≥ {wanted['compiled_over_amaranth']}×",
           "missing" if ratio is None else f"{ratio:,.0f}×",
           "–" if ratio is None else f"{ratio / wanted['compiled_over_amaranth']:.1f} of target")
    seconds = t["all_games_compiled_seconds"]
    target("every game in lockstep, compiled chip", f"< {wanted['all_games_seconds']} s",
           "missing" if seconds is None else f"{seconds:.1f} s",
           "–" if seconds is None else
           f"{wanted['all_games_seconds'] / seconds:.1f}× faster than needed")
    golden = t["golden_batch_cycles_per_s"]
    target("golden model in batch, cycles/s", f"≥ {_number(wanted['golden_batch_cycles_per_s'])}",
           _number(golden), f"{golden / wanted['golden_batch_cycles_per_s']:.2f} of target")
    checked = t.get("checked_lanes_over_plain_verilator")
    target("every lane checked in bit planes, over plain Verilator's lanes",
           f"≥ {wanted['checked_lanes_over_plain_verilator']}×",
           "missing" if checked is None else f"{checked:.1f}×",
           "–" if checked is None else
           f"{checked / wanted['checked_lanes_over_plain_verilator']:.1f} of target")
    click = t["click_to_led_median_ms"]
    target("click to lights on make serve's page, median",
           f"< {wanted['click_to_led_ms']} ms",
           "missing: the browser's row below says why" if click is None else f"{click:.0f} ms",
           "–" if click is None else f"{wanted['click_to_led_ms'] / click:.1f}× faster than "
           "needed")
    return lines


def _speeds_section(workload, rows):
    lines = [
        "",
        "## Cycles per second",
        "",
        f"The workload: random sessions of {workload['cycles_per_session']} cycles at the "
        "chip's pins (sim/chip/stimulus.py: keys, chords, held keys, resets in searches, set-ups), "
        f"{workload['sessions']} of them one after the other on one chip, or "
        f"{workload['wide_sessions']} side by side in batch on the simulators that run them "
        "in a couple of seconds. Every probe signal (the pins and E.2's internal nodes) "
        "is read after every clock edge. Every simulator of sim/backends/'s table, the "
        "fastest first, runs through its `run`, which makes fresh lanes from power-up: "
        "the least time of runs of no clocks (making the lanes, finding the model) is "
        "taken off, so that a row is the simulation alone. Simulators alone here; the "
        "lockstep costs are the next table.",
        "",
        "The last column is each row's speed over Verilator with a plain C++ harness "
        "(the peer an FPGA engineer would write) on the same shape of work: one chip "
        "over its one chip, many lanes or processes over its many lanes.",
        "",
        "| simulator | mode | cycles | runs | median time | cycles/s | × plain Verilator |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['simulator']} | {row['mode']} | – | – | – | – | "
                         f"missing: {row['missing']} |")
        else:
            note = f" ({row['note']})" if row["note"] else ""
            ratio = row.get("over_plain_verilator")
            lines.append(f"| {row['simulator']} | {row['mode']}{note} | "
                         f"{_number(row['cycles'])} | {row['runs']} | "
                         f"{row['seconds']:.4f} s | {_number(row['cycles_per_s'])} | "
                         f"{'n/a: no plain Verilator figure' if ratio is None else f'{ratio:.3g}'} |")
    return lines + _limit(rows)


def _limit(rows):
    """How close the bit-parallel check comes to what the machine can do."""
    row = next((row for row in rows if row.get("ops") and row.get("clock_hz")), None)
    if row is None:
        return []
    limit = row["clock_hz"] * OPS_PER_CLOCK / row["ops"] * 64
    return [
        "",
        f"The limit of the bit-parallel check: one clock of 64 lanes is {_number(row['ops'])} "
        "word operations (the gates the flip-flops and the probes read, the enables and "
        "the comparison, as sim/backends/bitlanes.py counts them). One core at "
        f"{row['clock_hz'] / 1e6:,.0f} MHz doing at most {OPS_PER_CLOCK} of them a clock "
        f"(its integer ALUs) checks at most {_number(limit)} lane-cycles a second; the "
        f"check's row above is {row['cycles_per_s'] / limit:.0%} of that (lanes not filling a "
        "word count as empty). Past it: the other core "
        "(a process a group), or wider words (AVX2's 256 bits are 4 times the lanes an "
        "operation).",
    ]


def _cartridge_section(rows):
    lines = [
        "",
        f"## Cycles per second of the largest cartridge ({CARTRIDGE})",
        "",
        f"Every game of `make verify GAME={CARTRIDGE}`, each a core from power-up, all "
        "as lanes of one batch; every output of the cartridge read after every edge and "
        "compared with the golden model's recording. The golden model's row is its own "
        "speed, on the first games. The last column is each row over plain Verilator.",
        "",
        "| simulator | mode | cycles | runs | median time | cycles/s | × plain Verilator |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['simulator']} | {row['mode'] or '–'} | – | – | – | – | "
                         f"missing: {row['missing']} |")
        else:
            ratio = row.get("over_plain_verilator")
            lines.append(f"| {row['simulator']} | {row['mode']} | {_number(row['cycles'])} | "
                         f"{row['runs']} | {row['seconds']:.4f} s | "
                         f"{_number(row['cycles_per_s'])} | "
                         f"{'n/a: no plain Verilator figure' if ratio is None else f'{ratio:.3g}'} |")
    return lines


def _each_game_section(rows):
    lines = [
        "",
        "## make verify, game by game",
        "",
        "`make verify GAME=<game>` for every game (the museum's machines among them), "
        "each on its default backend, run twice. The first run builds the game's model "
        "and records its golden model unless the caches hold them already (earlier "
        "parts of this benchmark, or the tests, fill some); the second finds "
        "everything cached.",
        "",
        "| game | backend | cycles | first run | again | cycles/s again |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['game']} | – | – | – | – | missing: {row['missing']} |")
        else:
            lines.append(f"| {row['game']} | {row['backend']} | {_number(row['cycles'])} | "
                         f"{row['first_s']:.1f} s | {row['again_s']:.2f} s | "
                         f"{_number(row['cycles'] / row['again_s'])} |")
    return lines


def _lockstep_section(rows):
    lines = [
        "",
        "## Every game in lockstep",
        "",
        "The exhaustive check (`make verify`, sim/verification/verify.py) on every "
        "simulator of sim/backends/'s table, built before the clock starts: every game a "
        "user can play, every output pin and E.2 node compared with the golden model "
        "after every edge. The simulators play the same presses but count a few different "
        "cycles around them: those that force a lane's power-up split the games into "
        "lanes, each from power-up with its own reset and, where it begins in mid-game, "
        "its position entered at reset; cocotb, which cannot bring the netlist back to "
        "power-up, plays them all in one lane and holds reset for a few edges to bring "
        "the counter round to each opening; a board's gates power up as an FPGA "
        "configures them (docs/performance.md works the sums out).",
        "",
        "| simulator | runs | median wall time | cycles | cycles/s |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['simulator']} | – | – | – | missing: {row['missing']} |")
        else:
            cycles = row.get("cycles")
            lines.append(f"| {row['simulator']} | {row['runs']} | {row['seconds']:.1f} s | "
                         f"{'–' if cycles is None else _number(cycles)} | "
                         f"{'–' if cycles is None else _number(cycles / row['seconds'])} |")
    return lines


def _think_times_section(think):
    lines = [
        "",
        "## Think time per move",
        "",
        f"Over all {think['positions']} positions a user can reach (the golden model; the "
        "chip agrees every cycle): the cycles from the key's edge to the chip's wait or "
        "end (docs/decisions.md).",
        "",
        "| | cycles | at 6 MHz (the paper's clock) | at 12 MHz (the boards') |",
        "| --- | --- | --- | --- |",
    ]
    for name, cycles in (("worst", think["worst"]), ("mean over positions",
                                                       think["mean_per_position"]),
                         ("mean over every move of every game",
                          think["mean_per_move_of_all_games"]),
                         ("median", think["median"]), ("90th percentile", think["p90"]),
                         ("99th percentile", think["p99"])):
        lines.append(f"| {name} | {cycles:,.1f} | {cycles / 6:,.1f} µs | {cycles / 12:,.1f} µs |")
    lines += ["", "| cycles | positions |", "| --- | --- |"]
    lines += [f"| {low:,} – {high:,} | {count} |" for low, high, count in think["bins"]]
    lines += ["", f"The histogram: `{think['png']}` (written by the same run; build/ is not "
              "committed)."]
    return lines


def _boards_section(rows):
    lines = [
        "",
        "## Boards",
        "",
        "From `build/<board>/report.json`, which `make bitstream BOARD=...` writes "
        "(YoWASP Yosys and nextpnr; the chip and its desk: panel, debouncers, UART).",
        "",
        "| board | logic cells (LUTs) | flip-flops | nextpnr fmax | worst move at the board "
        "clock | worst move at fmax |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        if "missing" in row:
            lines.append(f"| {row['board']} | – | – | – | – | missing: {row['missing']} |")
        else:
            cells = row["logic_cells"]
            lines.append(
                f"| {row['board']} ({row['device']}) | {cells['used']} / {cells['available']} "
                f"{cells.get('cell', '')} | {row['flip_flops']} | {row['fmax_mhz']:.1f} MHz | "
                f"{row['worst_move_ms']:.3f} ms at {row['clock_mhz']:g} MHz | "
                f"{row['worst_move_ms_at_fmax']:.3f} ms |")
    return lines


def web_section(web):
    lines = [
        "",
        "## The console in a browser",
        "",
        "`make serve`'s page in Chromium (driven by Playwright), each game against the "
        "chip by clicking keys, opening with B3, its slowest answer (15,007 clocks): the "
        "time from a click to the frame that shows the answer on the LEDs, through the "
        "server and the board in a box, and of it the time at the board.",
        "",
    ]
    if "missing" in web:
        return lines + [f"missing: {web['missing']}"]
    return lines + [
        "| | click to lights | at the board |",
        "| --- | --- | --- |",
        f"| median over {web['moves']} moves of {web['games']} games | "
        f"{web['median_ms']:.1f} ms | {web['board_median_ms']:.1f} ms |",
        f"| worst move of them | {web['worst_ms']:.1f} ms | |",
        f"| B3 from the empty board (15,007 clocks), median | {web['worst_move_ms']:.1f} ms | "
        f"{web['box_alone_worst_move_ms']:.1f} ms from a terminal client, the box alone |",
        *_chip_rows(web),
        "",
        f"In {web['browser']}.",
    ]


def _chip_rows(web):
    """The chip's insides on the page (make serve's chip panel), when measured."""
    if "chip_step_median_ms" not in web:
        return []
    return [
        "",
        "The chip's insides on the same page: the time from a click to the frame that "
        "shows it (goals: under 50 ms a step, under 1 s the worst move with its tree).",
        "",
        "| | click to the frame shown |",
        "| --- | --- |",
        f"| one edge stepped, median over {web['chip_steps']} | "
        f"{web['chip_step_median_ms']:.1f} ms (slowest {web['chip_step_worst_ms']:.1f} ms) |",
        f"| B3's search (15,007 clocks) run at full speed and its tree drawn, median over "
        f"{web['chip_runs']} | {web['chip_worst_run_median_ms']:.0f} ms |",
    ]


def classroom_section(room):
    lines = [
        "",
        "## The console under a classroom's load",
        "",
        "`ttt serve` in a process of its own, its pages WebSockets that speak the page's "
        "messages (boards/web/classroom.py): pages each playing a whole game against the "
        "chip at once, the first empty place each move, as a person pauses before it; one "
        "page's keys, pressed at once, while another asks "
        "its chip for the most edges a message may clock, again and again; and the most "
        "memory one page can add (its chip clocked as far as a session goes, the longest "
        "search run with its tree, its waves written, its start shown again). "
        "Goals: p95 under 150 ms, the worst key beside the flood under 100 ms, one page "
        "under 50 MB.",
        "",
    ]
    if "missing" in room:
        return lines + [f"missing: {room['missing']}"]
    pupils, flood, rush = room["class"], room["flood"], room.get("rush")
    return lines + [
        "| | median | p95 | worst |",
        "| --- | --- | --- | --- |",
        f"| {pupils['pupils']} pages at once (`--sessions {pupils['sessions']}`), each "
        f"pausing {pupils['think_s'][0]:g} to {pupils['think_s'][1]:g} s before a key, "
        f"{pupils['moves']} moves | {pupils['median_ms']:.0f} ms | {pupils['p95_ms']:.0f} ms | "
        f"{pupils['worst_ms']:.0f} ms |",
        *([f"| the same pages pressing at the same instant, {rush['moves']} moves | "
           f"{rush['median_ms']:.0f} ms | {rush['p95_ms']:.0f} ms | {rush['worst_ms']:.0f} ms |"]
          if rush else []),
        f"| a page's keys while another floods the chip ({flood['steps']} steps of "
        f"{flood['edges']:,} edges), {flood['moves']} moves | {flood['median_ms']:.0f} ms | "
        f"{flood['p95_ms']:.0f} ms | {flood['worst_ms']:.0f} ms |",
        "",
        f"The server's memory (RSS): {pupils['rss_before_mb']:.0f} MB before the "
        f"{pupils['pupils']} pages, {pupils['rss_playing_mb']:.0f} MB as they finished, "
        f"{pupils['rss_after_mb']:.0f} MB once they had left; the most one page added: "
        f"{room['one_page_mb']:.0f} MB. On {room['cores']} cores.",
        *_desks_table(room.get("desks", {})),
    ]


def _desks_table(desks):
    if not desks:
        return []
    return ["", "A key against the chip on each desk, one page alone (`ttt serve --game "
            "DESK`): a game opened on each of the nine places, then the first empty place "
            "each move, waiting for each answer.", "",
            "| desk | keys | median | p95 | worst |", "| --- | --- | --- | --- | --- |",
            *(f"| `{desk}` | {row['moves']} | {row['median_ms']:.1f} ms | "
              f"{row['p95_ms']:.1f} ms | {row['worst_ms']:.1f} ms |"
              for desk, row in desks.items())]


def site_section(site):
    lines = [
        "",
        "## The static site",
        "",
        "`make site`'s every game served by `python3 -m http.server` on this machine and "
        "opened in Chromium, the page's console in a Worker of its own (docs/site.md). "
        "Goals: a first visit under 20 MB and playable within 5 s; click to lights under "
        "100 ms; one edge of the insides under 50 ms, B3's search with its tree under 1 s.",
        "",
    ]
    if "missing" in site:
        return lines + [f"missing: {site['missing']}"]
    parts = site["first_visit_bytes"]
    page = site["page"]
    came = site.get("first_visit_came_s", {})
    lines += ["| a first visit fetches | MB | its largest file read by |",
              "| --- | --- | --- |"]
    lines += [f"| {part} | {size / 1e6:.2f} | "
              f"{f'{came[part]:.1f} s' if part in came else '-'} |" for part, size in
              sorted(parts.items(), key=lambda item: -item[1])]
    lines += [f"| all of it | {sum(parts.values()) / 1e6:.2f} | |", "",
              f"From opening the address to a playable panel: {site['load_median_s']:.1f} s "
              f"(median of {site['loads']} fresh visits, nothing cached). Chromium compiles "
              "WebAssembly as it reads it, so that the runtime's row is its compile more "
              "than its fetch, from this machine; the rest is the page's start: the "
              "runtime's, the console's Python in it, and the first desk's first status "
              "line.", "",
              "| on the site's page | median |", "| --- | --- |",
              f"| click to lights, {page['moves']} moves of {page['games']} games | "
              f"{page['median_ms']:.1f} ms (worst {page['worst_ms']:.1f} ms) |",
              f"| B3 from the empty board (15,007 clocks) | {page['worst_move_ms']:.1f} ms |",
              f"| the insides: one edge stepped and shown | "
              f"{page['chip_step_median_ms']:.1f} ms |",
              f"| the insides: B3's search run and its tree drawn | "
              f"{page['chip_worst_run_median_ms']:.0f} ms |", "",
              "Each game's desk, idle, in desk clocks per second: compiled to WebAssembly "
              "(Zig, -O1) and clocked in Chromium, beside its native build (the system's "
              "compiler, -O2), the board in a box's.", "",
              "| desk | WebAssembly in Chromium | native | ratio |", "| --- | --- | --- | --- |"]
    lines += [f"| {row['game']} | {row['wasm_clocks_per_s'] / 1e6:.2f} M | "
              f"{row['native_clocks_per_s'] / 1e6:.2f} M | "
              f"{row['wasm_clocks_per_s'] / row['native_clocks_per_s']:.2f} |"
              for row in site["desks"]]
    return lines + ["", f"In {page['browser']}."]


def formal_section(path=BUILD / "formal" / "report.json"):
    """make formal's last whole runs, as it wrote them (make benchmark does not run it),
    and the jobs of the last run: the time by mode, and the longest."""
    try:
        last = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        last = {}
    runs = last.get("runs", [])
    if not runs:
        return ["", "## make formal", "", "No whole run of make formal yet."]
    walls = sorted(run["wall"] for run in runs[-3:])
    out = ["", "## make formal", "",
           f"Median of the last {len(walls)} whole runs: {walls[len(walls) // 2]:.0f} s "
           "wall (build/formal/report.md has each job's time). Before the jobs ran in "
           "parallel and the deep covers started from a game's position, one run took "
           f"{FORMAL_BEFORE[0]:,} s on this machine (commit {FORMAL_BEFORE[1]}, "
           f"{FORMAL_BEFORE[2]}).", "",
           "| date | wall | jobs at once | load at the start |", "| --- | --- | --- | --- |",
           *(f"| {run['date']} | {run['wall']:.0f} s | {run['workers']} | "
             f"{run['load']:.2f} |" for run in runs[-3:])]
    done = last.get("jobs", [])
    if done:
        modes = sorted({job["mode"] for job in done})
        out += ["", "The SBY jobs of the last run, by mode:", "",
                "| mode | jobs | seconds |", "| --- | --- | --- |",
                *(f"| {mode} | {sum(job['mode'] == mode for job in done)} | "
                  f"{sum(job['seconds'] for job in done if job['mode'] == mode):.0f} |"
                  for mode in modes),
                "", f"The {min(FORMAL_LONGEST, len(done))} longest:", "",
                "| job | mode | engine | depth | result | seconds |",
                "| --- | --- | --- | --- | --- | --- |",
                *(f"| {job['job']} | {job['mode']} | `{job['engine']}` | {job['depth']} | "
                  f"{job['status']} | {job['seconds']:.1f} |"
                  for job in sorted(done, key=lambda job: -job["seconds"])[:FORMAL_LONGEST])]
    return out


def write(result, out):
    """The raw figures into RAW and BENCHMARKS.md into folder `out`: its path."""
    with replacing(RAW) as file:
        file.write(json.dumps(result, indent=2) + "\n")
    path = Path(out) / "BENCHMARKS.md"
    with replacing(path) as file:
        file.write(markdown(result))
    return path
