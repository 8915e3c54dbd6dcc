"""What each block of a board build costs, in logic cells and fmax: ``make cost``.

``ttt cost --board B --game G --seeds N ...`` builds the board as ``make bitstream``
does (boards/builds/build.py `plan`: its RTLIL, Yosys script, PCF and nextpnr command
line, with the chip kept as its own module), then places and routes it once per seed,
and writes under ``build/cost/<board>/``: ``cost.md`` (the tables it prints) and
``cost.json`` (every number, per seed), beside the runs (``synth/``, and per seed the
production and timing nextpnr runs). The blocks are `BLOCKS`: instance paths, a path
matching an instance and everything under it, the longest matching path winning, and
``top`` taking what no other block claims; an instance name that Amaranth made unique
with a ``$N`` suffix matches its plain name. docs/boards.md (Cost) has the figures.

Logic cells per block (the production build, unchanged)
-------------------------------------------------------
A cell belongs to the block that *drives the RTL signal it computes*, not to the block
its name starts with: Yosys names a flattened cell after a net it touches, and a net
that crosses a module boundary keeps one scope's name only. So (rules 1 and 2 are
boards/builds/cost_cells.py, rule 3 boards/builds/cost_lcs.py):

1. A second Yosys run of the same script stops right after ``flatten`` (``synth_ice40
   -run :coarse``). There every public signal bit still has its RTL driver cell, whose
   name gives its scope (``$flatten\\desk.\\link.$procdff$12`` is in desk.link; public
   cells carry ``hdlname``; a kept module's cells are in its instance). An inverter or
   buffer is looked through (it costs no LUT), except where that would put a cell
   outside a kept module into it.
2. In the final netlist (the one nextpnr reads), a SB_LUT4 / SB_DFF* / SB_CARRY whose
   output bit still carries an RTL signal name (``hdlname``), or feeds a pad, belongs to
   that signal's driver: this settles nearly every flip-flop. Every other cell (ABC's
   LUTs, whose outputs are new nets) belongs to the block of the cells it feeds
   (majority, repeated to a fixed point; ties to the deeper path); cells left over take
   their drivers' block. A cell outside a kept module is never given to that module.
   Where Yosys optimised across a boundary, the merged LUTs go with the cone they ended
   up in; the rule does not change with a refactor, which is what a comparison needs.
3. nextpnr packs the cells into ICESTORM_LCs named after them (``<LUT>_LC`` holding the
   LUT and maybe the FF it alone feeds, ``<FF>_DFFLC``, ``<CARRY>$CARRY``). An LC
   belongs to the block of its LUT, else of its FF, else of its carry (column ``mixed``
   counts LCs whose LUT and FF differ); carry feed-in LCs go to the LC their carry
   feeds, ``$PACKER_GND/VCC`` to top. The blocks add up to nextpnr's ICESTORM_LC total
   (asserted). Packing precedes placement, so LC counts do not depend on the seed.
The Yosys LUT4 / DFF / CARRY counts per block are rule 2 on the final Yosys netlist; the
last column says how many were settled by their own output's name.

fmax per block (a separate timing build per seed)
-------------------------------------------------
nextpnr reports one fmax per clock net, so in a timing build the flip-flops of the
`SPLIT` blocks (the chip) are clocked through a second global buffer (an SB_GB inserted
into the final netlist, fed by the same clock net: boards/builds/cost_clock.py);
everything else stays on the board clock. The netlist is otherwise the production one,
placed and routed with the same seed. nextpnr then reports the chip's internal fmax,
the rest's (``desk``: desk glue, link, panel, debouncers, top), and the worst cross
paths chip -> desk and desk -> chip, shown as 1000 / the path's delay, as nextpnr
prints them (no clock skew). ``timing build whole`` is the lowest of the four, to
compare with the production build (the second global buffer delays the chip's clock by
~1.6 ns, which nextpnr leaves out of these numbers).

The timing build places differently from the production build (one more global net),
so per-seed values scatter as any seed does; the medians are what to compare. The
production build gives the whole design's fmax and its critical path, whose start and
end flip-flops are mapped to blocks with the attribution above.
"""

import datetime
import json
import shlex
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

from firmware_ref.cli import UserError, replacing

from sim import BUILD, ROOT, yosys_json
from sim.tools import SEEDS, median, run_tool, toolchain_env
from sim.yosys_json import ICESTORM_LC, SB_GB

from boards.gateware.boards.family import ICE40
from boards.gateware.top import target
from boards.builds import build
from boards.builds.cost_cells import Blocks, attribute_cells, driver_scopes, flatten, kind
from boards.builds.cost_clock import SPLIT_NET, split_clock_netlist
from boards.builds.cost_lcs import clock_pairs, endpoint_block, lc_owners, path_ends

__all__ = ["BLOCKS", "SPLIT", "REST", "MARKDOWN", "RESULT", "cost_dir", "measure",
           "markdown", "run"]

# The reported blocks and their instance paths (see above); "top" takes the rest.
BLOCKS = {"chip": (build.CHIP_INSTANCE,), "adapter": ("desk.cartridge0",),
          "link": ("desk.link",), "panel": ("desk.panel",),
          "debouncers": ("desk.contacts",), "desk_glue": ("desk",), "top": ()}
SPLIT = ("chip",)               # on their own global clock in the timing build
REST = "desk"                   # what the timing build's board clock keeps
JOBS = 2                        # nextpnr runs in parallel
MARKDOWN = "cost.md"
RESULT = "cost.json"


# ---------------------------------------------------------------- the plan

def _extract_plan(board, games, workdir):
    """The project's build plan, extracted into `workdir`; returns (device, nextpnr argv)."""
    platform = board.make_platform()
    plan = build.plan(board, games)
    plan.extract(workdir)
    script = (workdir / f"{plan.script}.sh").read_text()
    line = next(l for l in script.splitlines() if l.startswith('"$NEXTPNR_ICE40"'))
    argv = shlex.split(line)[1:]
    return f"{platform.device}-{platform.package}", argv


def with_options(argv, **options):
    """`argv` with --option values replaced or added (None removes the option)."""
    out, skip = [], False
    for i, token in enumerate(argv):
        if skip:
            skip = False
            continue
        key = token[2:].replace("-", "_") if token.startswith("--") else None
        if key in options:
            skip = True
            continue
        out.append(token)
    for key, value in options.items():
        if value is not None:
            out += [f"--{key.replace('_', '-')}", str(value)]
    return out


# ---------------------------------------------------------------- one board

def _synthesize(synth_dir, board, games, yosys):
    synth_dir.mkdir(parents=True, exist_ok=True)
    device, argv = _extract_plan(board, games, synth_dir)
    name = build.NAME
    run_tool([yosys, "-q", "-l", f"{name}.rpt", f"{name}.ys"], synth_dir,
             "Yosys (synthesis)", synth_dir)
    # The same script, stopped right after flatten: every signal's RTL driver.
    script = (synth_dir / f"{name}.ys").read_text()
    lines = []
    for line in script.splitlines():
        if line.strip().startswith("synth_ice40"):
            lines += [line + " -run :coarse", "select A:whitebox %n",
                      "write_json -selected flat.json"]
            break
        lines.append(line)
    (synth_dir / "flat.ys").write_text("\n".join(lines) + "\n")
    run_tool([yosys, "-q", "-l", "flat.rpt", "flat.ys"], synth_dir,
             "Yosys (synthesis up to flatten)", synth_dir)
    return device, argv


def _pnr(nextpnr, argv, json_path, pcf, rundir, seed):
    rundir.mkdir(parents=True, exist_ok=True)
    report = rundir / "report.json"
    cmd = [nextpnr] + with_options(argv, json=json_path, pcf=pcf, log=rundir / "nextpnr.log",
                                   asc=rundir / "out.asc", seed=seed, report=report,
                                   write=rundir / "routed.json")
    (rundir / "command.txt").write_text(shlex.join(cmd) + "\n")
    run_tool(cmd, rundir, f"nextpnr (place and route, seed {seed})", rundir)


def cost_dir(board, games=build.DEFAULT_GAMES):
    """build/cost/<board>/, or build/cost/<board>-<game>+<game>/ as build_dir names it."""
    return BUILD / "cost" / build.build_dir(board, games).name


class Design(NamedTuple):
    """The final Yosys netlist with every cell given to its RTL scope."""
    netlist: yosys_json.Netlist     # as Yosys wrote it
    top: str                        # its top module
    cells: dict                     # `flatten`'s cells
    owner: dict                     # cell name -> instance path (`attribute_cells`)
    by_name: set                    # the cells settled by their own output's name


def measure(board, games=build.DEFAULT_GAMES, seeds=SEEDS, out=None, log=print):
    """Build `games` for board `board` (a name), place and route it once per seed under
    `out` (default `cost_dir`), and return every number as a dict (see the module)."""
    board = target(board)
    if board.family is not ICE40:
        # Its blocks are found in nextpnr's iCE40 cells (ICESTORM_LC) and its clock split
        # in an iCE40 netlist: an ECP5 or Gowin build's whole figures are its report's.
        raise UserError(f"make cost measures iCE40 builds, block by block; the "
                        f"{board.name} is an {board.family.name} board: "
                        f"{build.bitstream_command(board.name, games)} reports its LUTs "
                        f"and fmax")
    games, seeds = tuple(games), list(seeds)
    env = toolchain_env()
    yosys, nextpnr = env["YOSYS"], env["NEXTPNR_ICE40"]
    out = Path(out or cost_dir(board.name, games))
    synth_dir = out / "synth"
    blocks = Blocks(BLOCKS)
    log(f"synthesising {', '.join(games)} for the {board.name} in {synth_dir}")
    device, argv = _synthesize(synth_dir, board, games, yosys)
    design = _attributed(synth_dir)
    yosys_cells = _yosys_cells(design, blocks)
    timing_net, moved = split_clock_netlist(design.netlist, design.top, design.cells,
                                            design.owner, blocks, set(SPLIT))
    timing_json = synth_dir / "timing.json"
    timing_net.write(timing_json)
    _place_and_route(nextpnr, argv, synth_dir, timing_json, out, seeds, log)
    per_seed = {seed: {**_production(out / f"seed{seed}" / "production", design, blocks),
                       "timing_build": _timing_build(out / f"seed{seed}" / "timing",
                                                     design, blocks)}
                for seed in seeds}
    return {
        "board": board.name, "device": device, "games": list(games), "commit": _git_commit(),
        "date": datetime.datetime.now().isoformat(timespec="seconds"),
        "keep_hierarchy": [build.CHIP_INSTANCE],
        "blocks": [f"{b}={','.join(paths)}" for b, paths in BLOCKS.items()],
        "split": list(SPLIT), "rest_name": REST,
        "nextpnr_argv": argv, "tools": {"yosys": yosys, "nextpnr": nextpnr},
        "split_ffs_moved": moved,
        "yosys_cells": {b: dict(c) for b, c in yosys_cells.items()},
        "yosys_cells_total": dict(sum(yosys_cells.values(), Counter())),
        "seeds": per_seed, "median": _medians(per_seed, seeds),
    }


def _attributed(synth_dir):
    """The final netlist of `_synthesize`, each cell given to the scope of the RTL
    signal it computes, read from the netlist stopped after flatten (rules 1 and 2)."""
    final = yosys_json.read(synth_dir / f"{build.NAME}.json")
    top = final.top.name
    cells, nets, _ = flatten(final, top)
    scopes, anchors = driver_scopes(yosys_json.read(synth_dir / "flat.json"), top)
    owner, by_name = attribute_cells(cells, nets, scopes, anchors)
    return Design(final, top, cells, owner, by_name)


def _yosys_cells(design, blocks):
    """{block: Counter of LUT4, DFF, CARRY, and "named": those settled by their name}."""
    counts = {b: Counter() for b in blocks.order}
    for cell_name, cell in design.cells.items():
        cell_kind = kind(cell.type)
        if cell_kind:
            count = counts.setdefault(blocks.of(design.owner[cell_name]), Counter())
            count[cell_kind] += 1
            if cell_name in design.by_name:
                count["named"] += 1
    return counts


def _place_and_route(nextpnr, argv, synth_dir, timing_json, out, seeds, log):
    """The production and the timing netlist, placed and routed once per seed under
    out/seed<N>/production and out/seed<N>/timing, `JOBS` nextpnr runs at a time."""
    production_json = synth_dir / f"{build.NAME}.json"
    pcf = synth_dir / f"{build.NAME}.pcf"
    jobs = []
    for seed in seeds:
        jobs.append((production_json, out / f"seed{seed}" / "production", seed))
        jobs.append((timing_json, out / f"seed{seed}" / "timing", seed))
    log(f"placing and routing, seeds {' '.join(map(str, seeds))}: {len(jobs)} nextpnr runs, "
        f"{JOBS} at a time (about a minute each)")
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        for done in [pool.submit(_pnr, nextpnr, argv, netlist, pcf, rundir, seed)
                     for netlist, rundir, seed in jobs]:
            done.result()


def _pnr_results(rundir):
    """A nextpnr run's report (a dict) and the netlist it placed and routed."""
    return (json.loads((rundir / "report.json").read_text()),
            yosys_json.read(rundir / "routed.json"))


def _production(rundir, design, blocks):
    """One seed's production build: its LCs per block and its critical path."""
    report, routed = _pnr_results(rundir)
    info, mixed = lc_owners(routed, design.cells, design.owner, blocks)
    per_block = Counter(i["block"] for i in info.values())
    total = report["utilization"][ICESTORM_LC]["used"]
    assert sum(per_block.values()) == total, (sum(per_block.values()), total)
    # The slowest path from a clock's rising edge to the same clock's.
    same_clock = [pair for clocks, pair in clock_pairs(report).items()
                  if clocks[0].startswith("pos") and clocks[0] == clocks[1]]
    critical = min(same_clock, key=lambda pair: 1000 / pair["delay_ns"], default=None)
    start_cell = end_cell = start = end = None
    if critical:
        start_cell, end_cell = path_ends(critical["path"])
        start = endpoint_block(start_cell, info, design.cells, design.owner, blocks)
        end = endpoint_block(end_cell, info, design.cells, design.owner, blocks)
    return {
        "lc_total": total,
        "lc": {b: per_block.get(b, 0)
               for b in blocks.order + sorted(set(per_block) - set(blocks.order))},
        "lc_mixed": mixed,
        "fmax_mhz": min(c["achieved"] for c in report["fmax"].values()),
        "critical_path": {"from_block": start, "to_block": end,
                          "from_cell": start_cell, "to_cell": end_cell,
                          "delay_ns": critical["delay_ns"] if critical else None},
    }


def _timing_build(rundir, design, blocks):
    """One seed's timing build: the split blocks' fmax, the rest's, and the paths
    between them."""
    report, routed = _pnr_results(rundir)
    info, _ = lc_owners(routed, design.cells, design.owner, blocks)
    split_clocks = [c for c in report["fmax"] if SPLIT_NET in c]
    rest_clocks = [c for c in report["fmax"] if SPLIT_NET not in c]
    pairs = clock_pairs(report)

    def between(sources, destinations):
        """The first path from a clock of `sources` to one of `destinations`."""
        for (source, destination), pair in pairs.items():
            if (source.split(" ", 1)[-1] in sources
                    and destination.split(" ", 1)[-1] in destinations):
                start, end = path_ends(pair["path"])
                return {"mhz": 1000 / pair["delay_ns"], "delay_ns": pair["delay_ns"],
                        "from": [start, endpoint_block(start, info, design.cells,
                                                       design.owner, blocks)],
                        "to": [end, endpoint_block(end, info, design.cells, design.owner,
                                                   blocks)]}
        return None
    paths = {"split_internal": between(split_clocks, split_clocks),
             "rest_internal": between(rest_clocks, rest_clocks),
             "split_to_rest": between(split_clocks, rest_clocks),
             "rest_to_split": between(rest_clocks, split_clocks)}
    return {
        "lc_total": report["utilization"][ICESTORM_LC]["used"],
        "global_buffers": report["utilization"].get(SB_GB, {}).get("used"),
        "split_fmax_mhz": min((report["fmax"][c]["achieved"] for c in split_clocks),
                              default=None),
        "rest_fmax_mhz": min((report["fmax"][c]["achieved"] for c in rest_clocks),
                             default=None),
        **paths,
        "whole_mhz": min([p["mhz"] for p in paths.values() if p], default=None),
        "clocks": list(report["fmax"]),
    }


def _medians(per_seed, seeds):
    """The medians over the seeds of what `markdown` shows in bold."""
    runs = per_seed.values()
    timing = [run["timing_build"] for run in runs]

    def crossing(name):
        return median([(t[name] or {}).get("mhz") for t in timing])
    return {
        "lc_total": median([run["lc_total"] for run in runs]),
        "lc": {b: median([run["lc"].get(b, 0) for run in runs])
               for b in per_seed[seeds[0]]["lc"]},
        "fmax_mhz": median([run["fmax_mhz"] for run in runs]),
        "split_fmax_mhz": median([t["split_fmax_mhz"] for t in timing]),
        "rest_fmax_mhz": median([t["rest_fmax_mhz"] for t in timing]),
        "split_to_rest_mhz": crossing("split_to_rest"),
        "rest_to_split_mhz": crossing("rest_to_split"),
        "timing_whole_mhz": median([t["whole_mhz"] for t in timing]),
        "critical_path_blocks": dict(Counter(
            f"{run['critical_path']['from_block']} -> {run['critical_path']['to_block']}"
            for run in runs)),
    }


def _git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip() or None
    except OSError:
        return None


# ---------------------------------------------------------------- report

def fmt(v, digits=2):
    return "-" if v is None else (f"{v:.{digits}f}" if isinstance(v, float) else str(v))


def markdown(r):
    """The tables of a `measure` result, as Markdown."""
    split = "+".join(r["split"])
    rest = r["rest_name"]
    lc_names = list(r["median"]["lc"])
    out = [f"## {r['board']} ({r['device']}), {'+'.join(r['games'])}: commit "
           f"{(r['commit'] or '?')[:10]}, seeds {' '.join(map(str, r['seeds']))}", ""]
    out += [f"### Logic cells ({ICESTORM_LC}, production build)", "",
            "| seed | total | " + " | ".join(lc_names) + " | mixed LUT/FF LCs |",
            "|---" * (len(lc_names) + 3) + "|"]
    for seed, s in r["seeds"].items():
        out.append(f"| {seed} | {s['lc_total']} | "
                   + " | ".join(str(s["lc"].get(b, 0)) for b in lc_names)
                   + f" | {s['lc_mixed']} |")
    m = r["median"]
    out.append(f"| **median** | **{fmt(m['lc_total'])}** | "
               + " | ".join(f"**{fmt(m['lc'][b])}**" for b in lc_names) + " | |")
    out += ["", "### Yosys cells per block (synth_ice40, same for every seed)", "",
            "| block | LUT4 | DFF | CARRY | of these, by their own output's name |",
            "|---|---|---|---|---|"]
    for b, c in list(r["yosys_cells"].items()) + [("**total**", r["yosys_cells_total"])]:
        out.append(f"| {b} | {c.get('LUT4', 0)} | {c.get('DFF', 0)} | {c.get('CARRY', 0)} "
                   f"| {c.get('named', 0)} |")
    out += ["", f"### fmax (MHz); per block from the timing build ({split} flip-flops on "
                f"their own global clock)", "",
            f"| seed | whole design | critical path (start -> end block) | {split} internal "
            f"| {rest} internal "
            f"| {split} -> {rest} | {rest} -> {split} | timing build whole |",
            "|---|---|---|---|---|---|---|---|"]
    for seed, s in r["seeds"].items():
        t = s["timing_build"]
        cp = s["critical_path"]
        out.append(f"| {seed} | {fmt(s['fmax_mhz'])} | {cp['from_block']} -> {cp['to_block']} "
                   f"| {fmt(t['split_fmax_mhz'])} | {fmt(t['rest_fmax_mhz'])} "
                   f"| {fmt((t['split_to_rest'] or {}).get('mhz'))} "
                   f"| {fmt((t['rest_to_split'] or {}).get('mhz'))} "
                   f"| {fmt(t['whole_mhz'])} |")
    cps = ", ".join(f"{k} x{v}" for k, v in m["critical_path_blocks"].items())
    out.append(f"| **median** | **{fmt(m['fmax_mhz'])}** | {cps} | **{fmt(m['split_fmax_mhz'])}** "
               f"| **{fmt(m['rest_fmax_mhz'])}** | **{fmt(m['split_to_rest_mhz'])}** "
               f"| **{fmt(m['rest_to_split_mhz'])}** "
               f"| **{fmt(m['timing_whole_mhz'])}** |")
    out += ["", f"{r['split_ffs_moved']} clock pins moved to the {split} clock in the timing "
            "build. Blocks: " + "; ".join(r["blocks"]) + "."]
    return "\n".join(out) + "\n"


def run(board, games=build.DEFAULT_GAMES, seeds=SEEDS, out=None, log=print):
    """`measure`, then write `MARKDOWN` and `RESULT` into `out` (default `cost_dir`),
    each whole or not at all, and print the Markdown."""
    out = Path(out or cost_dir(board, games))
    result = measure(board, games, seeds, out, log=log)
    text = markdown(result)
    with replacing(out / RESULT) as file:
        file.write(json.dumps(result, indent=1, default=str) + "\n")
    with replacing(out / MARKDOWN) as file:
        file.write(text)
    print(text)
    log(f"wrote {out / MARKDOWN} and {out / RESULT}; the runs are under {out}/")
