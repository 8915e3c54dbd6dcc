"""One game's waves at the console's pins: the golden model's written as it plays, the
core's renamed from Amaranth's, their GTKWave view, and the comparison of the two.

A game at the cartridge's pins is named alike everywhere: in its netlist (the top module
`TOP`, clocked by `CLOCK`) and in its waves, under the scope `TOP`. A golden model's
field is a port of the core (`port`): ``key``, ``board``, and a stream's fields with
Amaranth's double underscore (``rx_valid`` in the model, ``rx__valid`` in the core).
Every bench applies a clock's inputs at the falling edge before its rising edge, every
`PERIOD`, the first rising edge at `PERIOD`, so that the two files pair clock by clock.
"""

import dataclasses
from fractions import Fraction
from pathlib import Path

from amaranth.hdl import Shape

from firmware_ref.places import coordinate
from hdl.cartridge import Signature

from sim.waves import compare as comparer
from sim.waves import files, gtkw

__all__ = ["TOP", "CLOCK", "PERIOD", "fields", "port", "widths", "write_golden", "rename",
           "view", "compare"]

TOP = "cartridge"           # the netlist's top module, and the waves' scope
CLOCK = "cp"                # the chip's name, which sim/backends/compiled_chip.cc clocks
PERIOD = Fraction(1, 10**6)     # seconds; rising edges at 1 us, 2 us, ...
UNIT = Fraction(1, 10**9)       # the golden waves' time unit
# The rows of the view, in the signature's order of meaning.
INPUTS = ("start", "key", "switches", "position", "rx__valid", "rx__payload", "tx__ready")
OUTPUTS = ("ready", "busy", "over", "lamps", "board", "rx__ready", "tx__valid",
           "tx__payload")
BINARY = ("key", "lamps", "switches")
BOARD_SIGNALS = {"position", "board"}     # nine places of two bits: shown place by place


def fields(package):
    """The names of a golden model's Inputs and Probe fields: (inputs, outputs)."""
    return ([f.name for f in dataclasses.fields(package.Inputs)],
            [f.name for f in dataclasses.fields(package.Probe)])


def port(field):
    """The netlist's port (and the waves' name) of a golden model's field: a stream's
    fields are ``rx_valid`` in the model, ``rx__valid`` in Amaranth's names."""
    stream, _, rest = field.partition("_")
    return f"{stream}__{rest}" if stream in ("rx", "tx") and rest else field


def widths():
    """The width of each of the signature's ports, by its netlist name."""
    return {"__".join(path): Shape.cast(member.shape).width
            for path, member in Signature().members.flatten() if member.is_port}


def write_golden(package, game, path, given):
    """The golden model's (`package`) waves of `game` (the inputs of each clock) to
    `path`, whole or not at all: its pins under `TOP`, timed as the benches time them.
    `given`: the Model's keyword arguments, as the core's."""
    inputs, outputs = fields(package)
    declared = widths()
    names = [CLOCK] + [port(f) for f in inputs + outputs]
    model = package.Model(**given)
    variables = {n: files.Var((TOP, n), 1, "wire") for n in names}
    seen = {}
    half = PERIOD / 2

    def dump(time, clock):
        values = {CLOCK: clock}
        values.update((port(f), getattr(model.inputs, f)) for f in inputs)
        probe = model.probe
        values.update((port(f), getattr(probe, f)) for f in outputs)
        for n, value in values.items():
            seen[n] = max(seen.get(n, 1), int(value).bit_length())
            variables[n].change(int(time / UNIT), int(value))

    if game:
        model.set(game[0])
    dump(0, 0)
    for step, pins in enumerate(game):
        if step:
            model.set(pins)
            dump((step + 1) * PERIOD - half, 0)     # the falling edge: new inputs
        model.tick()
        dump((step + 1) * PERIOD, 1)
    end = (len(game) + 1) * PERIOD - half
    variables[CLOCK].change(int(end / UNIT), 0)
    for n, var in variables.items():
        var.width = declared.get(n, seen[n])
        var.values = [format(v, "b") for v in var.values]
    files.write(path, list(variables.values()), UNIT, end=int(end / UNIT),
                comment=f"the golden model ({package.__name__}), written by "
                        f"sim/waves/game.py")


def rename(raw, vcd, what):
    """Amaranth's waves of a core in `raw` (the design under ``bench.top``), written
    whole to `vcd`: the core under `TOP`, its clock `CLOCK`, without the simulator's
    reset and Amaranth's ``$n`` copies; `what` names the core in the file's comment."""
    amaranth = files.read(raw)
    renamed, inside = [], {var.path[2:] for var in amaranth.vars
                           if var.path[:2] == ("bench", "top")}
    for var in amaranth.vars:
        path = var.path
        if len(path) == 2 and path[0] == "bench" and path[1:] not in inside:
            path = ("bench", "top", path[1])        # a port traced beside the design
        if path[:2] != ("bench", "top") or len(path) < 3:
            continue
        *scopes, leaf = path[2:]
        if "$" in leaf or leaf == "rst":
            continue
        renamed.append(dataclasses.replace(
            var, path=(TOP, *scopes, CLOCK if leaf == "clk" else leaf)))
    files.write(vcd, renamed, amaranth.unit, end=amaranth.end,
                comment=f"{what} in Amaranth's simulator, written by sim/waves/game.py")


def view(waves_path, *, save_path=None):
    """A GTKWave save file for a game's waves: the clock, the inputs and the outputs,
    each board as nine places; the first 20 clocks in view. Returns its path (default:
    beside the waves, suffix .gtkw)."""
    waves_path = Path(waves_path)
    waves = files.read(waves_path)
    found = {var.path[1]: var for var in waves.vars
             if len(var.path) == 2 and var.path[0] == TOP}

    def trace(n):
        var = found[n]
        bits = f"[{var.width - 1}:0]" if var.width > 1 and not var.is_string else ""
        return gtkw.Trace(f"{TOP}.{n}{bits}", n, "bin" if n in BINARY else "hex")

    def places(n):
        width = found[n].width
        return gtkw.Group(n, tuple(
            gtkw.Trace(f"#{{{n}[{2 * k + 1}:{2 * k}]}} ({width - 2 - 2 * k}){TOP}.{n}"
                       f"[{width - 1}:0] ({width - 1 - 2 * k}){TOP}.{n}[{width - 1}:0]",
                       f"{n} {coordinate(k)}", "hex", "place") for k in range(9)))

    def rows(names):
        return tuple(places(n) if n in BOARD_SIGNALS else trace(n) for n in names if n in found)

    shown = [gtkw.Group("clock", (trace(CLOCK),))] if CLOCK in found else []
    shown += [gtkw.Group("inputs", rows(INPUTS)), gtkw.Group("outputs", rows(OUTPUTS))]
    # gtkw.zoom(u) shows gtkw.SHOWN (2 us) of a file in units of u; of a file in units
    # of u / 10 it shows ten times as much: 20 clocks of PERIOD.
    return gtkw.save(gtkw.View(waves_path, tuple(shown), gtkw.zoom(waves.unit / 10),
                               treeopen=TOP,
                               filters={"place": {0: "empty", 1: "red", 2: "green",
                                                  3: "both"}}),
                     save_path or waves_path.with_suffix(".gtkw"))


def compare(expected_vcd, actual_vcd):
    """Compare two games' waves at every clock edge: sim.waves.compare's Report, pins
    paired by name below `TOP`, no enums."""
    return comparer.compare(expected_vcd, actual_vcd, clocks=(CLOCK,), enums={})
