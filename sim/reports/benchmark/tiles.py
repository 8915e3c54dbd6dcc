"""The chip, and the Tiny Tapeout top that holds it, in SkyWater 130 nm cells: the cells
by type, their area from the LEF, and the Tiny Tapeout tiles that area asks for
(sim/verification/sky130.py synthesises them; docs/sky130.md).

A tile's cells stand in its core: the die less TT's margins (its flow's config:
LEFT_MARGIN_MULT and RIGHT_MARGIN_MULT 6 sites, TOP_MARGIN_MULT and
BOTTOM_MARGIN_MULT 1 row), and its placer packs them to PL_TARGET_DENSITY_PCT 60 %. So
the design asks for the smallest tile whose core holds its cells at 60 %. That is an
estimate: LibreLane adds tap cells and the buffers its timing repair wants, which only
TT's GDS workflow measures.
"""

import time
from collections import Counter

from sim import yosys_json
from sim.verification import sky130, verify

__all__ = ["TILES", "UTILISATION", "design", "figures", "section"]

# TT's tile sizes on sky130 (die width, height in micrometres), as its flow's DIE_AREA.
TILES = {"1x1": (161.00, 111.52), "1x2": (161.00, 225.76), "2x2": (334.88, 225.76),
         "3x2": (508.76, 225.76), "4x2": (682.64, 225.76), "6x2": (1030.40, 225.76),
         "8x2": (1378.16, 225.76)}
UTILISATION = 0.60                  # TT's PL_TARGET_DENSITY_PCT
SITE_UM, ROW_UM = 0.46, 2.72        # sky130_fd_sc_hd's unithd site: width, row height
MARGIN_SITES, MARGIN_ROWS = 6, 1    # TT's margins, each side


def core_area(tile):
    """The core of `tile` (a TILES key) in square micrometres."""
    width, height = TILES[tile]
    return (width - 2 * MARGIN_SITES * SITE_UM) * (height - 2 * MARGIN_ROWS * ROW_UM)


def design(folder):
    """The figures of one synthesised design (`folder` from sky130.synthesize): its
    cells by type, flip-flops, area, and the tile it asks for with each tile's
    utilisation."""
    module = yosys_json.read(folder / "chip.json").top
    kinds = Counter(cell.type.removeprefix(f"{sky130.LIBRARY}__")
                    for cell in module.cells.values())
    area = sum(n * sky130.area(kind.rsplit("_", 1)[0]) for kind, n in kinds.items())
    used = {tile: area / core_area(tile) for tile in TILES}
    tile = next((t for t, u in used.items() if u <= UTILISATION), None)
    flops = sum(n for kind, n in kinds.items() if kind.startswith(sky130.FLIP_FLOP))
    return {"cells": sum(kinds.values()), "flip_flops": flops, "area_um2": round(area, 1),
            "by_type": dict(sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))),
            "utilisation": {t: round(u, 3) for t, u in used.items()}, "tiles": tile}


def figures(tinytapeout=None, *, log=print):
    """{name: design figures} of the chip alone and, where the caller hands it in
    (`tinytapeout()`: (top module, RTLIL), from boards/), the Tiny Tapeout top, and
    the wall time of every game in lockstep on the chip's cells (``make verify
    NETLIST=sky130``, its build apart); or {"missing": why} where the cells or Yosys
    are not installed."""
    try:
        log(f"{sky130.LIBRARY}: the chip's cells, area and tiles")
        found = {"designs": {"chip": design(sky130.synthesize(log=log))}}
        if tinytapeout is not None:
            top, rtlil = tinytapeout()
            found["designs"][top] = design(sky130.synthesize(rtlil, top, log=log))
    except sky130.cli.UserError as missing:
        return {"missing": str(missing)}
    try:
        gates = sky130.Gates(log=log)
        started = time.perf_counter()
        outcome = verify.verify(gates=gates)
        found["lockstep"] = {"seconds": round(time.perf_counter() - started, 2),
                             "games": outcome.games, "cycles": outcome.cycles}
    except sky130.cli.UserError as missing:         # Verilator or make
        found["lockstep"] = {"missing": str(missing)}
    return found


def section(found):
    """BENCHMARKS.md's section of `figures`."""
    lines = ["", "## The chip in SkyWater 130 nm cells (Tiny Tapeout)", "",
             f"Yosys's mapping to `{sky130.LIBRARY}` (sim/verification/sky130.py), the "
             f"cells' area from their LEF, and the Tiny Tapeout tiles at TT's "
             f"{UTILISATION:.0%} placement density (docs/sky130.md).", ""]
    if "missing" in found:
        return lines + [f"Not measured: {found['missing']}"]
    lines += ["| design | cells | flip-flops | area of the cells | utilisation of 1x1 "
              "| of 1x2 | tiles |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, d in found["designs"].items():
        lines.append(f"| {name} | {d['cells']:,} | {d['flip_flops']} | "
                     f"{d['area_um2']:,.0f} µm² | {d['utilisation']['1x1']:.0%} | "
                     f"{d['utilisation']['1x2']:.0%} | {d['tiles'] or 'more than 8x2'} |")
    lines += ["", "Cells by type:", ""]
    for name, d in found["designs"].items():
        lines.append(f"- {name}: " + ", ".join(f"{kind} {n}"
                                                for kind, n in d["by_type"].items()))
    lock = found["lockstep"]
    lines.append("")
    lines.append(f"Every game in lockstep on the chip's cells (`make verify NETLIST=sky130`, "
                 f"Verilator, its build apart): {lock['games']} games, {lock['cycles']:,} "
                 f"cycles in {lock['seconds']:.1f} s." if "missing" not in lock else
                 f"Every game on the chip's cells: not measured: {lock['missing']}")
    return lines
